import type { HarnessReasoningPart } from '../../../core/types/reasoning.js';
import type { Redactor } from '../../../shared/redact-secrets.js';
import type { OpenAIResponsesOutputItem } from '../openai-responses-api-types.js';

/** The `provider` of the reasoning parts this adapter writes and replays. */
export const OPENAI_RESPONSES_PROVIDER = 'openai-responses';

/** An output item issued right after a reasoning item, which must go back (by id) together with it. */
export type FollowingItem = { type: 'message'; id: string } | { type: 'function_call'; id: string; callId: string };

/**
 * Turns the reasoning items of a response into reasoning parts: `id` is the item id, `text` its
 * summary (parts joined by a blank line, secrets redacted), `data` its `encrypted_content`, and
 * `signature` the ids of the message / function-call items issued after it (until the next
 * reasoning item), as JSON — opaque to the harness, read back by `readFollowingItems`. Function
 * calls are named by `callIds` (the API's `call_id` → the harness call id); a call whose id the
 * harness replaced is not listed. A reasoning item whose id or encrypted content holds a secret is
 * kept as text only.
 */
export function toReasoningParts(items: readonly OpenAIResponsesOutputItem[], callIds: ReadonlyMap<string, string>, redactor: Redactor): HarnessReasoningPart[] {
  const parts: HarnessReasoningPart[] = [];
  let following: FollowingItem[] | undefined;
  const close = () => {
    const last = parts.at(-1);
    if (last !== undefined && last.id !== undefined && following !== undefined && following.length > 0) last.signature = JSON.stringify(following);
  };
  for (const item of items) {
    if (item.type === 'reasoning') {
      close();
      const text = redactor.exact((item.summary ?? []).map(summaryText).filter((piece) => piece !== '').join('\n\n'));
      const id = item.id ?? undefined;
      const data = item.encrypted_content ?? undefined;
      const clean = id !== undefined && redactor.exact(id) === id && (data === undefined || redactor.exact(data) === data);
      parts.push({ provider: OPENAI_RESPONSES_PROVIDER, ...(text === '' ? {} : { text }), ...(clean ? { id, ...(data === undefined ? {} : { data }) } : {}) });
      following = clean ? [] : undefined;
    } else if (following !== undefined && item.id != null && redactor.exact(item.id) === item.id) {
      if (item.type === 'message') following.push({ type: 'message', id: item.id });
      const callId = item.type === 'function_call' && item.call_id != null ? callIds.get(item.call_id) : undefined;
      if (callId !== undefined) following.push({ type: 'function_call', id: item.id, callId });
    }
  }
  close();
  return parts;
}

function summaryText(summary: unknown): string {
  if (typeof summary !== 'object' || summary === null) return '';
  const text = (summary as { text?: unknown }).text;
  return typeof text === 'string' ? text : '';
}

/** Reads the `signature` written by `toReasoningParts`; anything else (a tampered or foreign value) reads as none. */
export function readFollowingItems(signature: string | undefined): FollowingItem[] {
  if (signature === undefined) return [];
  let value: unknown;
  try {
    value = JSON.parse(signature);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  const items: FollowingItem[] = [];
  for (const entry of value as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { type, id, callId } = entry as Record<string, unknown>;
    if (typeof id !== 'string') continue;
    if (type === 'message') items.push({ type, id });
    else if (type === 'function_call' && typeof callId === 'string') items.push({ type, id, callId });
  }
  return items;
}
