import type { HarnessModelOutput } from '../../../core/types/model.js';
import type { HarnessToolCall } from '../../../shared/types/tools.js';
import type { HarnessUsage } from '../../../shared/types/usage.js';
import type { ModelFinishReason } from '../../model-finish-reason.js';
import { readProviderError, type ProviderErrorDetails } from '../../http/provider-error-class.js';
import { readCount } from '../../internal/parse-tool-arguments.js';
import { readToolCall } from '../../internal/read-tool-call.js';
import { invalidOutput, outputMetadata, outputUsage, reportedErrorOutput, type OutputContext } from '../../internal/transport-failure-output.js';
import type { HarnessReasoningPart } from '../../../core/types/reasoning.js';
import type { GeminiResponse } from '../gemini-api-types.js';
import { callPartId, GEMINI_PROVIDER, localCallId, TEXT_PART_ID } from './gemini-reasoning.js';

/** A function call as Gemini sent it. */
export interface AssembledGeminiCall {
  id?: string;
  name?: string;
  args: unknown;
  thoughtSignature?: string;
}

/** A Gemini answer, from one JSON body or merged from streamed chunks. */
export interface AssembledGeminiResponse {
  /** Whether any candidate arrived. */
  hasCandidate: boolean;
  /** The answer text (thought parts excluded). */
  text: string;
  /** The text of the thought parts (thought summaries). */
  thoughts: string;
  /** The last thought signature Gemini put on a part other than a function call. */
  textSignature?: string;
  calls: AssembledGeminiCall[];
  finishReason?: string;
  finishMessage?: string;
  /** `promptFeedback.blockReason`: the prompt itself was blocked. */
  blockReason?: string;
  blockReasonMessage?: string;
  usage: HarnessUsage;
  responseId?: string;
  modelVersion?: string;
  /** An error object Gemini sent inside a 200 response (mid-stream), as `readProviderError` reads it. */
  error?: ProviderErrorDetails;
}

/** What one chunk adds to the streamed answer: answer text or thought text. */
export interface GeminiChunkDelta {
  text?: string;
  reasoning?: string;
}

