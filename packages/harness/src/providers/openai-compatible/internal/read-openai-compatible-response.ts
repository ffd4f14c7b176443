import { readProviderError } from '../../http/provider-error-class.js';
import type { OpenAICompatibleResponse } from '../openai-compatible-api-types.js';
import { readReasoningDetails } from './chat-reasoning.js';
import type { AssembledChatMessage } from './map-chat-message-to-output.js';

/** Turns a parsed non-streamed response into the same message shape the stream assembler builds. */
export function readOpenAICompatibleResponse(body: OpenAICompatibleResponse): AssembledChatMessage {
  const choice = body.choices?.[0];
  const message = choice?.message ?? undefined;
  const content = message?.content;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((part) => (part.type == null || part.type === 'text' ? (part.text ?? '') : '')).join('')
        : '';
  const reasoning = message?.reasoning_content ?? message?.reasoning;
  const reasoningDetails = readReasoningDetails(message?.reasoning_details);
  return {
    hasMessage: message != null,
    text,
    toolCalls: (message?.tool_calls ?? []).map((call) => ({
      ...(call.id == null ? {} : { id: call.id }),
      ...(call.function.name == null ? {} : { name: call.function.name }),
      arguments: call.function.arguments,
    })),
    ...(message?.refusal == null ? {} : { refusal: message.refusal }),
    ...(reasoning == null || reasoning === '' ? {} : { reasoning }),
    ...(reasoningDetails.length === 0 ? {} : { reasoningDetails }),
    ...(choice?.finish_reason == null ? {} : { finishReason: choice.finish_reason }),
    ...(body.usage == null ? {} : { usage: body.usage }),
    ...(body.id == null ? {} : { responseId: body.id }),
    ...(body.model == null ? {} : { responseModel: body.model }),
    ...(body.error == null ? {} : { error: readProviderError({ error: body.error }) }),
  };
}
