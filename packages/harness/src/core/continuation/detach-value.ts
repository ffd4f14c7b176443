import { MAX_CONTINUATION_DEPTH, toPlainJson } from './to-plain-json.js';
import { describeError } from '../../shared/describe-error.js';

/**
 * Largest value (as compact JSON) the loop keeps from a model output, a tool result, an approval
 * request or a hook's answer: 32 MiB, the providers' default cap on a whole streamed response.
 */
export const MAX_DETACHED_VALUE_BYTES = 33_554_432 /* 32 MiB */;

/**
 * Deepest nesting of such a value. Kept values sit at most eight levels inside a continuation
 * (`state.transcript[i].request.details.input`), so whatever the loop keeps can always be sealed.
 */
export const MAX_DETACHED_VALUE_DEPTH = MAX_CONTINUATION_DEPTH - 8;

/** A detached plain-JSON copy of a value, or why the value cannot be kept. */
export type DetachedValue<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * Copies a value that came from outside the loop into fresh plain JSON data, reading every
 * property once, so what the loop keeps can neither change later nor run code when read. Getters
 * that throw, Proxies, BigInts, functions, cycles, and values too large or too deep are refused
 * with a reason. Never throws.
 */
export function detachValue<T>(value: T): DetachedValue<T> {
  try {
    const copied = toPlainJson(value, { maxBytes: MAX_DETACHED_VALUE_BYTES, maxDepth: MAX_DETACHED_VALUE_DEPTH });
    return copied.ok ? { ok: true, value: copied.value as T } : copied;
  } catch (error) {
    return { ok: false, reason: `it could not be read (${describeError(error, 200)})` };
  }
}
