import { splitDataUrl } from '../../shared/data-url.js';
import type { HarnessAttachment, HarnessTurnInput } from '../../shared/types/turn-input.js';
import type { ResolvedHarnessLimits } from '../limits.js';
import type { RunEnding } from './finish-run.js';

/**
 * The ending of a turn whose input is over `maxHistoryMessages`, `maxAttachments` or
 * `maxAttachmentBytes` (`failed` / `runtime_error`, source `input`, not retryable), or
 * `undefined` when it fits. Runs before any model or backend call; the input was validated, so
 * inline data is well-formed base64.
 */
export function checkInputLimits(input: HarnessTurnInput, limits: ResolvedHarnessLimits): RunEnding | undefined {
  const history = input.history ?? [];
  if (history.length > limits.maxHistoryMessages) {
    return refuse(
      'too_many_history_messages',
      `The turn's history has ${history.length} messages, over limits.maxHistoryMessages (${limits.maxHistoryMessages}); send only the most recent ones.`,
    );
  }
  const located: [where: string, attachment: HarnessAttachment][] = [];
  history.forEach((entry, index) => {
    for (const attachment of entry.attachments ?? []) located.push([`history[${index}]`, attachment]);
  });
  for (const attachment of input.message.attachments ?? []) located.push(['message', attachment]);
  if (located.length > limits.maxAttachments) {
    return refuse(
      'too_many_attachments',
      `The turn carries ${located.length} attachments (message and history), over limits.maxAttachments (${limits.maxAttachments}).`,
    );
  }
  for (const [where, attachment] of located) {
    const bytes = inlineBytes(attachment);
    if (bytes > limits.maxAttachmentBytes) {
      return refuse(
        'attachment_too_large',
        `Attachment ${label(attachment)} of ${where} has ${bytes} inline bytes, over limits.maxAttachmentBytes (${limits.maxAttachmentBytes}); send it by URL or raise the limit.`,
      );
    }
  }
  return undefined;
}

/** Decoded size of an attachment's inline base64 (`data`, and a `data:` URL); an address counts 0. */
export function inlineBytes(attachment: HarnessAttachment): number {
  const fromUrl = attachment.url === undefined ? undefined : splitDataUrl(attachment.url);
  return (attachment.data === undefined ? 0 : base64Bytes(attachment.data)) + (fromUrl === undefined ? 0 : base64Bytes(fromUrl.data));
}

function base64Bytes(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

function label(attachment: HarnessAttachment): string {
  const id = attachment.id.length > 80 ? `${attachment.id.slice(0, 80)}…` : attachment.id;
  return JSON.stringify(id);
}

function refuse(code: string, message: string): RunEnding {
  return { stopReason: 'runtime_error', metadata: { error: { code, message, source: 'input', retryable: false } } };
}
