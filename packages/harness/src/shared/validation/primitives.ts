import type { RefineMessage } from './checks.js';
import { addIssue, Schema, type ParseContext } from './schema.js';

function typed<T>(expected: string, accepts: (value: unknown) => boolean): Schema<T> {
  return new Schema<T>((value, context) => {
    if (!accepts(value)) addIssue(context, { code: 'invalid_type', expected });
    return value;
  });
}

/** A string. */
/* @__NO_SIDE_EFFECTS__ */
export function string(): Schema<string> {
  return typed('string', (value) => typeof value === 'string');
}

/** A finite number. */
/* @__NO_SIDE_EFFECTS__ */
export function number(): Schema<number> {
  return typed('number', (value) => typeof value === 'number' && Number.isFinite(value));
}

/** A safe integer. An integer past the safe range is `too_big` / `too_small`, as in zod. */
/* @__NO_SIDE_EFFECTS__ */
export function int(): Schema<number> {
  return new Schema<number>((value, context) => {
    if (!Number.isInteger(value)) addIssue(context, { code: 'invalid_type', expected: 'int' });
    else if ((value as number) > Number.MAX_SAFE_INTEGER) addIssue(context, { code: 'too_big', maximum: Number.MAX_SAFE_INTEGER, inclusive: true, continue: true });
    else if ((value as number) < Number.MIN_SAFE_INTEGER) addIssue(context, { code: 'too_small', minimum: Number.MIN_SAFE_INTEGER, inclusive: true, continue: true });
    return value;
  });
}

/** `true` or `false`. */
/* @__NO_SIDE_EFFECTS__ */
export function boolean(): Schema<boolean> {
  return typed('boolean', (value) => typeof value === 'boolean');
}

/** Anything (an object key with it must still be present; wrap it in `optional` otherwise). */
/* @__NO_SIDE_EFFECTS__ */
export function unknown(): Schema<unknown> {
  return new Schema((value) => value);
}

type Primitive = string | number | boolean | null | undefined;

function oneOf<T>(values: readonly unknown[]): Schema<T> {
  const accepted = new Set(values);
  return new Schema<T>(
    (value, context: ParseContext) => {
      if (!accepted.has(value)) addIssue(context, { code: 'invalid_value', values });
      return value;
    },
    { values: accepted },
  );
}

/** Exactly `value` (or one of `values`). */
/* @__NO_SIDE_EFFECTS__ */
export function literal<const T extends Primitive>(value: T | readonly T[]): Schema<T> {
  return oneOf<T>(Array.isArray(value) ? value : [value]);
}

/** One of the strings in `values`. */
/* @__NO_SIDE_EFFECTS__ */
function enumOf<const T extends readonly string[]>(values: T): Schema<T[number]> {
  return oneOf<T[number]>(values);
}
export { enumOf as enum };

/** A value `accepts` approves (any value without it); otherwise a `custom` issue that stops later checks, as in zod. */
/* @__NO_SIDE_EFFECTS__ */
export function custom<T>(accepts?: (value: unknown) => unknown, params?: RefineMessage): Schema<T> {
  const message = typeof params === 'string' ? params : (params?.error ?? params?.message ?? 'invalid input');
  return new Schema<T>((value, context) => {
    if (accepts !== undefined && !accepts(value)) addIssue(context, { code: 'custom', message });
    return value;
  });
}
