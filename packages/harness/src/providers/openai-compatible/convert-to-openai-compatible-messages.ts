import type { HarnessToolDefinition } from '../../shared/types/tools.js';
import type { HarnessTranscriptItem } from '../../core/types/transcript.js';
import type { HarnessHistoryMessage, HarnessInstructions, HarnessPreparedContext, HarnessUserMessage } from '../../shared/types/turn-input.js';
import { renderInstructions } from '../internal/render-instructions.js';
import { unsupportedAttachment } from '../internal/read-attachment.js';
import { replayTranscript } from '../internal/replay-transcript.js';
import type { OpenAICompatibleMessage, OpenAICompatibleTool } from './openai-compatible-api-types.js';
import { toFunctionTools } from '../internal/to-function-tools.js';
import { replayReasoningDetails } from './internal/chat-reasoning.js';
import { toOpenAICompatibleUserContent } from './internal/to-openai-compatible-user-content.js';

/** What `convertToOpenAICompatibleMessages` needs: the parts of `HarnessModelInput` that make the prompt. */
export interface OpenAICompatibleConversation {
  instructions: HarnessInstructions;
  context?: HarnessPreparedContext | undefined;
  /** The conversation before `message`, oldest first. */
  history?: readonly HarnessHistoryMessage[] | undefined;
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
 * response-style notes), prepared context, the conversation `history` (user and assistant
 * messages, oldest first), the user's message, then the turn so far — each tool step as an
 * assistant message (its text, if any, plus `tool_calls` with the real JSON arguments and any
 * OpenRouter `reasoning_details` of the step) followed by one `tool` message per call (errors as
 * JSON with an `error` field). Clarification answers are user messages; approval decisions and
 * unusable replies become short user notes; invalid outputs are never replayed as assistant speech.
 * User messages with attachments carry a parts array (see `toOpenAICompatibleUserContent`).
 * @throws UnsupportedInputError (reason `attachments_unsupported`) for an attachment chat completions
 * cannot carry (a file by URL, any attachment on an assistant history message).
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
  for (const earlier of conversation.history ?? []) {
    if (earlier.role === 'user') {
      messages.push({ role: 'user', content: toOpenAICompatibleUserContent(earlier.text, earlier.attachments) });
      continue;
    }
    const attachment = earlier.attachments?.[0];
    if (attachment !== undefined) throw unsupportedAttachment(attachment, 'chat-completions assistant messages cannot carry attachments');
    messages.push({ role: 'assistant', content: earlier.text });
  }
  messages.push({ role: 'user', content: toOpenAICompatibleUserContent(conversation.message.text, conversation.message.attachments) });
  for (const entry of replayTranscript(conversation.transcript)) {
    switch (entry.role) {
      case 'assistant': {
        const details = replayReasoningDetails(entry.reasoning);
        messages.push({
          role: 'assistant',
          content: entry.text ?? null,
          ...(details === undefined ? {} : { reasoning_details: details }),
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
      }
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
