import type { HarnessToolDefinition } from '../../shared/types/tools.js';
import type { AnyTypedTool } from '../define-tool.js';
import { parseToolInput, isPromiseLike } from './parse-tool-input.js';
import { resolveJsonSchema } from './resolve-json-schema.js';

/** The definition a model sees for a typed tool. */
export async function toToolDefinition(tool: AnyTypedTool): Promise<HarnessToolDefinition> {
  const inputSchema = resolveJsonSchema(tool.name, tool.input);
  const rule = tool.requiresApproval;
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: structuredClone(inputSchema),
    ...(rule === undefined ? {} : { requiresApproval: typeof rule === 'boolean' ? rule : approvalOf(tool, rule) }),
    ...(tool.metadata === undefined ? {} : { metadata: tool.metadata }),
  };
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
