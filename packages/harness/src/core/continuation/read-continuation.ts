import { MAX_CONTINUATION_DEPTH, toPlainJson } from './to-plain-json.js';

/** A continuation as plain JSON data, not yet verified, or why it cannot even be read. */
export type ReadContinuation = { ok: true; value: Record<string, unknown> } | { ok: false; reason: string };

/** Pretty-printed JSON text may be this many times larger than its compact form. */
const TEXT_SLACK = 4;

/**
 * Turns whatever `resumeTurn` was given — JSON text or a value — into a fresh plain-JSON object,
 * bounded by `maxBytes` (the harness's `limits.maxContinuationBytes`) and `MAX_CONTINUATION_DEPTH`
 * before anything recurses into it. Never throws.
 */
export function readContinuation(raw: unknown, maxBytes: number): ReadContinuation {
  let value = raw;
  if (typeof raw === 'string') {
    if (raw.length > maxBytes * TEXT_SLACK) {
      return { ok: false, reason: `The continuation text is larger than limits.maxContinuationBytes (${maxBytes}).` };
    }
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      return { ok: false, reason: 'The continuation is not valid JSON.' };
    }
  }
  const copied = toPlainJson(value, { maxBytes, maxDepth: MAX_CONTINUATION_DEPTH });
  if (!copied.ok) {
    const limit = copied.reason.startsWith('it is larger') ? ` (limits.maxContinuationBytes)` : '';
    return { ok: false, reason: `The continuation is not plain JSON within limits: ${copied.reason}${limit}.` };
  }
  const copy = copied.value;
  if (typeof copy !== 'object' || copy === null || Array.isArray(copy)) {
    return { ok: false, reason: 'The continuation is not a JSON object.' };
  }
  return { ok: true, value: copy as Record<string, unknown> };
}
