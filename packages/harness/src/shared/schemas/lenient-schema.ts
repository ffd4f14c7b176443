import * as v from '../validation/index.js';

/** `schema` made lenient: a missing value or one `schema` rejects reads as `undefined` instead of failing the parse. */
export function lenientSchema<T extends v.Schema>(schema: T): v.OptionalSchema<v.output<T> | undefined> {
  return v.optional(
    v.transform((value: unknown): v.output<T> | undefined => {
      const parsed = v.safeParse(schema, value);
      return parsed.success ? parsed.data : undefined;
    }),
  );
}
