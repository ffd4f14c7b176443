import { addIssue, runAt, Schema, type ObjectTraits, type Output, type ParseContext, type Shape } from './schema.js';
import { isRecord } from '../is-record.js';

type OptionalKeys<S extends Shape> = { [K in keyof S]: S[K] extends { readonly optional: true } ? K : never }[keyof S];
type Flatten<T> = { [K in keyof T]: T[K] } & {};

/** The output of an object schema: optional schemas make optional keys. */
export type ObjectOutput<S extends Shape> = Flatten<
  { -readonly [K in Exclude<keyof S, OptionalKeys<S>>]: Output<S[K]> } & { -readonly [K in OptionalKeys<S>]?: Output<S[K]> }
>;

/** An object schema: its shape is kept so `catchall` and `discriminatedUnion` can read it. */
export type ObjectSchema<S extends Shape, Out = ObjectOutput<S>> = Schema<Out> & { readonly object: ObjectTraits; readonly '~shape'?: S };

function objectSchema<S extends Shape, Out>(shape: S, others: ObjectTraits['others']): ObjectSchema<S, Out> {
  const entries = Object.entries(shape);
  const known = new Set(Object.keys(shape));
  const parser = (input: unknown, context: ParseContext): unknown => {
    if (!isRecord(input)) {
      addIssue(context, { code: 'invalid_type', expected: 'object' });
      return input;
    }
    const output: Record<string, unknown> = {};
    for (const [key, schema] of entries) {
      const value = input[key];
      const present = value !== undefined || key in input;
      if (!present && schema.optional) continue;
      const before = context.issues.length;
      const parsed = runAt(schema, value, key, context);
      if (present) output[key] = parsed;
      else if (context.issues.length === before) addIssue(context, { code: 'invalid_type', expected: 'nonoptional', path: [key] });
    }
    if (others !== 'strip') readOthers(input, output, known, others, context);
    return output;
  };
  return new Schema(parser, { object: { shape, others } }) as ObjectSchema<S, Out>;
}

/** Own keys outside the shape: kept, refused, or parsed with the catch-all schema. An own `__proto__` is never copied. */
function readOthers(
  input: Record<string, unknown>,
  output: Record<string, unknown>,
  known: ReadonlySet<string>,
  others: Exclude<ObjectTraits['others'], 'strip'>,
  context: ParseContext,
): void {
  const refused: string[] = [];
  for (const key of Object.keys(input)) {
    if (known.has(key)) continue;
    if (others === 'refuse') refused.push(key);
    else if (key === '__proto__') continue;
    else output[key] = others === 'keep' ? input[key] : runAt(others, input[key], key, context);
  }
  if (refused.length > 0) addIssue(context, { code: 'unrecognized_keys', keys: refused });
}

/** An object with these keys; other keys are dropped. */
/* @__NO_SIDE_EFFECTS__ */
export function object<const S extends Shape>(shape: S): ObjectSchema<S> {
  return objectSchema(shape, 'strip');
}

/** An object with these keys; other keys are kept as they are. */
/* @__NO_SIDE_EFFECTS__ */
export function looseObject<const S extends Shape>(shape: S): ObjectSchema<S, ObjectOutput<S> & { [key: string]: unknown }> {
  return objectSchema(shape, 'keep');
}

/** An object with these keys and no others. */
/* @__NO_SIDE_EFFECTS__ */
export function strictObject<const S extends Shape>(shape: S): ObjectSchema<S> {
  return objectSchema(shape, 'refuse');
}

/** `schema`'s keys, and every other own key parsed with `others`. */
/* @__NO_SIDE_EFFECTS__ */
export function catchall<S extends Shape, V extends Schema>(
  schema: ObjectSchema<S>,
  others: V,
): ObjectSchema<S, ObjectOutput<S> & { [key: string]: Output<V> }> {
  return objectSchema(schema.object.shape as S, others);
}

/** An object whose own keys all match `key` and whose values all match `value` (`__proto__` is never copied). */
/* @__NO_SIDE_EFFECTS__ */
export function record<K extends Schema<string>, V extends Schema>(key: K, value: V): Schema<Record<Output<K>, Output<V>>> {
  return new Schema((input, context) => {
    if (!isRecord(input)) {
      addIssue(context, { code: 'invalid_type', expected: 'object' });
      return input;
    }
    const output: Record<string, unknown> = {};
    for (const name of Object.keys(input)) {
      runAt(key, name, name, context);
      const parsed = runAt(value, input[name], name, context);
      if (name !== '__proto__') output[name] = parsed;
    }
    return output;
  });
}
