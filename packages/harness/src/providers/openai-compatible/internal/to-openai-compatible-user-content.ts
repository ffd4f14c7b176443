import type { HarnessAttachment } from '../../../shared/types/turn-input.js';
import { readAttachment, unsupportedAttachment, type AttachmentSource } from '../../internal/read-attachment.js';
import type { OpenAICompatibleContentPart } from '../openai-compatible-api-types.js';


function dataUrl(source: Extract<AttachmentSource, { type: 'base64' }>): string {
  return `data:${source.mediaType};base64,${source.data}`;
}

/**
 * The `content` of a user message: the text alone, or — with attachments — a parts array: the text,
 * then each image as `image_url` (its `https:` URL, or a `data:` URL built from inline data) and
 * each other file as `file` with `file_data` (a `data:` URL; OpenAI and OpenRouter take PDFs this
 * way). A file by plain URL, or an address that is not `http(s):`, cannot be sent.
 * @throws UnsupportedInputError (reason `attachments_unsupported`) naming the attachment.
 */
export function toOpenAICompatibleUserContent(text: string, attachments: readonly HarnessAttachment[] | undefined): string | OpenAICompatibleContentPart[] {
  if (attachments === undefined || attachments.length === 0) return text;
  const parts: OpenAICompatibleContentPart[] = text === '' ? [] : [{ type: 'text', text }];
  for (const attachment of attachments) parts.push(toContentPart(attachment));
  return parts;
}

function toContentPart(attachment: HarnessAttachment): OpenAICompatibleContentPart {
  const read = readAttachment(attachment);
  const { source } = read;
  if (read.kind === 'image') {
    if (source.type === 'base64') return { type: 'image_url', image_url: { url: dataUrl(source) } };
    return { type: 'image_url', image_url: { url: source.url } };
  }
  if (source.type === 'url') throw unsupportedAttachment(attachment, 'chat completions take files only as inline data, not by URL');
  return { type: 'file', file: { filename: read.name ?? attachment.id, file_data: dataUrl(source) } };
}
