import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { JsonSchemaToolInput, ToolInputSchema } from '../tool-input-schema.js';
import { describeError } from '../../shared/describe-error.js';

type JsonObject = Record<string, unknown>;

/** JSON Schema target asked of Standard JSON Schema converters. */
const TARGET = 'draft-2020-12';

const resolved = new WeakMap<object, JsonObject>();

/** True when `input` is the `{ jsonSchema, validate? }` form. */
export function isJsonSchemaInput(input: ToolInputSchema): input is JsonSchemaToolInput<unknown> {
  return !('~standard' in input) && 'jsonSchema' in input;
}

/**
 * Checks that `input` is a usable schema and derives its JSON Schema now, so a bad schema fails
 * when the tool is defined. Sources, in order: the `{ jsonSchema }` form, then a Standard JSON
 * Schema converter (`~standard.jsonSchema.input`, which classic zod 4 schemas carry) — no zod
 * import of our own either way.
 */
export function checkSchemaShape(toolName: string, input: unknown): void {
  if (typeof input !== 'object' || input === null) {
    throw new HarnessConfigError(`Tool ${toolName}: input must be a schema.`, { field: 'input' });
  }
  const schema = input as ToolInputSchema;
  if (isJsonSchemaInput(schema)) {
    if (typeof schema.jsonSchema !== 'object' || schema.jsonSchema === null) {
      throw new HarnessConfigError(`Tool ${toolName}: input.jsonSchema must be a JSON Schema object.`, {
        field: 'input.jsonSchema',
      });
    }
    if (schema.validate !== undefined && typeof schema.validate !== 'function') {
      throw new HarnessConfigError(`Tool ${toolName}: input.validate must be a function.`, { field: 'input.validate' });
    }
    resolved.set(schema, finish(toolName, schema.jsonSchema));
    return;
  }
  const standard = (schema as Partial<StandardSchemaV1>)['~standard'];
  if (typeof standard !== 'object' || standard === null || typeof standard.validate !== 'function') {
    throw new HarnessConfigError(
      `Tool ${toolName}: input must be a zod 4 schema, a Standard Schema, or { jsonSchema, validate? }.`,
      { field: 'input' }
    );
  }
  const converter = (standard as Partial<StandardJSONSchemaV1.Props>).jsonSchema;
  if (typeof converter?.input === 'function') {
    resolved.set(
      schema,
      finish(
        toolName,
        convert(toolName, () => converter.input({ target: TARGET }))
      )
    );
    return;
  }
  // zod/mini schemas (and zod 3, valibot, ...) carry no converter. Converting them here would mean
  // bundling zod's JSON Schema generator into the root entry for everyone (about 45 KB and a few
  // milliseconds of cold import), so the caller converts instead, with the library they already load.
  const hint = isZodSchema(schema)
    ? `${describeZod(schema)} has no ~standard.jsonSchema (classic zod schemas carry it from zod 4.2 on; zod/mini ones never do): upgrade to zod ^4.2.0, or pass input: { jsonSchema: z.toJSONSchema(schema), validate: schema["~standard"].validate }.`
    : `The ${standard.vendor} schema offers no JSON Schema (~standard.jsonSchema): pass input: { jsonSchema, validate: schema["~standard"].validate }.`;
  throw new HarnessConfigError(`Tool ${toolName}: ${hint}`, { field: 'input' });
}

/** The JSON Schema models see for `input`, derived when the tool was defined. */
export function resolveJsonSchema(toolName: string, input: ToolInputSchema): JsonObject {
  const cached = resolved.get(input);
  if (cached === undefined) checkSchemaShape(toolName, input);
  return resolved.get(input)!;
}

/** "This zod 4.1.12 schema", from the version zod stamps on every schema, when it is readable. */
function describeZod(schema: object): string {
  const version = (schema as { _zod?: { version?: { major?: unknown; minor?: unknown; patch?: unknown } } })._zod?.version;
  const parts = [version?.major, version?.minor, version?.patch];
  return parts.every((part) => typeof part === 'number') ? `This zod ${parts.join('.')} schema` : 'This zod schema';
}

function isZodSchema(schema: object): boolean {
  const internals = (schema as { _zod?: { def?: unknown } })._zod;
  return typeof internals === 'object' && internals !== null && typeof internals.def === 'object';
}

function convert(toolName: string, run: () => JsonObject): JsonObject {
  try {
    return run();
  } catch (error) {
    const reason = describeError(error);
    throw new HarnessConfigError(`Tool ${toolName}: its input schema cannot be expressed as JSON Schema (${reason}).`, {
      field: 'input',
      cause: error,
    });
  }
}

/** Drops `$schema` (some providers reject it) and insists on an object schema. */
function finish(toolName: string, schema: JsonObject): JsonObject {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new HarnessConfigError(`Tool ${toolName}: the input JSON Schema must be an object.`, { field: 'input' });
  }
  const { $schema: _ignored, ...rest } = schema;
  if (rest.type !== 'object') {
    throw new HarnessConfigError(`Tool ${toolName}: the input schema must describe an object (type: "object").`, {
      field: 'input',
    });
  }
  return rest;
}
