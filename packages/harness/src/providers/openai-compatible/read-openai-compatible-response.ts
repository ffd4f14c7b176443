import { readProviderError } from '../http/provider-error-class.js';
import { createProviderNotes } from '../internal/provider-notes.js';
import type { OpenAICompatibleResponse } from './openai-compatible-api-types.js';
import { readReasoningDetails } from './internal/chat-reasoning.js';
import { readChatContent } from './internal/read-chat-content.js';
import type { AssembledChatMessage } from './map-chat-message-to-output.js';

/**
 * Turns a parsed non-streamed response into the same message shape the stream assembler builds;
 * `content` parts are read by `readChatContent` (Mistral `thinking` parts become reasoning).
 */
export function readOpenAICompatibleResponse(body: OpenAICompatibleResponse): AssembledChatMessage {
  const choice = body.choices?.[0];
  const message = choice?.message ?? undefined;
  const notes = createProviderNotes();
  const content = readChatContent(message?.content, notes);
  const reasoning = (message?.reasoning_content ?? message?.reasoning ?? '') + content.reasoning;
  const reasoningDetails = readReasoningDetails(message?.reasoning_details);
  const noted = notes.list();
  return {
    hasMessage: message != null,
    text: content.text,
    toolCalls: (message?.tool_calls ?? []).map((call) => ({
      ...(call.id == null ? {} : { id: call.id }),
      ...(call.function.name == null ? {} : { name: call.function.name }),
      arguments: call.function.arguments,
    })),
    ...(message?.refusal == null ? {} : { refusal: message.refusal }),
    ...(reasoning === '' ? {} : { reasoning }),
    ...(reasoningDetails.length === 0 ? {} : { reasoningDetails }),
    ...(choice?.finish_reason == null ? {} : { finishReason: choice.finish_reason }),
    ...(body.usage == null ? {} : { usage: body.usage }),
    ...(body.id == null ? {} : { responseId: body.id }),
    ...(body.model == null ? {} : { responseModel: body.model }),
    ...(body.error == null ? {} : { error: readProviderError({ error: body.error }) }),
    ...(noted.length === 0 ? {} : { notes: noted }),
  };
}
