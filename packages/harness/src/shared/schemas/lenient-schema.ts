import * as z from 'zod/mini';

/**
 * `schema` made lenient: a missing value or one `schema` rejects reads as `undefined` instead of
 * failing the parse. (Not `z.catch`: bundled into dist, it keeps zod's whole `util` namespace in
 * every Worker bundle of the main entry.)
 */
export function lenientSchema<T extends z.core.$ZodType>(schema: T): z.ZodMiniOptional<z.ZodMiniType<z.output<T> | undefined, unknown>> {
  return z.optional(
    z.pipe(
      z.unknown(),
      z.transform((value): z.output<T> | undefined => {
        const parsed = z.safeParse(schema, value);
        return parsed.success ? (parsed.data as z.output<T>) : undefined;
      }),
    ),
  );
}
