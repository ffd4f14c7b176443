import type { HarnessToolDefinition } from '../../shared/types/tools.js';
import type { HarnessToolChoice } from '../../shared/types/turn-input.js';
import { UnsupportedInputError } from './unsupported-input-error.js';

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

/**
 * The tool a step must call, for protocols with function tools: `'auto'`, `'none'` or `'required'`
 * as given, or the name of a `{ name }` choice, which must be one of `tools`.
 * @throws UnsupportedInputError (reason `tool_choice_unsupported`) for a name not offered, or a value that is not a tool choice.
 */
export function readToolChoice(choice: HarnessToolChoice | undefined, tools: readonly HarnessToolDefinition[]): 'auto' | 'none' | 'required' | { name: string } {
  if (choice === undefined || choice === 'auto' || choice === 'none' || choice === 'required') return choice ?? 'auto';
  const name: unknown = typeof choice === 'object' && choice !== null ? (choice as { name?: unknown }).name : undefined;
  if (typeof name !== 'string') throw new UnsupportedInputError('tool_choice_unsupported', 'The tool choice must be auto, none, required or { name }.');
  if (!tools.some((tool) => tool.name === name)) {
    throw new UnsupportedInputError('tool_choice_unsupported', `The tool choice names ${JSON.stringify(name.slice(0, 64))}, which is not an offered tool.`);
  }
  return { name };
}
