import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import type {
  HarnessToolAvailabilityInput,
  HarnessToolCall,
  HarnessToolDefinition,
  HarnessToolExecutionContext,
  HarnessToolRegistry,
  HarnessToolResult,
} from '../shared/types/tools.js';
import { isTypedTool, type AnyTypedTool } from './define-tool.js';
import { runTypedTool } from './internal/run-typed-tool.js';
import { toToolDefinition } from './internal/tool-definition.js';

/** A registry whose tool names are known up front; `composeToolRegistries` checks them for clashes. */
export interface TypedToolRegistry extends HarnessToolRegistry {
  /** Names of every tool the registry can offer, in definition order. */
  readonly toolNames: readonly string[];
  /**
   * Definitions with JSON Schema for the model. Honours `allowedToolNames` when given (the
   * harness filters again either way).
   */
  listAvailable(input?: HarnessToolAvailabilityInput): Promise<HarnessToolDefinition[]>;
  /** Validates the call's input and runs the tool. Never rejects. */
  execute(call: HarnessToolCall, context: HarnessToolExecutionContext): Promise<HarnessToolResult>;
}

/**
 * Creates a registry from tools made by `defineTool`.
 * @throws HarnessConfigError when an entry is not a typed tool or two tools share a name.
 * @example
 * ```ts
 * const harness = createHarness({ model, tools: createToolRegistry([weather, calendar]) });
 * ```
 */
export function createToolRegistry(tools: readonly AnyTypedTool[]): TypedToolRegistry {
  if (!Array.isArray(tools)) throw new HarnessConfigError('createToolRegistry expects an array of tools.', { field: 'tools' });
  const byName = new Map<string, AnyTypedTool>();
  tools.forEach((tool, index) => {
    if (!isTypedTool(tool)) {
      throw new HarnessConfigError(`tools[${index}] was not made by defineTool.`, { field: `tools[${index}]` });
    }
    if (byName.has(tool.name)) {
      throw new HarnessConfigError(`Two tools are named "${tool.name}".`, { field: `tools[${index}].name` });
    }
    byName.set(tool.name, tool);
  });
  const toolNames = Object.freeze([...byName.keys()]);
  return {
    toolNames,
    async listAvailable(input) {
      const allowed = input?.allowedToolNames === undefined ? undefined : new Set(input.allowedToolNames);
      const definitions: HarnessToolDefinition[] = [];
      for (const tool of byName.values()) if (allowed?.has(tool.name) ?? true) definitions.push(toToolDefinition(tool));
      return definitions;
    },
    // Not an async function: the typed tool's own promise is handed on, without a frame of its own.
    execute(call, context) {
      try {
        const tool = byName.get(call.name);
        if (tool !== undefined) return runTypedTool(tool, call, context);
        return Promise.resolve<HarnessToolResult>({
          callId: call.id,
          toolName: call.name,
          status: 'error',
          error: {
            code: 'tool_unavailable',
            message: `There is no tool named "${call.name}". Available tools: ${toolNames.join(', ') || 'none'}.`,
            retryable: true,
          },
        });
      } catch (error) {
        // What an async function would have done with a throwing getter of `call`.
        return Promise.reject(error);
      }
    },
  };
}
