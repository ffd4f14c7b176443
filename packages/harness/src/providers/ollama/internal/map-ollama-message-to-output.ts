import type { HarnessModelOutput } from '../../../core/types/model.js';
import type { HarnessToolCall } from '../../../shared/types/tools.js';
import type { HarnessUsage } from '../../../shared/types/usage.js';
import type { ModelFinishReason } from '../../model-finish-reason.js';
import { readCount } from '../../internal/parse-tool-arguments.js';
import { readToolCall, type RawToolCall } from '../../internal/read-tool-call.js';
import { invalidOutput, outputMetadata, outputUsage, reportedErrorOutput, type OutputContext } from '../../internal/transport-failure-output.js';
import { readProviderError, type ProviderErrorDetails } from '../../http/provider-error-class.js';
import type { OllamaChatChunk } from '../ollama-api-types.js';

/** An Ollama chat answer, from one JSON body or assembled from stream lines. */
export interface AssembledOllamaMessage {
  /** Whether the response held a message at all. */
  hasMessage: boolean;
  text: string;
  /** The model's thinking (`message.thinking`), kept apart from the answer. */
  thinking: string;
  toolCalls: RawToolCall[];
  /** `true` once the final (`done: true`) line arrived. */
  done: boolean;
  doneReason?: string;
  usage: HarnessUsage;
  responseModel?: string;
  loadDurationMs?: number;
  /** An `error` Ollama reported inside a 200 response (e.g. mid-stream), as `readProviderError` reads it. */
  error?: ProviderErrorDetails;
}

/** An empty message, before any line arrived. */
export function emptyOllamaMessage(): AssembledOllamaMessage {
  return { hasMessage: false, text: '', thinking: '', toolCalls: [], done: false, usage: {} };
}

/** What one line added that can be streamed: answer text and thinking. */
export interface OllamaChunkDeltas {
  text?: string;
  reasoning?: string;
}

/** Adds one parsed response or stream line to `message`; returns the line's text and thinking, if any. */
export function addOllamaChunk(message: AssembledOllamaMessage, chunk: OllamaChatChunk): OllamaChunkDeltas {
  if (chunk.error != null) {
    message.error = readProviderError({ error: chunk.error });
    return {};
  }
  if (chunk.model != null) message.responseModel = chunk.model;
  const deltas: OllamaChunkDeltas = {};
  if (chunk.message != null) {
    message.hasMessage = true;
    if (chunk.message.thinking != null && chunk.message.thinking !== '') {
      deltas.reasoning = chunk.message.thinking;
      message.thinking += chunk.message.thinking;
    }
    if (chunk.message.content != null && chunk.message.content !== '') {
      deltas.text = chunk.message.content;
      message.text += chunk.message.content;
    }
    for (const call of chunk.message.tool_calls ?? []) {
      message.toolCalls.push({
        ...(call.id == null ? {} : { id: call.id }),
        ...(call.function.name == null ? {} : { name: call.function.name }),
        arguments: call.function.arguments,
      });
    }
  }
  if (chunk.done === true) {
    message.done = true;
    if (chunk.done_reason != null) message.doneReason = chunk.done_reason;
    const inputTokens = readCount(chunk.prompt_eval_count);
    const outputTokens = readCount(chunk.eval_count);
    message.usage = { ...(inputTokens === undefined ? {} : { inputTokens }), ...(outputTokens === undefined ? {} : { outputTokens }) };
    const load = readCount(chunk.load_duration);
    if (load !== undefined) message.loadDurationMs = Math.round(load / 1e6);
  }
  return deltas;
}

/** Maps Ollama's `done_reason` (`stop`, `length`, `load`, `unload` …) to a `ModelFinishReason`. */
export function mapOllamaDoneReason(reason: string | undefined, hasToolCalls: boolean): ModelFinishReason {
  if (hasToolCalls) return 'tool_calls';
  if (reason === 'stop') return 'stop';
  if (reason === 'length') return 'length';
  return 'other';
}

/**
 * Classifies an Ollama answer: a reported error (see `reportedErrorOutput`), then tool calls
 * (arguments checked strictly, text kept), then text; otherwise `empty_response` (not retryable
 * after a `length` stop) or `missing_message`. The thinking goes to `output.reasoning`
 * (`provider: 'ollama'`; Ollama needs no replay), never into the text.
 */
export function mapOllamaMessageToOutput(message: AssembledOllamaMessage, context: OutputContext): HarnessModelOutput {
  const finishReason = mapOllamaDoneReason(message.doneReason, message.toolCalls.length > 0);
  const usage = outputUsage(context, message.usage);
  const metadata = outputMetadata(context, {
    finishReason,
    ...(message.doneReason === undefined ? {} : { rawFinishReason: message.doneReason }),
    ...(message.responseModel === undefined ? {} : { responseModel: context.redactor.exact(message.responseModel) }),
    ...(message.loadDurationMs === undefined ? {} : { loadDurationMs: message.loadDurationMs }),
  });
  const extra = { usage, metadata };
  if (message.error !== undefined) return reportedErrorOutput('Ollama', message.error, context, extra);
  const thinking = context.redactor.exact(message.thinking).trim();
  const answered = thinking === '' ? extra : { ...extra, reasoning: [{ provider: 'ollama', text: thinking }] };
  const text = context.redactor.exact(message.text).trim();
  if (message.toolCalls.length > 0) {
    const calls: HarnessToolCall[] = [];
    for (const call of message.toolCalls) {
      const read = readToolCall(call, context.redactor);
      if (!read.ok) return invalidOutput('schema_mismatch', read.reason, context, extra);
      calls.push(read.call);
    }
    return { type: 'tool_request', calls, ...(text === '' ? {} : { text }), ...answered };
  }
  if (text !== '') return { type: 'final_answer', text, ...answered };
  if (!message.hasMessage) return invalidOutput('missing_message', 'The response held no assistant message.', context, extra);
  if (finishReason === 'length') {
    return invalidOutput('empty_response', 'The model ran out of output tokens before answering.', context, { ...extra, retryable: false });
  }
  return invalidOutput('empty_response', 'The model returned an empty answer.', context, extra);
}
