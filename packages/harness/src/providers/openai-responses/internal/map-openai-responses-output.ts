import type { HarnessModelOutput } from '../../../core/types/model.js';
import type { HarnessToolCall } from '../../../shared/types/tools.js';
import type { HarnessUsage } from '../../../shared/types/usage.js';
import type { ModelFinishReason } from '../../model-finish-reason.js';
import { readCount } from '../../internal/parse-tool-arguments.js';
import { readToolCall } from '../../internal/read-tool-call.js';
import { invalidOutput, outputMetadata, outputUsage, reportedErrorOutput, type OutputContext } from '../../internal/transport-failure-output.js';
import { readProviderError, type ProviderErrorDetails } from '../../http/provider-error-class.js';
import { createProviderNotes, withNotes, type ProviderNotes } from '../../internal/provider-notes.js';
import type { OpenAIResponsesOutputItem, OpenAIResponsesRawOutputItem, OpenAIResponsesResponse } from '../openai-responses-api-types.js';
import { toReasoningParts } from './openai-responses-reasoning.js';

/** A Responses API response, from one JSON body or assembled from stream events. */
export interface AssembledOpenAIResponse {
  /** Whether any output item arrived. */
  hasOutput: boolean;
  items: OpenAIResponsesOutputItem[];
  status?: string;
  incompleteReason?: string;
  usage?: unknown;
  responseId?: string;
  responseModel?: string;
  /** A failure the API reported (`status: "failed"`, a `response.failed` or `error` event). */
  error?: ProviderErrorDetails;
  /** What was skipped on the way (output items, content parts and stream events of other kinds). */
  notes?: string[];
}

/** Reads input tokens (cached ones as `cachedInputTokens`) and output tokens (reasoning ones as `reasoningTokens`). */
export function readOpenAIResponsesUsage(usage: unknown): HarnessUsage {
  if (typeof usage !== 'object' || usage === null) return {};
  const record = usage as Record<string, unknown>;
  const inputTokens = readCount(record.input_tokens);
  const outputTokens = readCount(record.output_tokens);
  const cachedInputTokens = readCount(detail(record.input_tokens_details, 'cached_tokens'));
  const reasoningTokens = readCount(detail(record.output_tokens_details, 'reasoning_tokens'));
  return {
    ...(inputTokens === undefined ? {} : { inputTokens }),
    ...(outputTokens === undefined ? {} : { outputTokens }),
    ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
    ...(reasoningTokens === undefined ? {} : { reasoningTokens }),
  };
}

function detail(details: unknown, key: string): unknown {
  return typeof details === 'object' && details !== null ? (details as Record<string, unknown>)[key] : undefined;
}

/**
 * An output item as the adapter reads it: an item of another kind (a hosted tool call, a type
 * added later) is skipped, and so is a message's content part of another kind, each with a note.
 */
export function readOutputItem(raw: OpenAIResponsesRawOutputItem, at: number, notes: ProviderNotes): OpenAIResponsesOutputItem | undefined {
  if (raw.type === null) {
    notes.add(`Skipped output item ${at} of type "${raw.otherType}", which the adapter does not read.`);
    return undefined;
  }
  if (raw.type !== 'message') return raw;
  const content = [];
  for (const part of raw.content ?? []) {
    if (part.type === null) notes.add(`Skipped a content part of type "${part.otherType}" in output item ${at}.`);
    else content.push(part);
  }
  return { type: 'message', ...(raw.id == null ? {} : { id: raw.id }), content };
}

/** Turns a parsed response object into the assembled shape (output items of other kinds skipped, see `readOutputItem`). */
export function readOpenAIResponse(body: OpenAIResponsesResponse, notes: ProviderNotes = createProviderNotes()): AssembledOpenAIResponse {
  const output = body.output ?? [];
  const items: OpenAIResponsesOutputItem[] = [];
  output.forEach((raw, at) => {
    const item = readOutputItem(raw, at, notes);
    if (item !== undefined) items.push(item);
  });
  const noted = notes.list();
  return {
    hasOutput: output.length > 0,
    items,
    ...(body.status == null ? {} : { status: body.status }),
    ...(body.incomplete_details?.reason == null ? {} : { incompleteReason: body.incomplete_details.reason }),
    ...(body.usage === undefined ? {} : { usage: body.usage }),
    ...(body.id == null ? {} : { responseId: body.id }),
    ...(body.model == null ? {} : { responseModel: body.model }),
    ...(body.error == null && body.status !== 'failed' ? {} : { error: readProviderError(body.error ?? { message: 'The response failed.' }) }),
    ...(noted.length === 0 ? {} : { notes: noted }),
  };
}

