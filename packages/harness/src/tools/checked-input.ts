import type { ValidationIssue } from '../shared/validation/index.js';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { JsonSchemaToolInput } from './tool-input-schema.js';

/** Anything with `safeParse` for `T`. */
interface Parser<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: ValidationIssue[] } };
}

/**
 * A tool input from hand-written JSON Schema (what the model sees) and a schema built on
 * first use (what is enforced), for the built-in registries.
 */
export function checkedInput<T>(jsonSchema: Record<string, unknown>, schema: () => Parser<T>): JsonSchemaToolInput<T> {
  let built: Parser<T> | undefined;
  return {
    jsonSchema: { type: 'object', additionalProperties: false, ...jsonSchema },
    validate: (input) => validateWith((built ??= schema()), input),
  };
}

/** `schema`'s verdict on `input` as a tool input's `validate` result (at most ten issues). */
export function validateWith<T>(schema: Parser<T>, input: unknown): StandardSchemaV1.Result<T> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { value: parsed.data };
  return {
    issues: parsed.error.issues.slice(0, 10).map((issue) => ({
      message: issue.message,
      path: issue.path.filter((key): key is string | number => typeof key !== 'symbol'),
    })),
  };
}

/** Reads the turn's tool state, or explains why a built-in stateful tool cannot run. */
export function requireState<TState>(state: TState | undefined, toolName: string): TState {
  if (state === undefined) {
    throw new Error(`${toolName} needs the turn's tool state; run it through createHarness (context.state was not given).`);
  }
  return state;
}
