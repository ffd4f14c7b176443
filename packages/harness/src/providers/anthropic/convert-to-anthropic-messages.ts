import type { HarnessToolDefinition } from '../../shared/types/tools.js';
import type { HarnessTranscriptItem } from '../../core/types/transcript.js';
import type { HarnessInstructions, HarnessPreparedContext, HarnessUserMessage } from '../../shared/types/turn-input.js';
import { renderInstructions } from '../internal/render-instructions.js';
import { replayTranscript } from '../internal/replay-transcript.js';
import type { AnthropicRequestContentBlock, AnthropicRequestMessage, AnthropicTool } from './anthropic-api-types.js';

/** What `convertToAnthropicMessages` needs: the parts of `HarnessModelInput` that make the prompt. */
export interface AnthropicConversation {
  instructions: HarnessInstructions;
  context?: HarnessPreparedContext | undefined;
  message: HarnessUserMessage;
  transcript: readonly HarnessTranscriptItem[];
}

/** The `system` and `messages` of a Messages API request. */
export interface AnthropicPrompt {
  system?: string | undefined;
  messages: AnthropicRequestMessage[];
}

/**
 * Builds a Messages API prompt: the system prompt, developer prompt and context joined into
 * `system`; then the user's message; then each tool step as an assistant message (its text plus
 * `tool_use` blocks with the real input) followed by a user message of `tool_result` blocks (failures
 * with `is_error: true`). Clarification answers and runtime notes are user text; consecutive
 * messages of one role are merged, as the API expects alternating roles.
 */
export function convertToAnthropicMessages(conversation: AnthropicConversation): AnthropicPrompt {
  const rendered = renderInstructions(conversation.instructions, conversation.context);
  const systemParts = [rendered.system, rendered.developer, rendered.context].filter((part): part is string => part !== undefined);
  const messages: AnthropicRequestMessage[] = [];
  const push = (role: AnthropicRequestMessage['role'], blocks: AnthropicRequestContentBlock[]) => {
    if (blocks.length === 0) return;
    const last = messages.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };
  push('user', [{ type: 'text', text: conversation.message.text.trim() === '' ? '(empty message)' : conversation.message.text }]);
  for (const entry of replayTranscript(conversation.transcript)) {
    switch (entry.role) {
      case 'assistant':
        push('assistant', [
          ...(entry.text === undefined ? [] : [{ type: 'text' as const, text: entry.text }]),
          ...(entry.calls ?? []).map((call) => ({ type: 'tool_use' as const, id: call.id, name: call.name, input: call.input })),
        ]);
        break;
      case 'tool_results':
        push(
          'user',
          entry.results.map((result) => ({
            type: 'tool_result' as const,
            tool_use_id: result.call.id,
            content: result.content,
            ...(result.isError ? { is_error: true } : {}),
          })),
        );
        break;
      case 'user':
        push('user', [{ type: 'text', text: entry.text }]);
        break;
      case 'note':
        push('user', [{ type: 'text', text: `[Runtime note] ${entry.text}` }]);
        break;
    }
  }
  return { ...(systemParts.length === 0 ? {} : { system: systemParts.join('\n\n') }), messages };
}

/** Describes the available tools for the Messages API (`input_schema` is the tool's JSON Schema). */
export function convertToAnthropicTools(tools: readonly HarnessToolDefinition[]): AnthropicTool[] {
  return tools.map((tool) => ({
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    input_schema: tool.inputSchema ?? { type: 'object', properties: {} },
  }));
}
