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
}

/** A plain-JSON copy of a value, or why it is not one. */
export type PlainJsonResult = { ok: true; value: unknown } | { ok: false; reason: string };

interface Task {
  value: unknown;
  depth: number;
  target: Record<string, unknown> | unknown[];
  key: string | number;
}

class NotPlainJson extends Error {}

/**
 * Copies a value of unknown origin into fresh, plain JSON data (arrays, objects, strings, finite
 * numbers, booleans, null) without recursion, reading every property exactly once.
 *
 * Size and depth are checked while copying, before anything else looks at the value, so a value
 * nested thousands of levels deep, a cycle, a getter that throws, a Proxy, a BigInt or a function
 * is refused with a reason instead of throwing. Object keys such as `__proto__` become own data
 * properties of the copy. Like `JSON.stringify`, only own enumerable string keys are read,
 * `undefined` object members are left out and `undefined` array items become `null`.
 */
export function toPlainJson(raw: unknown, limits: PlainJsonLimits): PlainJsonResult {
  if (raw === undefined) return { ok: false, reason: 'it is undefined' };
  const holder: unknown[] = [undefined];
  const stack: Task[] = [{ value: raw, depth: 0, target: holder, key: 0 }];
  let bytes = 0;
  const spend = (amount: number) => {
    bytes += amount;
    if (bytes > limits.maxBytes) throw new NotPlainJson(`it is larger than ${limits.maxBytes} bytes`);
  };
  try {
    for (let task = stack.pop(); task !== undefined; task = stack.pop()) {
      const copy = copyNode(task, stack, limits.maxDepth, spend);
      if (Array.isArray(task.target)) task.target[task.key as number] = copy;
      else Object.defineProperty(task.target, task.key, { value: copy, enumerable: true, writable: true, configurable: true });
    }
  } catch (error) {
    if (isRefusal(error)) return { ok: false, reason: error.message };
    return { ok: false, reason: 'reading it threw (a throwing getter or Proxy?)' };
  }
  return { ok: true, value: holder[0] };
}

/** True for this module's own refusals; a thrown Proxy whose traps throw is simply not one. */
function isRefusal(error: unknown): error is NotPlainJson {
  try {
    return error instanceof NotPlainJson;
  } catch {
    return false;
  }
}

function copyNode(task: Task, stack: Task[], maxDepth: number, spend: (amount: number) => void): unknown {
  const { value, depth } = task;
  switch (typeof value) {
    case 'string':
      spend(value.length + 2);
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new NotPlainJson('it holds a number that JSON cannot carry');
      spend(String(value).length);
      return value === 0 ? 0 : value; // -0 becomes 0, as in JSON
    case 'boolean':
      spend(value ? 4 : 5);
      return value;
    case 'undefined':
      spend(4);
      return null;
    case 'object':
      if (value === null) {
        spend(4);
        return null;
      }
      if (depth >= maxDepth) throw new NotPlainJson(`it is nested deeper than ${maxDepth} levels (or is circular)`);
      return Array.isArray(value) ? copyArray(value, depth, stack, spend) : copyObject(value, depth, stack, spend);
    default:
      throw new NotPlainJson(`it holds a ${typeof value}, which JSON cannot carry`);
  }
}

function copyArray(source: unknown[], depth: number, stack: Task[], spend: (amount: number) => void): unknown[] {
  const length = source.length;
  spend(2 + Math.max(0, length - 1));
  const copy: unknown[] = [];
  for (let index = 0; index < length; index += 1) copy.push(null);
  for (let index = length - 1; index >= 0; index -= 1) {
    stack.push({ value: source[index], depth: depth + 1, target: copy, key: index });
  }
  return copy;
}

function copyObject(source: object, depth: number, stack: Task[], spend: (amount: number) => void): Record<string, unknown> {
  const keys = Object.keys(source);
  spend(2);
  const copy: Record<string, unknown> = {};
  const members: Task[] = [];
  for (const key of keys) {
    const member = (source as Record<string, unknown>)[key];
    if (member === undefined) continue;
    spend(key.length + 3 + (members.length > 0 ? 1 : 0));
    Object.defineProperty(copy, key, { value: null, enumerable: true, writable: true, configurable: true });
    members.push({ value: member, depth: depth + 1, target: copy, key });
  }
  for (let index = members.length - 1; index >= 0; index -= 1) stack.push(members[index]!);
  return copy;
}
