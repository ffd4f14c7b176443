/** Anything with `safeParse`. */
interface ParsingSchema {
  safeParse(value: unknown): unknown;
}

/** A schema built on first use, so importing the package constructs nothing. */
export interface LazySchema<Schema extends ParsingSchema> {
  safeParse(value: unknown): ReturnType<Schema['safeParse']>;
}

/** Memoises a builder: the first call builds, later calls return the same value. */
/* @__NO_SIDE_EFFECTS__ */
export function memo<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

/** Wraps a schema builder so the schema is constructed on the first `safeParse`. */
/* @__NO_SIDE_EFFECTS__ */
export function lazySchema<Schema extends ParsingSchema>(build: () => Schema): LazySchema<Schema> {
  const schema = memo(build);
  return { safeParse: (value) => schema().safeParse(value) as ReturnType<Schema['safeParse']> };
}
