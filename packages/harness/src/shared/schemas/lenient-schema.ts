import * as z from '../validation/index.js';

/** `schema` made lenient: a missing value or one `schema` rejects reads as `undefined` instead of failing the parse. */
export function lenientSchema<T extends z.Schema>(schema: T): z.OptionalSchema<z.output<T> | undefined> {
  return z.optional(
    z.transform((value: unknown): z.output<T> | undefined => {
      const parsed = z.safeParse(schema, value);
      return parsed.success ? parsed.data : undefined;
    }),
  );
}