/** Maps the response status to a `ModelFinishReason`. */
export function mapOpenAIResponsesStatus(response: AssembledOpenAIResponse, hasToolCalls: boolean): ModelFinishReason {
  if (response.error !== undefined || response.status === 'failed') return 'error';
  if (hasToolCalls) return 'tool_calls';
  if (response.status === 'incomplete') {
    if (response.incompleteReason === 'max_output_tokens') return 'length';
    if (response.incompleteReason === 'content_filter') return 'content_filter';
    return 'other';
  }
  return response.status === 'completed' ? 'stop' : 'other';
}

/**
 * Classifies a response: a reported failure, then a refusal (a `refusal` content part or a
 * content-filter stop), then `function_call` items (→ `tool_request`, text kept), then text;
 * otherwise `empty_response` (not retryable after the token cap) or `missing_message`. Reasoning
 * items become the output's `reasoning` parts (see `toReasoningParts`), which the transcript keeps
 * for the next steps. What was skipped on the way becomes the output's `notes`.
 */
export function mapOpenAIResponsesOutput(response: AssembledOpenAIResponse, context: OutputContext): HarnessModelOutput {
  return withNotes(classify(response, context), response.notes, context.redactor);
}

function classify(response: AssembledOpenAIResponse, context: OutputContext): HarnessModelOutput {
  const functionCalls = response.items.filter((item) => item.type === 'function_call');
  const finishReason = mapOpenAIResponsesStatus(response, functionCalls.length > 0);
  const rawFinishReason = response.incompleteReason ?? response.status;
  const usage = outputUsage(context, readOpenAIResponsesUsage(response.usage));
  const metadata = outputMetadata(context, {
    finishReason,
    ...(rawFinishReason === undefined ? {} : { rawFinishReason }),
    ...(response.responseId === undefined ? {} : { responseId: context.redactor.exact(response.responseId) }),
    ...(response.responseModel === undefined ? {} : { responseModel: context.redactor.exact(response.responseModel) }),
  });
  const extra = { usage, metadata };
  if (response.error !== undefined) return reportedErrorOutput('OpenAI', response.error, context, extra);
  const messages = response.items.filter((item) => item.type === 'message');
  const parts = messages.flatMap((item) => item.content);
  const text = context.redactor.exact(parts.map((part) => (part.type === 'output_text' ? part.text : '')).join('')).trim();
  const refusal = parts.map((part) => (part.type === 'refusal' ? part.refusal : '')).join('').trim();
  const callIds = new Map<string, string>();
  const reasoningOf = () => {
    const reasoning = toReasoningParts(response.items, callIds, context.redactor);
    return reasoning.length === 0 ? {} : { reasoning };
  };
  if (refusal !== '') return { type: 'refusal', reason: context.redactor.exact(refusal), ...extra, ...reasoningOf() };
  if (functionCalls.length > 0) {
    const calls: HarnessToolCall[] = [];
    for (const item of functionCalls) {
      const read = readToolCall(
        { ...(item.call_id == null ? {} : { id: item.call_id }), ...(item.name == null ? {} : { name: item.name }), arguments: item.arguments },
        context.redactor,
      );
      if (!read.ok) return invalidOutput('schema_mismatch', read.reason, context, extra);
      calls.push(read.call);
      if (read.call.id === item.call_id) callIds.set(item.call_id, read.call.id);
    }
    return { type: 'tool_request', calls, ...(text === '' ? {} : { text }), ...extra, ...reasoningOf() };
  }
  if (finishReason === 'content_filter') {
    return { type: 'refusal', reason: text === '' ? "The provider's content filter stopped the answer." : text, ...extra, ...reasoningOf() };
  }
  if (text !== '') return { type: 'final_answer', text, ...extra, ...reasoningOf() };
  if (!response.hasOutput) return invalidOutput('missing_message', 'The response held no output items.', context, extra);
  if (finishReason === 'length') {
    return invalidOutput('empty_response', 'The model ran out of output tokens before answering.', context, { ...extra, retryable: false });
  }
  return invalidOutput('empty_response', 'The model returned an empty answer.', context, extra);
}
