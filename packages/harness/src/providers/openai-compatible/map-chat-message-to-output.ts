import type { HarnessModelOutput } from '../../core/types/model.js';
import type { HarnessToolCall } from '../../shared/types/tools.js';
import type { HarnessUsage } from '../../shared/types/usage.js';
import type { ProviderErrorDetails } from '../http/provider-error-class.js';
import { readCount } from '../internal/parse-tool-arguments.js';
import { readToolCall } from '../internal/read-tool-call.js';
import { withNotes } from '../internal/provider-notes.js';
import { invalidOutput, outputMetadata, outputUsage, reportedErrorOutput, type OutputContext } from '../internal/transport-failure-output.js';
import { mapOpenAICompatibleFinishReason } from './map-openai-compatible-finish-reason.js';
import { chatReasoningPart } from './internal/chat-reasoning.js';

/** A chat-completions assistant message, from a JSON body or assembled from stream chunks. */
export interface AssembledChatMessage {
  /** Whether the response held a message (or any delta) at all. */
  hasMessage: boolean;
  text: string;
  refusal?: string;
  /** Reasoning text (`reasoning_content` or `reasoning`). */
  reasoning?: string;
  /** OpenRouter `reasoning_details`, to replay in the next step. */
  reasoningDetails?: Record<string, unknown>[];
  toolCalls: { id?: string; name?: string; arguments?: unknown }[];
  finishReason?: string;
  usage?: unknown;
  responseId?: string;
  responseModel?: string;
  /** An error the server reported in the body or a chunk, as `readProviderError` reads it. */
  error?: ProviderErrorDetails;
  /** What was skipped on the way (content parts of other kinds). */
  notes?: string[];
}

/**
 * Reads prompt/completion tokens, cached prompt tokens (`prompt_tokens_details.cached_tokens`),
 * reasoning tokens (`completion_tokens_details.reasoning_tokens`) and OpenRouter's `cost`
 * (→ `costUnits`) from a `usage` object.
 */
export function readOpenAICompatibleUsage(usage: unknown): HarnessUsage {
  if (typeof usage !== 'object' || usage === null) return {};
  const record = usage as Record<string, unknown>;
  const inputTokens = readCount(record.prompt_tokens);
  const outputTokens = readCount(record.completion_tokens);
  const cachedInputTokens = readCount(detail(record.prompt_tokens_details, 'cached_tokens'));
  const reasoningTokens = readCount(detail(record.completion_tokens_details, 'reasoning_tokens'));
  const costUnits = readCount(record.cost);
  return {
    ...(inputTokens === undefined ? {} : { inputTokens }),
    ...(outputTokens === undefined ? {} : { outputTokens }),
    ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
    ...(reasoningTokens === undefined ? {} : { reasoningTokens }),
    ...(costUnits === undefined ? {} : { costUnits }),
  };
}

function detail(details: unknown, key: string): unknown {
  return typeof details === 'object' && details !== null ? (details as Record<string, unknown>)[key] : undefined;
}

/**
 * Classifies an assistant message into a harness output: a provider error, then a refusal
 * (`message.refusal` or a content-filter stop), then tool calls (arguments parsed strictly; text
 * kept), then text; otherwise `empty_response` or `missing_message`. Reasoning (text and OpenRouter
 * `reasoning_details`) goes to `output.reasoning`, never into the text; what was skipped on the way
 * becomes the output's `notes`.
 */
export function mapChatMessageToOutput(message: AssembledChatMessage, context: OutputContext): HarnessModelOutput {
  return withNotes(classify(message, context), message.notes, context.redactor);
}

function classify(message: AssembledChatMessage, context: OutputContext): HarnessModelOutput {
  const finishReason = mapOpenAICompatibleFinishReason(message.finishReason);
  const usage = outputUsage(context, readOpenAICompatibleUsage(message.usage));
  const metadata = outputMetadata(context, {
    finishReason,
    ...(message.finishReason === undefined ? {} : { rawFinishReason: message.finishReason }),
    ...(message.responseId === undefined ? {} : { responseId: context.redactor.exact(message.responseId) }),
    ...(message.responseModel === undefined ? {} : { responseModel: context.redactor.exact(message.responseModel) }),
  });
  const extra = { usage, metadata };
  const part = chatReasoningPart(message.reasoning, message.reasoningDetails ?? [], context.redactor);
  const answered = part === undefined ? extra : { ...extra, reasoning: [part] };
  if (message.error !== undefined) return reportedErrorOutput('The provider', message.error, context, extra);
  const text = context.redactor.exact(message.text).trim();
  const refusal = message.refusal?.trim();
  if (refusal !== undefined && refusal !== '') return { type: 'refusal', reason: context.redactor.exact(refusal), ...answered };
  if (message.toolCalls.length > 0) {
    const calls: HarnessToolCall[] = [];
    for (const call of message.toolCalls) {
      const read = readToolCall(call, context.redactor);
      if (!read.ok) return invalidOutput('schema_mismatch', read.reason, context, extra);
      calls.push(read.call);
    }
    return { type: 'tool_request', calls, ...(text === '' ? {} : { text }), ...answered };
  }
  if (finishReason === 'content_filter') {
    return { type: 'refusal', reason: text === '' ? "The provider's content filter stopped the answer." : text, ...answered };
  }
  if (finishReason === 'error') {
    return reportedErrorOutput('The provider', { message: 'the answer stopped with finish_reason "error" before it was finished.', names: [] }, context, extra);
  }
  if (text !== '') return { type: 'final_answer', text, ...answered };
  if (!message.hasMessage) return invalidOutput('missing_message', 'The response held no assistant message.', context, extra);
  if (finishReason === 'length') {
    return invalidOutput('empty_response', 'The model ran out of output tokens before answering.', context, { ...extra, retryable: false });
  }
  return invalidOutput('empty_response', 'The model returned an empty answer.', context, extra);
}
