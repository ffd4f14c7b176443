import type { HarnessAttachment } from '../../../shared/types/turn-input.js';
import { readAttachment, unsupportedAttachment } from '../../internal/read-attachment.js';
import type { AnthropicRequestContentBlock } from '../anthropic-api-types.js';

/** The image media types the Messages API accepts. */
const imageMediaTypes = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
const takes = 'the Messages API takes JPEG, PNG, GIF and WebP images, PDFs, and plain text sent inline';

/**
 * Maps an attachment to a Messages API block: an image (JPEG, PNG, GIF, WebP) to an `image` block,
 * a PDF to a `document` block (inline base64 or by URL), inline `text/plain` to a `document` with a
 * `text` source (decoded from base64). Anything else throws `attachments_unsupported`, naming it.
 */
export function toAnthropicAttachmentBlock(attachment: HarnessAttachment): AnthropicRequestContentBlock {
  const read = readAttachment(attachment);
  const mediaType = read.mediaType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType === undefined ? read.kind === 'image' : mediaType.startsWith('image/')) {
    if (mediaType !== undefined && !imageMediaTypes.has(mediaType)) throw unsupportedAttachment(attachment, `${takes}, not ${mediaType}`);
    if (read.source.type === 'url') return { type: 'image', source: { type: 'url', url: read.source.url } };
    return { type: 'image', source: { type: 'base64', media_type: mediaType ?? read.source.mediaType, data: read.source.data } };
  }
  const title = attachment.name === undefined || attachment.name.trim() === '' ? {} : { title: attachment.name };
  if (mediaType === 'application/pdf') {
    const source = read.source.type === 'url' ? { type: 'url' as const, url: read.source.url } : { type: 'base64' as const, media_type: 'application/pdf', data: read.source.data };
    return { type: 'document', source, ...title };
  }
  if (mediaType === 'text/plain' && read.source.type === 'base64') {
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: decodeBase64Text(read.source.data, attachment) }, ...title };
  }
  if (mediaType === undefined) throw unsupportedAttachment(attachment, `its media type is unknown; set mediaType (${takes})`);
  throw unsupportedAttachment(attachment, `${takes}, not ${mediaType}${read.source.type === 'url' ? ' by URL' : ''}`);
}

function decodeBase64Text(data: string, attachment: HarnessAttachment): string {
  try {
    const binary = atob(data);
    const bytes = Uint8Array.from(binary, (character) => character.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw unsupportedAttachment(attachment, 'its data is not base64-encoded UTF-8 text');
  }
}
