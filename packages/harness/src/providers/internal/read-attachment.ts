import type { HarnessAttachment } from '../../shared/types/turn-input.js';
import { splitDataUrl } from '../../shared/data-url.js';
import { UnsupportedInputError } from './unsupported-input-error.js';

/** Where an attachment's bytes are: an address the provider fetches, or inline base64. */
export type AttachmentSource = { type: 'url'; url: string } | { type: 'base64'; data: string; mediaType: string };

/** An attachment read for a provider: an image or another file, and its source. */
export interface ReadAttachment {
  kind: 'image' | 'file';
  source: AttachmentSource;
  /** The media type, when known (always for `base64`; for a `data:` URL, from the URL). */
  mediaType?: string | undefined;
  name?: string | undefined;
  attachment: HarnessAttachment;
}

/**
 * Reads an attachment the turn input already validated: `data` + `mediaType` become a base64
 * source; a `data:` URL is split into the same; an `http(s):` URL stays an address; anything else
 * throws `attachments_unsupported`. An image is a
 * `mediaType` of `image/*` or, without one, `type: 'image'`.
 */
export function readAttachment(attachment: HarnessAttachment): ReadAttachment {
  const dataUrl = attachment.url === undefined ? undefined : splitDataUrl(attachment.url);
  const mediaType = attachment.mediaType ?? (dataUrl?.mediaType || undefined);
  const kind = mediaType === undefined ? (attachment.type === 'image' ? 'image' : 'file') : mediaType.startsWith('image/') ? 'image' : 'file';
  let source: AttachmentSource;
  if (attachment.data !== undefined && mediaType !== undefined) source = { type: 'base64', data: attachment.data, mediaType };
  else if (dataUrl !== undefined && dataUrl.mediaType !== '') source = { type: 'base64', data: dataUrl.data, mediaType: dataUrl.mediaType };
  else if (attachment.url !== undefined && /^https?:\/\//i.test(attachment.url)) source = { type: 'url', url: attachment.url };
  else if (attachment.url !== undefined) throw unsupportedAttachment(attachment, 'a model provider takes only http(s): and data: URLs');
  else throw unsupportedAttachment(attachment, 'it has neither a url nor inline data with a media type');
  return { kind, source, ...(mediaType === undefined ? {} : { mediaType }), ...(attachment.name === undefined ? {} : { name: attachment.name }), attachment };
}

/** The error a provider throws for an attachment it cannot send, naming it and saying why. */
export function unsupportedAttachment(attachment: HarnessAttachment, why: string): UnsupportedInputError {
  const label = attachment.name === undefined ? `"${attachment.id}"` : `"${attachment.id}" (${attachment.name})`;
  return new UnsupportedInputError('attachments_unsupported', `Attachment ${label} cannot be sent: ${why}.`);
}
