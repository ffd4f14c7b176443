import type { ToolInputSchema } from '../tool-input-schema.js';
import { checkSchemaShape as checkShape, resolveJsonSchema as resolve } from '../../core/output/resolve-json-schema.js';

const owner = (toolName: string) => ({ label: `Tool ${toolName}`, field: 'input' });

/**
 * Checks that a tool's `input` is a usable schema and derives its JSON Schema now, so a bad schema
 * fails when the tool is defined (`HarnessConfigError` naming `input`).
 */
export function checkSchemaShape(toolName: string, input: unknown): void {
  checkShape(owner(toolName), input);
}

/** The JSON Schema models see for `input`, derived when the tool was defined. */
export function resolveJsonSchema(toolName: string, input: ToolInputSchema): Record<string, unknown> {
  return resolve(owner(toolName), input);
}
