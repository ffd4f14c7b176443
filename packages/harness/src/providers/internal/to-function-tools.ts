import type { HarnessToolDefinition } from '../../shared/types/tools.js';

/** The function-tool shape chat-completions and Ollama share. */
export interface FunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

/** Describes tools as function tools with JSON Schema parameters (an empty object schema when none). */
export function toFunctionTools(tools: readonly HarnessToolDefinition[]): FunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: tool.inputSchema ?? { type: 'object', properties: {} },
    },
  }));
}
