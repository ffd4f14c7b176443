import { readProviderError } from '../../http/provider-error-class.js';
import { createProviderNotes } from '../../internal/provider-notes.js';
import type { OpenAICompatibleChunk } from '../openai-compatible-api-types.js';
import { mergeReasoningDetails } from './chat-reasoning.js';
import { readChatContent } from './read-chat-content.js';
import type { AssembledChatMessage } from '../map-chat-message-to-output.js';

/** What one chunk added that can be streamed: answer text and reasoning text. */
export interface ChunkDeltas {
  text?: string;
  reasoning?: string;
}

/**
 * Collects stream chunks into one message; tool-call argument deltas are joined by `index`,
 * reasoning text (`delta.reasoning_content`, `delta.reasoning`, or Mistral `thinking` parts of a
 * `delta.content` array) and OpenRouter `reasoning_details` pieces are collected apart from the answer.
 */
export interface OpenAICompatibleStreamAssembler {
  /** Adds a chunk; returns its text and reasoning deltas (empty when it had none). */
  push(chunk: OpenAICompatibleChunk): ChunkDeltas;
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
  const reasoningParts: string[] = [];
  const reasoningDetails: Record<string, unknown>[] = [];
  const calls = new Map<number, PartialCall>();
  let lastIndex = -1;
  const notes = createProviderNotes();
  let refusal = '';
  let done = false;
  return {
    push(chunk) {
      if (chunk.id != null) message.responseId = chunk.id;
      if (chunk.model != null) message.responseModel = chunk.model;
      if (chunk.usage != null) message.usage = chunk.usage;
      if (chunk.error != null) message.error = readProviderError({ error: chunk.error });
      const choice = chunk.choices?.[0];
      if (choice == null) return {};
      message.hasMessage = true;
      if (choice.finish_reason != null) message.finishReason = choice.finish_reason;
      const delta = choice.delta;
      if (delta == null) return {};
      if (delta.refusal != null) refusal += delta.refusal;
      if (delta.reasoning_details != null) mergeReasoningDetails(reasoningDetails, delta.reasoning_details);
      const deltas: ChunkDeltas = {};
      const content = readChatContent(delta.content, notes);
      const reasoning = (delta.reasoning_content ?? delta.reasoning ?? '') + content.reasoning;
      if (reasoning !== '') {
        reasoningParts.push(reasoning);
        deltas.reasoning = reasoning;
      }
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
      if (content.text !== '') {
        textParts.push(content.text);
        deltas.text = content.text;
      }
      return deltas;
    },
    markDone() {
      done = true;
    },
    isComplete: () => done || message.finishReason !== undefined,
    hasError: () => message.error !== undefined,
    result() {
      const noted = notes.list();
      const toolCalls = [...calls.entries()]
        .sort(([left], [right]) => left - right)
        .map(([, call]) => ({
          ...(call.id === undefined ? {} : { id: call.id }),
          ...(call.name === undefined ? {} : { name: call.name }),
          arguments: call.arguments,
        }));
      return {
        ...message,
        text: textParts.join(''),
        toolCalls,
        ...(refusal === '' ? {} : { refusal }),
        ...(reasoningParts.length === 0 ? {} : { reasoning: reasoningParts.join('') }),
        ...(reasoningDetails.length === 0 ? {} : { reasoningDetails }),
        ...(noted.length === 0 ? {} : { notes: noted }),
      };
    },
  };
}
