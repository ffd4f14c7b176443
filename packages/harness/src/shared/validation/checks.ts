import { addIssue, makeCheck, type Check, type ParseContext } from './schema.js';

/** What a refinement's message is given as: the text, or `{ error }` / `{ message }`. */
export type RefineMessage = string | { error?: string; message?: string };

function messageOf(params: RefineMessage | undefined): string | undefined {
  return typeof params === 'string' ? params : (params?.error ?? params?.message);
}

/** Length in code points (a character outside the BMP counts once). */
function codePoints(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

// A code point is one or two UTF-16 units, so a string's code points are between half its
// `length` and its `length`: they are counted only when the bound falls in that range.

/** At least `minimum` characters (code points) or elements. */
/* @__NO_SIDE_EFFECTS__ */
export function minLength(minimum: number): Check<string | readonly unknown[]> {
  return makeCheck((value: string | readonly unknown[], context) => {
    const units = value.length;
    const short = typeof value === 'string' && units >= minimum && units / 2 < minimum ? codePoints(value) < minimum : units < minimum;
    if (short) addIssue(context, { code: 'too_small', minimum, inclusive: true, continue: true });
    return value;
  });
}

/** At most `maximum` characters (code points) or elements. */
/* @__NO_SIDE_EFFECTS__ */
export function maxLength(maximum: number): Check<string | readonly unknown[]> {
  return makeCheck((value: string | readonly unknown[], context) => {
    const units = value.length;
    const long = typeof value === 'string' && units > maximum && units / 2 <= maximum ? codePoints(value) > maximum : units > maximum;
    if (long) addIssue(context, { code: 'too_big', maximum, inclusive: true, continue: true });
    return value;
  });
}

function bound(limit: number, below: boolean, inclusive: boolean): Check<number> {
  return makeCheck((value: number, context) => {
    const fails = below ? (inclusive ? value < limit : value <= limit) : inclusive ? value > limit : value >= limit;
    if (fails) {
      addIssue(context, below ? { code: 'too_small', minimum: limit, inclusive, continue: true } : { code: 'too_big', maximum: limit, inclusive, continue: true });
    }
    return value;
  });
}

/** `>= limit`. */
/* @__NO_SIDE_EFFECTS__ */
export function gte(limit: number): Check<number> {
  return bound(limit, true, true);
}
/** `> limit`. */
/* @__NO_SIDE_EFFECTS__ */
export function gt(limit: number): Check<number> {
  return bound(limit, true, false);
}
/** `<= limit`. */
/* @__NO_SIDE_EFFECTS__ */
export function lte(limit: number): Check<number> {
  return bound(limit, false, true);
}
/** `> 0`. */
/* @__NO_SIDE_EFFECTS__ */
export function positive(): Check<number> {
  return bound(0, true, false);
}
export { gte as minimum, lte as maximum };

/** Matches `pattern` (tested from the start of the string each time). */
/* @__NO_SIDE_EFFECTS__ */
export function regex(pattern: RegExp, params?: RefineMessage): Check<string> {
  return makeCheck((value: string, context) => {
    pattern.lastIndex = 0;
    if (!pattern.test(value)) addIssue(context, { code: 'invalid_format', pattern: String(pattern), message: messageOf(params), continue: true });
    return value;
  });
}

/** Removes leading and trailing white space before the checks after it. */
/* @__NO_SIDE_EFFECTS__ */
export function trim(): Check<string> {
  return makeCheck((value: string) => value.trim());
}

/** Passes when `predicate` returns true; otherwise a `custom` issue with `params` as its message. */
/* @__NO_SIDE_EFFECTS__ */
export function refine<T>(predicate: (value: T) => unknown, params?: RefineMessage): Check<T> {
  return makeCheck((value: T, context) => {
    if (!predicate(value)) addIssue(context, { code: 'custom', message: messageOf(params) ?? 'invalid input', continue: true });
    return value;
  });
}

/** What `superRefine` can do: record issues (paths relative to the value). */
export interface RefinementContext {
  addIssue(issue: { code: 'custom'; message: string; path?: readonly PropertyKey[]; input?: unknown }): void;
}

/** Runs `refinement`, which records any number of issues. */
/* @__NO_SIDE_EFFECTS__ */
export function superRefine<T>(refinement: (value: T, context: RefinementContext) => void): Check<T> {
  return makeCheck((value: T, context: ParseContext) => {
    refinement(value, { addIssue: (issue) => addIssue(context, { ...issue, continue: true }) });
    return value;
  });
}
