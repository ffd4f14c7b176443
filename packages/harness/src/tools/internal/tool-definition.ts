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
    inputSchema: frozenSchema(inputSchema),
    ...(rule === undefined ? {} : { requiresApproval: typeof rule === 'boolean' ? rule : approvalOf(tool, rule) }),
    ...(tool.metadata === undefined ? {} : { metadata: tool.metadata }),
  };
}

/** The deep-frozen copy of each resolved schema, made once and shared by every listing. */
const frozenSchemas = new WeakMap<object, Record<string, unknown>>();

/**
 * A deep-frozen copy of a resolved JSON Schema, made on the first listing: no consumer can change
 * what later turns see, and no listing pays for a copy.
 */
function frozenSchema(schema: Record<string, unknown>): Record<string, unknown> {
  let frozen = frozenSchemas.get(schema);
  if (frozen === undefined) {
    frozen = deepFreeze(JSON.parse(JSON.stringify(schema)) as Record<string, unknown>);
    frozenSchemas.set(schema, frozen);
  }
  return frozen;
}

/** Freezes a parsed JSON value and everything in it. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const entry of Object.values(value)) deepFreeze(entry);
    Object.freeze(value);
  }
  return value;
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
