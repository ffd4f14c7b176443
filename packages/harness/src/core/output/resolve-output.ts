import { HarnessConfigError } from '../errors/harness-config-error.js';
import type { HarnessOutputFormat } from '../types/model.js';
import { describeError } from '../../shared/describe-error.js';
import type { HarnessOutputSchema } from '../../shared/types/schema.js';
import { resolveJsonSchema } from './resolve-json-schema.js';

/**
 * The name of the structured answer in `HarnessModelInput.output` — the forced answer tool of
 * providers that ask for structured output through a tool (Anthropic). A turn with an `output`
 * schema must not also offer a tool of this name; such a turn ends `failed` / `runtime_error`.
 */
export const STRUCTURED_OUTPUT_NAME = 'structured_output';

/** An `output` schema, checked, with what the model adapter receives. */
export interface ResolvedOutput {
  schema: HarnessOutputSchema;
  /** The JSON Schema (object root, no `$schema`) as JSON text; every step gets a fresh copy. */
  jsonSchemaText: string;
  description?: string;
}

/**
 * Checks an `output` schema and derives its JSON Schema. `label` names where it was given
 * (`createHarness`, `runTurn`, `streamTurn`, `resumeTurn`).
 *
 * @throws HarnessConfigError with `field` `output` (or `output.jsonSchema` / `output.validate`).
 */
export function resolveOutput(schema: unknown, label: string): ResolvedOutput {
  const checked = schema as HarnessOutputSchema;
  const jsonSchema = resolveJsonSchema({ label, field: 'output' }, checked);
  let jsonSchemaText: string;
  try {
    jsonSchemaText = JSON.stringify(jsonSchema);
  } catch (error) {
    throw new HarnessConfigError(`${label}: the output JSON Schema must be plain JSON (${describeError(error, 200)}).`, {
      field: 'output',
      cause: error,
    });
  }
  const description = jsonSchema.description;
  return {
    schema: checked,
    jsonSchemaText,
    ...(typeof description === 'string' && description.trim() !== '' ? { description } : {}),
  };
}

/** What one model step receives as `HarnessModelInput.output`: a fresh copy, so an adapter cannot change later steps. */
export function outputFormat(output: ResolvedOutput): HarnessOutputFormat {
  return {
    name: STRUCTURED_OUTPUT_NAME,
    jsonSchema: JSON.parse(output.jsonSchemaText) as Record<string, unknown>,
    ...(output.description === undefined ? {} : { description: output.description }),
  };
}

/** The instruction that asks for the structured answer where the API cannot be asked natively (backends, plain prompts). */
export function outputInstructions(format: Pick<HarnessOutputFormat, 'jsonSchema'>): string {
  return `Answer with only a JSON value matching this JSON Schema, with no other text:\n${JSON.stringify(format.jsonSchema)}`;
}
