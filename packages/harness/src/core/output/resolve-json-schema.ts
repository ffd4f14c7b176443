import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { HarnessConfigError } from '../errors/harness-config-error.js';
import type { JsonSchemaToolInput, ToolInputSchema } from '../../shared/types/schema.js';
import { describeError } from '../../shared/describe-error.js';
import { findJsonSchemaProblem } from './check-json-schema-shape.js';

type JsonObject = Record<string, unknown>;

/**
 * Whose schema it is, for error messages: `{ label: 'Tool get_weather', field: 'input' }` gives
 * "Tool get_weather: input must be a schema." and `HarnessConfigError.field` `input`.
 */
export interface SchemaOwner {
  label: string;
  field: string;
}

/** JSON Schema target asked of Standard JSON Schema converters. */
const TARGET = 'draft-2020-12';

const resolved = new WeakMap<object, JsonObject>();

/** True when `input` is the `{ jsonSchema, validate? }` form. */
export function isJsonSchemaInput(input: ToolInputSchema): input is JsonSchemaToolInput<unknown> {
  return !('~standard' in input) && 'jsonSchema' in input;
}

/**
 * Checks that `input` is a usable schema and derives its JSON Schema now, so a bad schema fails
 * where it is given. Sources, in order: the `{ jsonSchema }` form, then a Standard JSON Schema
 * converter (`~standard.jsonSchema.input`, which classic zod 4 schemas carry) — no zod import of
 * our own either way. The JSON Schema's root must be `type: 'object'`.
 *
 * @throws HarnessConfigError naming `owner.field` (or a sub-field) when the schema is unusable.
 */
export function checkSchemaShape(owner: SchemaOwner, input: unknown): void {
  const { label, field } = owner;
  if (typeof input !== 'object' || input === null) {
    throw new HarnessConfigError(`${label}: ${field} must be a schema.`, { field });
  }
  const schema = input as ToolInputSchema;
  if (isJsonSchemaInput(schema)) {
    if (typeof schema.jsonSchema !== 'object' || schema.jsonSchema === null) {
      throw new HarnessConfigError(`${label}: ${field}.jsonSchema must be a JSON Schema object.`, { field: `${field}.jsonSchema` });
    }
    if (schema.validate !== undefined && typeof schema.validate !== 'function') {
      throw new HarnessConfigError(`${label}: ${field}.validate must be a function.`, { field: `${field}.validate` });
    }
    resolved.set(schema, finish(owner, schema.jsonSchema));
    return;
  }
  if (isZod3Schema(schema)) {
    throw new HarnessConfigError(`${label}: ${zod3Hint(field)}`, { field });
  }
  const standard = (schema as Partial<StandardSchemaV1>)['~standard'];
  if (typeof standard !== 'object' || standard === null || typeof standard.validate !== 'function') {
    throw new HarnessConfigError(`${label}: ${field} must be a zod 4 schema, a Standard Schema, or { jsonSchema, validate? }.`, { field });
  }
  const converter = (standard as Partial<StandardJSONSchemaV1.Props>).jsonSchema;
  if (typeof converter?.input === 'function') {
    resolved.set(
      schema,
      finish(
        owner,
        convert(owner, () => converter.input({ target: TARGET })),
      ),
    );
    return;
  }
  // zod/mini schemas (and valibot, ...) carry no converter. Converting them here would mean
  // bundling zod's JSON Schema generator into the root entry for everyone (about 45 KB and a few
  // milliseconds of cold import), so the caller converts instead, with the library they already load.
  const hint = isZodSchema(schema)
    ? `${describeZod(schema)} has no ~standard.jsonSchema (classic zod schemas carry it from zod 4.2 on; zod/mini ones never do): upgrade to zod ^4.2.0, or pass ${field}: { jsonSchema: z.toJSONSchema(schema), validate: schema["~standard"].validate }.`
    : `The ${standard.vendor} schema offers no JSON Schema (~standard.jsonSchema): pass ${field}: { jsonSchema, validate: schema["~standard"].validate }.`;
  throw new HarnessConfigError(`${label}: ${hint}`, { field });
}

/** The JSON Schema models see for a schema, derived (and checked) on first use, then cached per schema object. */
export function resolveJsonSchema(owner: SchemaOwner, input: ToolInputSchema): JsonObject {
  const cached = resolved.get(input);
  if (cached === undefined) checkSchemaShape(owner, input);
  return resolved.get(input)!;
}

/** "This zod 4.1.12 schema", from the version zod stamps on every schema, when it is readable. */
function describeZod(schema: object): string {
  const version = (schema as { _zod?: { version?: { major?: unknown; minor?: unknown; patch?: unknown } } })._zod?.version;
  const parts = [version?.major, version?.minor, version?.patch];
  return parts.every((part) => typeof part === 'number') ? `This zod ${parts.join('.')} schema` : 'This zod schema';
}

/**
 * zod 3 schemas (every 3.x, with or without `~standard`) have `_def` and `safeParse` but no `_zod`,
 * and never a JSON Schema converter.
 */
function isZod3Schema(schema: object): boolean {
  const candidate = schema as { _def?: unknown; _zod?: unknown; safeParse?: unknown };
  return typeof candidate._def === 'object' && candidate._def !== null && candidate._zod === undefined && typeof candidate.safeParse === 'function';
}

function zod3Hint(field: string): string {
  return (
    `This is a zod 3 schema: zod 3 has no JSON Schema converter (~standard.jsonSchema), which the harness needs to describe ${field} to the model. ` +
    `Upgrade to zod ^4.2.0 (classic: import { z } from 'zod'; zod 3.25's 'zod/v4' is zod 4.0 and has none either), ` +
    `or pass ${field}: { jsonSchema, validate } with the schema's JSON Schema (for example from zod-to-json-schema) and a validate that returns { value } or { issues } (docs/tools.md, "Schemas").`
  );
}

function isZodSchema(schema: object): boolean {
  const internals = (schema as { _zod?: { def?: unknown } })._zod;
  return typeof internals === 'object' && internals !== null && typeof internals.def === 'object';
}

function convert(owner: SchemaOwner, run: () => JsonObject): JsonObject {
  try {
    return run();
  } catch (error) {
    const reason = describeError(error);
    throw new HarnessConfigError(`${owner.label}: its ${owner.field} schema cannot be expressed as JSON Schema (${reason}).`, {
      field: owner.field,
      cause: error,
    });
  }
}

/** Drops `$schema` (some providers reject it) and insists on a well-formed object schema. */
function finish(owner: SchemaOwner, schema: JsonObject): JsonObject {
  const { label, field } = owner;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new HarnessConfigError(`${label}: the ${field} JSON Schema must be an object.`, { field });
  }
  const { $schema: _ignored, ...rest } = schema;
  if (rest.type !== 'object') {
    throw new HarnessConfigError(`${label}: the ${field} schema must describe an object (type: "object").`, { field });
  }
  const problem = findJsonSchemaProblem(rest);
  if (problem !== undefined) throw new HarnessConfigError(`${label}: the ${field} JSON Schema is malformed: ${problem}`, { field });
  return rest;
}
