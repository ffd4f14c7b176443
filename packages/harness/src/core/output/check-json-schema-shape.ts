import { isRecord } from '../../shared/is-record.js';

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);

/** Deeper than this, a schema is refused: a hand-made schema is never this deep, a generated loop is. */
const MAX_DEPTH = 64;

type Check = (value: unknown) => string | undefined;

const schemaValue = 'a schema (object or boolean)';
const isSchema = (value: unknown) => isRecord(value) || typeof value === 'boolean';
const must = (ok: (value: unknown) => boolean, what: string): Check => (value) => (ok(value) ? undefined : what);
const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;
const isType = (value: unknown) => typeof value === 'string' && JSON_TYPES.has(value);

/** What each keyword's value must be, besides the nested schemas walked below. */
const KEYWORD_CHECKS: ReadonlyMap<string, Check> = new Map<string, Check>([
  ['type', must((value) => isType(value) || (Array.isArray(value) && value.length > 0 && value.every(isType)), `one of ${[...JSON_TYPES].join(', ')}, or a non-empty array of them`)],
  ['required', must((value) => Array.isArray(value) && value.every((item) => typeof item === 'string'), 'an array of property names (strings)')],
  ['enum', must(Array.isArray, 'an array')],
  ['pattern', must(isPattern, 'a regular expression (string)')],
  ['description', must((value) => typeof value === 'string', 'a string')],
  ['title', must((value) => typeof value === 'string', 'a string')],
  ['format', must((value) => typeof value === 'string', 'a string')],
  ['$ref', must((value) => typeof value === 'string', 'a string')],
  ...['minimum', 'maximum', 'multipleOf'].map((name): [string, Check] => [name, must((value) => typeof value === 'number' && Number.isFinite(value), 'a finite number')]),
  ...['exclusiveMinimum', 'exclusiveMaximum'].map((name): [string, Check] => [
    name,
    must((value) => (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean', 'a finite number'),
  ]),
  ...['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'minContains', 'maxContains'].map((name): [string, Check] => [
    name,
    must(isCount, 'a whole number, 0 or more'),
  ]),
  ['uniqueItems', must((value) => typeof value === 'boolean', 'a boolean')],
]);

/** Keywords whose value is one schema. */
const SCHEMA_KEYWORDS = ['additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'additionalItems'];
/** Keywords whose value is an object of schemas. */
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Keywords whose value is a non-empty array of schemas. */
const SCHEMA_LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

/**
 * Finds the first malformed keyword of a JSON Schema — a value of the wrong shape for the keywords
 * models and validators read (`type`, `properties`, `required`, `items`, `enum`, `anyOf` …), a
 * cycle, or nesting deeper than 64 — and describes it with its path (`properties.tags.items`).
 * Unknown keywords and annotation values (`default`, `examples`, `const`) are left alone.
 * @returns the problem, or `undefined` for a well-formed schema.
 */
export function findJsonSchemaProblem(schema: Record<string, unknown>): string | undefined {
  return walk(schema, '', new Set(), 0);
}

function walk(schema: unknown, path: string, ancestors: Set<object>, depth: number): string | undefined {
  const here = path === '' ? 'the schema' : path;
  if (typeof schema === 'boolean') return undefined;
  if (!isRecord(schema)) return `${here} must be ${schemaValue}, not ${describe(schema)}.`;
  if (ancestors.has(schema)) return `${here} refers back to itself (a cycle); use $ref and $defs instead.`;
  if (depth > MAX_DEPTH) return `${here} is nested more than ${MAX_DEPTH} levels deep.`;
  ancestors.add(schema);
  try {
    return checkKeywords(schema, path, ancestors, depth);
  } finally {
    ancestors.delete(schema);
  }
}

function checkKeywords(schema: Record<string, unknown>, path: string, ancestors: Set<object>, depth: number): string | undefined {
  const at = (keyword: string) => (path === '' ? keyword : `${path}.${keyword}`);
  for (const [keyword, check] of KEYWORD_CHECKS) {
    if (!Object.hasOwn(schema, keyword)) continue;
    const wanted = check(schema[keyword]);
    if (wanted !== undefined) return `${at(keyword)} must be ${wanted}, not ${describe(schema[keyword])}.`;
  }
  for (const keyword of SCHEMA_KEYWORDS) {
    if (!Object.hasOwn(schema, keyword)) continue;
    const problem = walk(schema[keyword], at(keyword), ancestors, depth + 1);
    if (problem !== undefined) return problem;
  }
  if (Object.hasOwn(schema, 'items')) {
    const items = schema.items;
    // Draft-07 tuples (`items: [schema, …]`) as well as one schema for every item.
    const problem = Array.isArray(items) ? walkList(items, at('items'), ancestors, depth) : walk(items, at('items'), ancestors, depth + 1);
    if (problem !== undefined) return problem;
  }
  for (const keyword of SCHEMA_LIST_KEYWORDS) {
    if (!Object.hasOwn(schema, keyword)) continue;
    const list = schema[keyword];
    if (!Array.isArray(list) || list.length === 0) return `${at(keyword)} must be a non-empty array of schemas, not ${describe(list)}.`;
    const problem = walkList(list, at(keyword), ancestors, depth);
    if (problem !== undefined) return problem;
  }
  for (const keyword of SCHEMA_MAP_KEYWORDS) {
    if (!Object.hasOwn(schema, keyword)) continue;
    const map = schema[keyword];
    if (!isRecord(map)) return `${at(keyword)} must be an object of schemas, not ${describe(map)}.`;
    for (const [name, value] of Object.entries(map)) {
      const problem = walk(value, `${at(keyword)}.${name.slice(0, 64)}`, ancestors, depth + 1);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}

function walkList(list: readonly unknown[], path: string, ancestors: Set<object>, depth: number): string | undefined {
  for (const [index, value] of list.entries()) {
    if (!isSchema(value)) return `${path}.${String(index)} must be ${schemaValue}, not ${describe(value)}.`;
    const problem = walk(value, `${path}.${String(index)}`, ancestors, depth + 1);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function isPattern(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    new RegExp(value);
    return true;
  } catch {
    return false;
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  return `a ${typeof value}`;
}
