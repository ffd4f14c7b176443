import type { OpenAICompatibleChunk } from '../openai-compatible-api-types.js';
import type { AssembledChatMessage } from './map-chat-message-to-output.js';

/** Collects stream chunks into one message; tool-call argument deltas are joined by `index`. */
export interface OpenAICompatibleStreamAssembler {
  /** Adds a chunk; returns its text delta, if any. */
  push(chunk: OpenAICompatibleChunk): string | undefined;
  /** Records the `[DONE]` sentinel. */
  markDone(): void;
  /** True after `[DONE]`, or once a finish reason arrived (for servers that omit `[DONE]`). */
  isComplete(): boolean;
  /** True after a chunk carried an `error`. */
  hasError(): boolean;
  result(): AssembledChatMessage;
}

interface PartialCall {
  id?: string;
  name?: string;
  arguments: string;
}

/** Creates an empty assembler. */
export function createOpenAICompatibleStreamAssembler(): OpenAICompatibleStreamAssembler {
  const message: AssembledChatMessage = { hasMessage: false, text: '', toolCalls: [] };
  const textParts: string[] = [];
  const calls = new Map<number, PartialCall>();
  let lastIndex = -1;
  let refusal = '';
  let done = false;
  return {
    push(chunk) {
      if (chunk.id != null) message.responseId = chunk.id;
      if (chunk.model != null) message.responseModel = chunk.model;
      if (chunk.usage != null) message.usage = chunk.usage;
      if (chunk.error != null) message.error = chunk.error;
      const choice = chunk.choices?.[0];
      if (choice == null) return undefined;
      message.hasMessage = true;
      if (choice.finish_reason != null) message.finishReason = choice.finish_reason;
      const delta = choice.delta;
      if (delta == null) return undefined;
      if (delta.refusal != null) refusal += delta.refusal;
      for (const part of delta.tool_calls ?? []) {
        let index = part.index ?? undefined;
        if (index === undefined) {
          // Servers that omit `index`: a new id starts a call, no id continues the last one.
          const last = calls.get(lastIndex);
          index = last === undefined || (part.id != null && part.id !== last.id) ? lastIndex + 1 : lastIndex;
        }
        lastIndex = Math.max(lastIndex, index);
        const call = calls.get(index) ?? { arguments: '' };
        if (part.id != null && part.id !== '') call.id = part.id;
        if (part.function?.name != null && part.function.name !== '') call.name = part.function.name;
        if (part.function?.arguments != null) call.arguments += part.function.arguments;
        calls.set(index, call);
      }
      if (delta.content != null && delta.content !== '') {
        textParts.push(delta.content);
        return delta.content;
      }
      return undefined;
    },
    markDone() {
      done = true;
    },
    isComplete: () => done || message.finishReason !== undefined,
    hasError: () => message.error !== undefined,
    result() {
      const toolCalls = [...calls.entries()]
        .sort(([left], [right]) => left - right)
        .map(([, call]) => ({
          ...(call.id === undefined ? {} : { id: call.id }),
          ...(call.name === undefined ? {} : { name: call.name }),
          arguments: call.arguments,
        }));
      return { ...message, text: textParts.join(''), toolCalls, ...(refusal === '' ? {} : { refusal }) };
    },
  };
}
