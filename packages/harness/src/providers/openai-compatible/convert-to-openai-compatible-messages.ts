import type { HarnessToolDefinition } from '../../shared/types/tools.js';
import type { HarnessTranscriptItem } from '../../core/types/transcript.js';
import type { HarnessInstructions, HarnessPreparedContext, HarnessUserMessage } from '../../shared/types/turn-input.js';
import { renderInstructions } from '../internal/render-instructions.js';
import { replayTranscript } from '../internal/replay-transcript.js';
import type { OpenAICompatibleMessage, OpenAICompatibleTool } from './openai-compatible-api-types.js';
import { toFunctionTools } from '../internal/to-function-tools.js';

/** What `convertToOpenAICompatibleMessages` needs: the parts of `HarnessModelInput` that make the prompt. */
export interface OpenAICompatibleConversation {
  instructions: HarnessInstructions;
  context?: HarnessPreparedContext | undefined;
  message: HarnessUserMessage;
  transcript: readonly HarnessTranscriptItem[];
}

/** Options of `convertToOpenAICompatibleMessages`. */
export interface ConvertToOpenAICompatibleMessagesOptions {
  /**
   * Role of the developer prompt. Some OpenAI models expect `developer`; most compatible servers
   * only know `system`.
   * @default 'system'
   */
  developerRole?: 'system' | 'developer' | undefined;
}

/**
 * Builds chat-completions `messages` in a correct order: system prompt, developer prompt (with
 * response-style notes), prepared context, the user's message, then the turn so far — each tool
 * step as an assistant message (its text, if any, plus `tool_calls` with the real JSON arguments)
 * followed by one `tool` message per call (errors as JSON with an `error` field). Clarification
 * answers are user messages; approval decisions and unusable replies become short user notes;
 * invalid outputs are never replayed as assistant speech.
 */
export function convertToOpenAICompatibleMessages(
  conversation: OpenAICompatibleConversation,
  options: ConvertToOpenAICompatibleMessagesOptions = {},
): OpenAICompatibleMessage[] {
  const messages: OpenAICompatibleMessage[] = [];
  const rendered = renderInstructions(conversation.instructions, conversation.context);
  if (rendered.system !== undefined) messages.push({ role: 'system', content: rendered.system });
  if (rendered.developer !== undefined) messages.push({ role: options.developerRole ?? 'system', content: rendered.developer });
  if (rendered.context !== undefined) messages.push({ role: 'system', content: rendered.context });
  messages.push({ role: 'user', content: conversation.message.text });
  for (const entry of replayTranscript(conversation.transcript)) {
    switch (entry.role) {
      case 'assistant':
        messages.push({
          role: 'assistant',
          content: entry.text ?? null,
          ...(entry.calls === undefined
            ? {}
            : {
                tool_calls: entry.calls.map((call) => ({
                  id: call.id,
                  type: 'function' as const,
                  function: { name: call.name, arguments: JSON.stringify(call.input) },
                })),
              }),
        });
        break;
      case 'tool_results':
        for (const result of entry.results) messages.push({ role: 'tool', tool_call_id: result.call.id, content: result.content });
        break;
      case 'user':
        messages.push({ role: 'user', content: entry.text });
        break;
      case 'note':
        messages.push({ role: 'user', content: `[Runtime note] ${entry.text}` });
        break;
    }
  }
  return messages;
}

/** Describes the available tools as chat-completions `tools` (function tools with JSON Schema parameters). */
export function convertToOpenAICompatibleTools(tools: readonly HarnessToolDefinition[]): OpenAICompatibleTool[] {
  return toFunctionTools(tools);
}
