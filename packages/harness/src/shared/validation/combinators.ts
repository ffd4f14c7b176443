import { addIssue, runAt, Schema, stopped, type OptionalSchema, type Output, type ParseContext } from './schema.js';
import type { ValidationIssue } from './issues.js';
import { isRecord } from '../is-record.js';
import { appendAll } from '../append-all.js';

/** `schema`, or `undefined`; as an object key, the key may be absent. */
/* @__NO_SIDE_EFFECTS__ */
export function optional<S extends Schema>(schema: S): OptionalSchema<Output<S> | undefined> {
  return new Schema((value, context) => (value === undefined ? value : schema.run(value, context)), { optional: true }) as OptionalSchema<
    Output<S> | undefined
  >;
}

/** `schema`, or `null`. */
/* @__NO_SIDE_EFFECTS__ */
export function nullable<S extends Schema>(
  schema: S,
): S extends { readonly optional: true } ? OptionalSchema<Output<S> | null> : Schema<Output<S> | null> {
  const parse = (value: unknown, context: ParseContext) => (value === null ? value : schema.run(value, context));
  return new Schema(parse, { optional: schema.optional }) as never;
}

/** An array whose elements all match `element`. */
/* @__NO_SIDE_EFFECTS__ */
export function array<S extends Schema>(element: S): Schema<Output<S>[]> {
  return new Schema((input, context) => {
    if (!Array.isArray(input)) {
      addIssue(context, { code: 'invalid_type', expected: 'array' });
      return input;
    }
    const output = new Array<unknown>(input.length);
    for (let index = 0; index < input.length; index += 1) output[index] = runAt(element, input[index], index, context);
    return output;
  });
}

/**
 * The first of `options` that matches. When none does: the issues of the one option that failed
 * only its checks (the value had its shape), else one `invalid_union` issue.
 */
/* @__NO_SIDE_EFFECTS__ */
export function union<const O extends readonly Schema[]>(options: O): Schema<Output<O[number]>> {
  return new Schema(
    (value, context) => {
      const failures: ValidationIssue[][] = [];
      for (const option of options) {
        const attempt: ParseContext = { issues: [], path: context.path };
        const output = option.run(value, attempt);
        if (attempt.issues.length === 0) return output;
        failures.push(attempt.issues);
      }
      const shaped = failures.filter((issues) => !stopped(issues, 0));
      if (shaped.length === 1) appendAll(context.issues, shaped[0] ?? []);
      else addIssue(context, { code: 'invalid_union', errors: failures });
      return value;
    },
    { optional: options.some((option) => option.optional) },
  );
}

/** One of `options` (object schemas), chosen by the literal value of their `key`. */
/* @__NO_SIDE_EFFECTS__ */
export function discriminatedUnion<const O extends readonly Schema[]>(key: string, options: O): Schema<Output<O[number]>> {
  let byValue: Map<unknown, Schema> | undefined;
  const lookup = (): Map<unknown, Schema> => {
    if (byValue !== undefined) return byValue;
    byValue = new Map();
    for (const option of options) {
      const values = option.object?.shape[key]?.values;
      if (values === undefined) throw new Error(`discriminatedUnion: an option has no literal "${key}".`);
      for (const value of values) byValue.set(value, option);
    }
    return byValue;
  };
  return new Schema((input, context) => {
    if (!isRecord(input)) {
      addIssue(context, { code: 'invalid_type', expected: 'object' });
      return input;
    }
    const option = lookup().get(input[key]);
    if (option !== undefined) return option.run(input, context);
    addIssue(context, { code: 'invalid_union', errors: [], note: 'no matching discriminator', path: [key] });
    return input;
  });
}

/** `first`, then `second` on its output. */
/* @__NO_SIDE_EFFECTS__ */
export function pipe<A extends Schema, B extends Schema>(first: A, second: B): Schema<Output<B>> {
  return new Schema(
    (value, context) => {
      const before = context.issues.length;
      const output = first.run(value, context);
      return context.issues.length === before ? second.run(output, context) : output;
    },
    { optional: first.optional },
  );
}

/** A value mapped by `map`. */
/* @__NO_SIDE_EFFECTS__ */
export function transform<In, Out>(map: (value: In) => Out): Schema<Out> {
  return new Schema((value) => map(value as In));
}
