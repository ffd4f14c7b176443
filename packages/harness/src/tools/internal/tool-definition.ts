import type { HarnessToolDefinition } from '../../shared/types/tools.js';
import type { AnyTypedTool } from '../define-tool.js';
import { parseToolInput, isPromiseLike } from './parse-tool-input.js';
import { resolveJsonSchema } from './resolve-json-schema.js';

/** The definition a model sees for a typed tool. */
export function toToolDefinition(tool: AnyTypedTool): HarnessToolDefinition {
  const inputSchema = resolveJsonSchema(tool.name, tool.input);
  const rule = tool.requiresApproval;
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: copySchema(inputSchema),
    ...(rule === undefined ? {} : { requiresApproval: typeof rule === 'boolean' ? rule : approvalOf(tool, rule) }),
    ...(tool.metadata === undefined ? {} : { metadata: tool.metadata }),
  };
}

/** The JSON text of each resolved schema, kept so every listing gets a fresh copy cheaply. */
const schemaText = new WeakMap<object, string>();

/** A fresh deep copy of a resolved JSON Schema (so no consumer can change what later turns see). */
function copySchema(schema: Record<string, unknown>): Record<string, unknown> {
  let text = schemaText.get(schema);
  if (text === undefined) {
    text = JSON.stringify(schema);
    schemaText.set(schema, text);
  }
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * The harness asks synchronously whether a raw call input needs approval. The rule sees the
 * parsed input; input that fails validation needs no approval (it will not run), and a schema
 * that validates asynchronously always needs it (the safe answer).
 */
function approvalOf(tool: AnyTypedTool, rule: (input: never) => boolean): (input: Record<string, unknown>) => boolean {
  return (raw) => {
    const parsed = parseToolInput(tool.input, raw);
    if (isPromiseLike(parsed)) {
      parsed.then(undefined, () => undefined);
      return true;
    }
    return parsed.ok ? rule(parsed.value as never) === true : false;
  };
}
