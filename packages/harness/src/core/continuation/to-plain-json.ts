/**
 * How deeply a continuation may nest, the continuation object itself being level 0. Sealing
 * refuses deeper state and opening refuses deeper input, before anything recurses into it.
 */
export const MAX_CONTINUATION_DEPTH = 64;

/** Bounds of `toPlainJson`. */
export interface PlainJsonLimits {
  /** Largest accepted size, measured as the length of the value's compact JSON text (a lower bound of its UTF-8 bytes). */
  maxBytes: number;
  /** Deepest accepted nesting of arrays and objects; the value itself is depth 0. */
  maxDepth: number;
  /**
   * Applied to every string and object key of the copy (e.g. a redactor); sizes are measured
   * after it. Keys it maps to the same text keep the last value. @default none
   */
  mapText?: ((text: string) => string) | undefined;
}

/** A plain-JSON copy of a value, or why it is not one. */
export type PlainJsonResult = { ok: true; value: unknown } | { ok: false; reason: string };

class NotPlainJson extends Error {}

/**
 * Copies a value of unknown origin into fresh, plain JSON data (arrays, objects, strings, finite
 * numbers, booleans, null), reading every property exactly once.
 *
 * Size and depth are checked while copying, before anything else looks at the value, so a value
 * nested thousands of levels deep, a cycle, a getter that throws, a Proxy, a BigInt or a function
 * is refused with a reason instead of throwing. The copy recurses at most `maxDepth` levels (keep
 * it small; the harness uses at most 64). Object keys such as `__proto__` become own data
 * properties of the copy. Like `JSON.stringify`, only own enumerable string keys are read,
 * `undefined` object members are left out and `undefined` array items become `null`.
 */
export function toPlainJson(raw: unknown, limits: PlainJsonLimits): PlainJsonResult {
  if (raw === undefined) return { ok: false, reason: 'it is undefined' };
  const budget: Budget = { bytes: 0, maxBytes: limits.maxBytes, maxDepth: limits.maxDepth, mapText: limits.mapText };
  try {
    return { ok: true, value: copyNode(raw, 0, budget) };
  } catch (error) {
    if (isRefusal(error)) return { ok: false, reason: error.message };
    return { ok: false, reason: 'reading it threw (a throwing getter or Proxy?)' };
  }
}

/** True for this module's own refusals; a thrown Proxy whose traps throw is simply not one. */
function isRefusal(error: unknown): error is NotPlainJson {
  try {
    return error instanceof NotPlainJson;
  } catch {
    return false;
  }
}

interface Budget {
  bytes: number;
  readonly maxBytes: number;
  readonly maxDepth: number;
  readonly mapText: ((text: string) => string) | undefined;
}

function spend(budget: Budget, amount: number): void {
  budget.bytes += amount;
  if (budget.bytes > budget.maxBytes) throw new NotPlainJson(`it is larger than ${budget.maxBytes} bytes`);
}

function copyNode(value: unknown, depth: number, budget: Budget): unknown {
  switch (typeof value) {
    case 'string': {
      const text = budget.mapText === undefined ? value : budget.mapText(value);
      spend(budget, text.length + 2);
      return text;
    }
    case 'number':
      if (!Number.isFinite(value)) throw new NotPlainJson('it holds a number that JSON cannot carry');
      spend(budget, String(value).length);
      return value === 0 ? 0 : value; // -0 becomes 0, as in JSON
    case 'boolean':
      spend(budget, value ? 4 : 5);
      return value;
    case 'undefined':
      spend(budget, 4);
      return null;
    case 'object':
      if (value === null) {
        spend(budget, 4);
        return null;
      }
      if (depth >= budget.maxDepth) throw new NotPlainJson(`it is nested deeper than ${budget.maxDepth} levels (or is circular)`);
      return Array.isArray(value) ? copyArray(value, depth, budget) : copyObject(value, depth, budget);
    default:
      throw new NotPlainJson(`it holds a ${typeof value}, which JSON cannot carry`);
  }
}

function copyArray(source: unknown[], depth: number, budget: Budget): unknown[] {
  const length: unknown = source.length;
  if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0) {
    throw new NotPlainJson('it holds an array with an unusable length');
  }
  // Charged before the loop, so a sparse (or lying) length cannot make it run long.
  spend(budget, 2 + Math.max(0, length - 1));
  const copy: unknown[] = [];
  for (let index = 0; index < length; index += 1) copy.push(copyNode(source[index], depth + 1, budget));
  return copy;
}

function copyObject(source: object, depth: number, budget: Budget): Record<string, unknown> {
  const keys = Object.keys(source);
  spend(budget, 2);
  const copy: Record<string, unknown> = {};
  let members = 0;
  for (const sourceKey of keys) {
    const member = (source as Record<string, unknown>)[sourceKey];
    if (member === undefined) continue;
    const key = budget.mapText === undefined ? sourceKey : budget.mapText(sourceKey);
    spend(budget, key.length + 3 + (members > 0 ? 1 : 0));
    members += 1;
    const item = copyNode(member, depth + 1, budget);
    // Only `__proto__` is an inherited setter on a plain object; define it as an own key instead.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy;
}
