import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';

/** What a JSON-Schema-form validator returns: the Standard Schema result shape. */
export type ToolInputValidationResult<TInput> = StandardSchemaV1.Result<TInput>;

/**
 * A tool input described by plain JSON Schema, for schema libraries without JSON Schema support
 * (or none at all).
 * @example
 * ```ts
 * const input = {
 *   jsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
 *   validate: (raw) => (typeof raw.city === 'string' ? { value: { city: raw.city } } : { issues: [{ message: 'expected string', path: ['city'] }] }),
 * };
 * ```
 */
export interface JsonSchemaToolInput<TInput = Record<string, unknown>> {
  /** JSON Schema of the input object (`type: 'object'`), sent to models without its `$schema` key. */
  readonly jsonSchema: Record<string, unknown>;
  /**
   * Checks and parses the model's raw input. Without it only a light check runs: the input is an
   * object, `required` properties are present, and top-level properties match their declared
   * `type` and `enum`.
   * @default undefined
   */
  readonly validate?: (
    input: Record<string, unknown>
  ) => ToolInputValidationResult<TInput> | Promise<ToolInputValidationResult<TInput>>;
}

/**
 * A Standard Schema that also converts itself to JSON Schema (Standard JSON Schema,
 * `~standard.jsonSchema`): classic zod schemas from zod 4.2 on, and any other library that
 * implements both. zod 3, zod 4.0–4.1 and zod/mini schemas lack the converter, so the types refuse
 * them; pass those as a {@link JsonSchemaToolInput}.
 */
export interface StandardSchemaWithJsonSchema<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output> & StandardJSONSchemaV1.Props<Input, Output>;
}

/**
 * The `input` of a tool: a zod 4.2+ schema, any other Standard Schema with a
 * `~standard.jsonSchema` converter ({@link StandardSchemaWithJsonSchema}), or a
 * {@link JsonSchemaToolInput}.
 */
export type ToolInputSchema = StandardSchemaWithJsonSchema | JsonSchemaToolInput<unknown>;

/** The value of a successful Standard Schema validation result. */
export type SuccessValue<TResult> = TResult extends { readonly value: infer TValue; readonly issues?: undefined } ? TValue : never;

/** The parsed input type `execute` receives for a given `input` schema. */
export type InferToolInput<TSchema> = TSchema extends StandardSchemaV1
  ? StandardSchemaV1.InferOutput<TSchema>
  : TSchema extends { readonly validate?: infer TValidate }
  ? NonNullable<TValidate> extends (input: never) => infer TResult
    ? SuccessValue<Awaited<TResult>>
    : Record<string, unknown>
  : Record<string, unknown>;

/**
 * The schema of a turn's structured final answer (`output` of `createHarness` or `runTurn`):
 * the same forms `defineTool` takes for `input`. The JSON Schema's root must be an object.
 */
export type HarnessOutputSchema = ToolInputSchema;

/** The type of `result.output` for an `output` schema; `undefined` when there is none. */
export type InferHarnessOutput<TSchema> = [TSchema] extends [undefined] ? undefined : InferToolInput<TSchema>;