const safetyReasons = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'LANGUAGE', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION']);
const toolCallFailures = new Set(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS']);

/** An empty response, before any chunk arrived. */
export function emptyGeminiResponse(): AssembledGeminiResponse {
  return { hasCandidate: false, text: '', thoughts: '', calls: [], usage: {} };
}

/**
 * Reads usage: `promptTokenCount` (+ tool-use prompt tokens) as input, of which
 * `cachedContentTokenCount` is cached; `candidatesTokenCount` + `thoughtsTokenCount` as output, of
 * which the thoughts are reasoning (Gemini bills thinking as output).
 */
export function readGeminiUsage(usage: NonNullable<GeminiResponse['usageMetadata']>): HarnessUsage {
  const prompt = readCount(usage.promptTokenCount);
  const toolPrompt = readCount(usage.toolUsePromptTokenCount);
  const candidates = readCount(usage.candidatesTokenCount);
  const thoughts = readCount(usage.thoughtsTokenCount);
  const cached = readCount(usage.cachedContentTokenCount);
  const inputTokens = prompt === undefined && toolPrompt === undefined ? undefined : (prompt ?? 0) + (toolPrompt ?? 0);
  const outputTokens = candidates === undefined && thoughts === undefined ? undefined : (candidates ?? 0) + (thoughts ?? 0);
  return {
    ...(inputTokens === undefined ? {} : { inputTokens }),
    ...(outputTokens === undefined ? {} : { outputTokens }),
    ...(cached === undefined ? {} : { cachedInputTokens: cached }),
    ...(thoughts === undefined ? {} : { reasoningTokens: thoughts }),
  };
}

/** Adds a response (or one streamed chunk) to `response`; returns its answer and thought text, if any. */
export function addGeminiChunk(response: AssembledGeminiResponse, chunk: GeminiResponse): GeminiChunkDelta | undefined {
  if (chunk.error != null) {
    response.error = readProviderError(chunk.error);
    return undefined;
  }
  if (chunk.responseId != null) response.responseId = chunk.responseId;
  if (chunk.modelVersion != null) response.modelVersion = chunk.modelVersion;
  if (chunk.usageMetadata != null) response.usage = readGeminiUsage(chunk.usageMetadata);
  if (chunk.promptFeedback?.blockReason != null) {
    response.blockReason = chunk.promptFeedback.blockReason;
    if (chunk.promptFeedback.blockReasonMessage != null) response.blockReasonMessage = chunk.promptFeedback.blockReasonMessage;
  }
  // The harness asks for one candidate; any others are ignored.
  const candidate = chunk.candidates?.[0];
  if (candidate == null) return undefined;
  response.hasCandidate = true;
  if (candidate.finishReason != null) response.finishReason = candidate.finishReason;
  if (candidate.finishMessage != null) response.finishMessage = candidate.finishMessage;
  let text = '';
  let reasoning = '';
  for (const part of candidate.content?.parts ?? []) {
    if (part.functionCall != null) {
      response.calls.push({
        ...(part.functionCall.id == null || part.functionCall.id === '' ? {} : { id: part.functionCall.id }),
        ...(part.functionCall.name == null ? {} : { name: part.functionCall.name }),
        args: part.functionCall.args,
        ...(part.thoughtSignature == null ? {} : { thoughtSignature: part.thoughtSignature }),
      });
      continue;
    }
    if (part.thoughtSignature != null && part.thoughtSignature !== '') response.textSignature = part.thoughtSignature;
    if (part.text != null && part.thought === true) reasoning += part.text;
    else if (part.text != null) text += part.text;
  }
  response.text += text;
  response.thoughts += reasoning;
  if (text === '' && reasoning === '') return undefined;
  return { ...(text === '' ? {} : { text }), ...(reasoning === '' ? {} : { reasoning }) };
}

/** Maps Gemini's `finishReason` to a `ModelFinishReason`. */
export function mapGeminiFinishReason(response: AssembledGeminiResponse): ModelFinishReason {
  if (response.blockReason !== undefined) return 'content_filter';
  const reason = response.finishReason;
  if (reason !== undefined && safetyReasons.has(reason)) return 'content_filter';
  if (response.calls.length > 0) return 'tool_calls';
  if (reason === 'STOP') return 'stop';
  if (reason === 'MAX_TOKENS') return 'length';
  if (reason !== undefined && toolCallFailures.has(reason)) return 'error';
  return 'other';
}

/**
 * Classifies a Gemini answer: an error object, then a safety block of the prompt
 * (`promptFeedback.blockReason`) or of the answer (`SAFETY`, `PROHIBITED_CONTENT` …) as a
 * `refusal` (the turn ends `model_refused`), then a malformed function call (`schema_mismatch`),
 * then function calls (→ `tool_request`), then text; otherwise `empty_response` (not retryable
 * after `MAX_TOKENS`) or `missing_message`. The output's `gemini` reasoning parts hold the thought
 * text, one part per call (`id` `functionCall:<call id>`, with the call's thought signature, if any)
 * and the signature of the text (`id` `text`), so the transcript can send them back.
 */
export function mapGeminiResponseToOutput(response: AssembledGeminiResponse, context: OutputContext): HarnessModelOutput {
  const finishReason = mapGeminiFinishReason(response);
  const rawFinishReason = response.blockReason ?? response.finishReason;
  const usage = outputUsage(context, response.usage);
  const metadata = outputMetadata(context, {
    finishReason,
    ...(rawFinishReason === undefined ? {} : { rawFinishReason }),
    ...(response.responseId === undefined ? {} : { responseId: context.redactor.exact(response.responseId) }),
    ...(response.modelVersion === undefined ? {} : { responseModel: context.redactor.exact(response.modelVersion) }),
  });
  const extra = { usage, metadata };
  const thoughts = context.redactor.exact(response.thoughts).trim();
  const reasoning: HarnessReasoningPart[] = thoughts === '' ? [] : [{ provider: GEMINI_PROVIDER, text: thoughts }];
  const signed = (signature: string | undefined) => (signature === undefined || context.redactor.exact(signature) !== signature ? {} : { signature });
  const withReasoning = () => ({ ...extra, ...(reasoning.length === 0 ? {} : { reasoning }) });
  if (response.error !== undefined) return reportedErrorOutput('Gemini', response.error, context, extra);
  if (response.blockReason !== undefined) {
    const detail = response.blockReasonMessage === undefined ? '' : `: ${context.redactor.exact(response.blockReasonMessage)}`;
    return { type: 'refusal', reason: `Gemini blocked the prompt (${response.blockReason})${detail}.`, ...extra };
  }
  if (finishReason === 'content_filter') {
    return { type: 'refusal', reason: `Gemini stopped the answer for safety (${response.finishReason ?? 'unknown'}).`, ...withReasoning() };
  }
  if (response.finishReason !== undefined && toolCallFailures.has(response.finishReason)) {
    const detail = response.finishMessage === undefined ? '' : ` ${response.finishMessage}`;
    return invalidOutput('schema_mismatch', `Gemini could not make a valid function call (${response.finishReason}).${detail}`, context, extra);
  }
  const text = context.redactor.exact(response.text).trim();
  if (text !== '' && response.textSignature !== undefined) reasoning.push({ provider: GEMINI_PROVIDER, id: TEXT_PART_ID, ...signed(response.textSignature) });
  if (response.calls.length > 0) {
    const calls: HarnessToolCall[] = [];
    for (const raw of response.calls) {
      const read = readToolCall({ ...(raw.id === undefined ? {} : { id: raw.id }), ...(raw.name === undefined ? {} : { name: raw.name }), arguments: raw.args }, context.redactor);
      if (!read.ok) return invalidOutput('schema_mismatch', read.reason, context, extra);
      // An id Gemini did not give (or one that held a secret) is made up here, marked local, and never sent back.
      const call = raw.id !== undefined && read.call.id === raw.id ? read.call : { ...read.call, id: localCallId() };
      calls.push(call);
      reasoning.push({ provider: GEMINI_PROVIDER, id: callPartId(call.id), ...signed(raw.thoughtSignature) });
    }
    return { type: 'tool_request', calls, ...(text === '' ? {} : { text }), ...withReasoning() };
  }
  if (text !== '') return { type: 'final_answer', text, ...withReasoning() };
  if (!response.hasCandidate) return invalidOutput('missing_message', 'The response held no candidate.', context, extra);
  if (finishReason === 'length') {
    return invalidOutput('empty_response', 'The model ran out of output tokens before answering.', context, { ...extra, retryable: false });
  }
  return invalidOutput('empty_response', 'The model returned an empty answer.', context, extra);
}
