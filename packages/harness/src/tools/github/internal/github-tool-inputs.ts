import * as v from '../../../shared/validation/index.js';
import type { JsonSchemaToolInput } from '../../tool-input-schema.js';
import { validateWith } from '../../checked-input.js';
import { pathProblem, refProblem } from './github-validation.js';

const checked = (problem: (value: unknown) => string | undefined) =>
  v.string().check(
    v.superRefine((value, context) => {
      const issue = problem(value);
      if (issue !== undefined) context.addIssue({ code: 'custom', message: issue, input: value });
    })
  );

const pathField = () => checked(pathProblem);
const refField = () => checked(refProblem);
const refJson = { type: 'string', description: 'Branch, tag or commit SHA. Omit for the default branch.' };
const pathDescription = 'Path relative to the repository root, without a leading "/", e.g. "src/index.ts".';

/** Hand-written JSON Schema for the model (with descriptions), checked by a schema. */
function jsonInput<S extends v.Schema>(jsonSchema: Record<string, unknown>, schema: S): JsonSchemaToolInput<v.output<S>> {
  return { jsonSchema, validate: (raw) => validateWith(schema as v.Schema<v.output<S>>, raw) };
}

/** `public_repo_metadata`: no input. */
export const metadataInput = () => jsonInput({ type: 'object', properties: {}, additionalProperties: false }, v.object({}));

/** `public_repo_list_tree`. */
export function listTreeInput(maxEntries: number) {
  return jsonInput(
    {
      type: 'object',
      properties: {
        path: {
          type: 'string',
          description: `Directory to list. ${pathDescription.replace('"src/index.ts"', '"src"')} Omit for the root.`,
        },
        ref: refJson,
        recursive: {
          type: 'boolean',
          description: 'List everything below the directory, not only its direct children. Default false.',
        },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: maxEntries,
          description: `Entries to return at most. Default ${maxEntries}.`,
        },
      },
      additionalProperties: false,
    },
    v.object({
      path: v.optional(v.union([v.literal(''), pathField()])),
      ref: v.optional(refField()),
      recursive: v.optional(v.boolean()),
      limit: v.optional(v.int().check(v.gte(1), v.lte(maxEntries))),
    })
  );
}

/** `public_repo_read_file`. */
export const readFileInput = () =>
  jsonInput(
    {
      type: 'object',
      properties: { path: { type: 'string', description: pathDescription }, ref: refJson },
      required: ['path'],
      additionalProperties: false,
    },
    v.object({ path: pathField(), ref: v.optional(refField()) })
  );

/** `public_repo_recent_commits`. */
export const recentCommitsInput = () =>
  jsonInput(
    {
      type: 'object',
      properties: {
        ref: refJson,
        path: { type: 'string', description: `Only commits touching this path. ${pathDescription}` },
        limit: { type: 'integer', minimum: 1, maximum: 20, description: 'Commits to return, newest first. Default 10.' },
      },
      additionalProperties: false,
    },
    v.object({
      ref: v.optional(refField()),
      path: v.optional(pathField()),
      limit: v.optional(v.int().check(v.gte(1), v.lte(20))),
    })
  );

/** `public_repo_search_code`. */
export const searchCodeInput = () =>
  jsonInput(
    {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          minLength: 1,
          maxLength: 256,
          description: 'Words or identifiers to find. Do not add repo:, org: or user: qualifiers.',
        },
        limit: { type: 'integer', minimum: 1, maximum: 50, description: 'Hits to return. Default 10.' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    v.object({
      query: v.string().check(
        v.trim(),
        v.minLength(1),
        v.maxLength(256),
        v.refine((value) => !/\b(repo|org|user):/i.test(value), 'must not contain repo:, org: or user: qualifiers')
      ),
      limit: v.optional(v.int().check(v.gte(1), v.lte(50))),
    })
  );
