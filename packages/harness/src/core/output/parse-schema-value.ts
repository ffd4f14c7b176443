import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ToolInputSchema, ToolInputValidationResult } from '../../shared/types/schema.js';
import { isJsonSchemaInput } from './resolve-json-schema.js';
import { isRecord } from '../../shared/is-record.js';

/** One problem with a value, with the dotted path of the field (`''` for the whole value). */
export interface SchemaIssue {
  path: string;
  message: string;
}

/** The outcome of checking a value against a schema. */
export type ParsedSchemaValue = { ok: true; value: unknown } | { ok: false; issues: SchemaIssue[] };

type RawResult = ToolInputValidationResult<unknown>;

/**
 * Validates `raw` against a schema in any of the forms `defineTool` takes for `input` (a Standard
 * Schema, or `{ jsonSchema, validate? }`, whose root must be an object); may settle synchronously
 * or not. Whatever the schema's own validator throws propagates.
 */
export function parseSchemaValue(schema: ToolInputSchema, raw: unknown): ParsedSchemaValue | Promise<ParsedSchemaValue> {
  const result = validate(schema, raw);
  return isPromiseLike(result) ? Promise.resolve(result).then(toParsed) : toParsed(result);
}

function validate(schema: ToolInputSchema, raw: unknown): RawResult | Promise<RawResult> {
  if (!isJsonSchemaInput(schema)) return schema['~standard'].validate(raw);
  if (!isRecord(raw)) return { issues: [{ message: 'expected an object' }] };
  if (schema.validate !== undefined) return schema.validate(raw);
  return lightCheck(schema.jsonSchema, raw);
}

function toParsed(result: RawResult): ParsedSchemaValue {
  if (result.issues === undefined) return { ok: true, value: result.value };
  const issues = result.issues.map((issue) => ({ path: formatPath(issue.path), message: String(issue.message) }));
  return { ok: false, issues: issues.length === 0 ? [{ path: '', message: 'invalid input' }] : issues };
}

function formatPath(path: StandardSchemaV1.Issue['path']): string {
  if (path === undefined) return '';
  return path
    .map((segment) => (typeof segment === 'object' && segment !== null ? segment.key : segment))
    .map((key) => (typeof key === 'symbol' ? key.toString() : String(key)))
    .join('.');
}

const JSON_TYPES: Record<string, (value: unknown) => boolean> = {
  string: (value) => typeof value === 'string',
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  integer: (value) => Number.isInteger(value),
  boolean: (value) => typeof value === 'boolean',
  array: (value) => Array.isArray(value),
  object: isRecord,
  null: (value) => value === null,
};

/** Without a validator: required keys present, top-level `type` and `enum` respected. */
function lightCheck(jsonSchema: Record<string, unknown>, raw: Record<string, unknown>): RawResult {
  const issues: StandardSchemaV1.Issue[] = [];
  const required = Array.isArray(jsonSchema.required) ? jsonSchema.required : [];
  for (const key of required) {
    if (typeof key === 'string' && (!Object.hasOwn(raw, key) || raw[key] === undefined)) issues.push({ message: 'required', path: [key] });
  }
  const properties = isRecord(jsonSchema.properties) ? jsonSchema.properties : {};
  for (const [key, value] of Object.entries(raw)) {
    // Own keys only: a value keyed `__proto__` or `constructor` must not meet Object.prototype.
    const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (value === undefined || !isRecord(property)) continue;
    const types = typeof property.type === 'string' ? [property.type] : Array.isArray(property.type) ? property.type : [];
    const checks = types.map((type) => (Object.hasOwn(JSON_TYPES, String(type)) ? JSON_TYPES[String(type)] : undefined)).filter((check) => check !== undefined);
    if (checks.length > 0 && !checks.some((check) => check(value))) {
      issues.push({ message: `expected ${types.join(' or ')}`, path: [key] });
    } else if (Array.isArray(property.enum) && !property.enum.includes(value)) {
      issues.push({ message: `expected one of ${property.enum.map((item) => JSON.stringify(item)).join(', ')}`, path: [key] });
    }
  }
  return issues.length > 0 ? { issues } : { value: raw };
}


/** True for a promise or other thenable. */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
