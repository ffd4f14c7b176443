import type { HarnessModelOutput } from '../../../core/types/model.js';
import type { HarnessReasoningPart } from '../../../core/types/reasoning.js';
import type { HarnessToolCall } from '../../../shared/types/tools.js';
import type { HarnessUsage } from '../../../shared/types/usage.js';
import { readCount } from '../../internal/parse-tool-arguments.js';
import { readToolCall } from '../../internal/read-tool-call.js';
import { invalidOutput, outputMetadata, outputUsage, reportedErrorOutput, type OutputContext } from '../../internal/transport-failure-output.js';
import type { ProviderErrorDetails } from '../../http/provider-error-class.js';
import type { AnthropicMessage } from '../anthropic-api-types.js';
import { mapAnthropicStopReason } from '../map-anthropic-stop-reason.js';

/**
 * A content block as assembled: text, a tool use (input as an object or as streamed JSON text),
 * thinking (text and signature), redacted thinking (opaque data), or other.
 */
export type AssembledAnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id?: string; name?: string; input: unknown }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'other' };

/** A Messages API response, from a JSON body or assembled from stream events. */
export interface AssembledAnthropicMessage {
  hasMessage: boolean;
  blocks: AssembledAnthropicBlock[];
  stopReason?: string;
  stopDetails?: unknown;
  usage: Record<string, unknown>;
  responseId?: string;
  responseModel?: string;
  /** An `error` event (`{ type: 'error', error: { type, message } }`), as `readProviderError` reads it. */
  error?: ProviderErrorDetails;
}

/** Reads input (including cache reads and writes; cache reads also as `cachedInputTokens`) and output tokens from a `usage` object. */
export function readAnthropicUsage(usage: Record<string, unknown>): HarnessUsage {
  const parts = [usage.input_tokens, usage.cache_creation_input_tokens, usage.cache_read_input_tokens].map(readCount);
  const outputTokens = readCount(usage.output_tokens);
  const inputTokens = parts.every((part) => part === undefined) ? undefined : parts.reduce<number>((sum, part) => sum + (part ?? 0), 0);
  const cachedInputTokens = parts[2];
  return {
    ...(inputTokens === undefined ? {} : { inputTokens }),
    ...(outputTokens === undefined ? {} : { outputTokens }),
    ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
  };
}

/** Turns a parsed non-streamed response into the assembled shape. */
export function readAnthropicMessage(body: AnthropicMessage): AssembledAnthropicMessage {
  return {
    hasMessage: body.content != null,
    blocks: (body.content ?? []).map((block): AssembledAnthropicBlock => {
      if (block.type === 'text') return { type: 'text', text: block.text ?? '' };
      if (block.type === 'tool_use') {
        return { type: 'tool_use', ...(block.id == null ? {} : { id: block.id }), ...(block.name == null ? {} : { name: block.name }), input: block.input };
      }
      if (block.type === 'thinking') return { type: 'thinking', thinking: block.thinking ?? '', signature: block.signature ?? '' };
      if (block.type === 'redacted_thinking') return { type: 'redacted_thinking', data: block.data ?? '' };
      return { type: 'other' };
    }),
    ...(body.stop_reason == null ? {} : { stopReason: body.stop_reason }),
    ...(body.stop_details == null ? {} : { stopDetails: body.stop_details }),
    usage: typeof body.usage === 'object' && body.usage !== null ? (body.usage as Record<string, unknown>) : {},
    ...(body.id == null ? {} : { responseId: body.id }),
    ...(body.model == null ? {} : { responseModel: body.model }),
  };
}

/**
 * The thinking and redacted-thinking blocks of a response as reasoning parts (provider
 * `anthropic`), in order, so the next step can replay them unchanged. Thinking text is redacted
 * like the answer (a redacted text no longer matches its signature, so the API would refuse its
 * replay rather than see the secret).
 */
export function readAnthropicReasoning(blocks: readonly AssembledAnthropicBlock[], redact: (text: string) => string): HarnessReasoningPart[] {
  const parts: HarnessReasoningPart[] = [];
  for (const block of blocks) {
    if (block.type === 'thinking') parts.push({ provider: 'anthropic', text: redact(block.thinking), signature: redact(block.signature) });
    else if (block.type === 'redacted_thinking') parts.push({ provider: 'anthropic', data: redact(block.data) });
  }
  return parts;
}

/**
 * Classifies a response: an `error` event, then `stop_reason: "refusal"` (→ `refusal`), then
 * `tool_use` blocks (→ `tool_request`, with any text kept), then text (→ `final_answer`); otherwise
 * `empty_response` or `missing_message`. Thinking blocks become `reasoning` of the answer, tool
 * request or refusal.
 */
export function mapAnthropicMessageToOutput(message: AssembledAnthropicMessage, context: OutputContext): HarnessModelOutput {
  const finishReason = mapAnthropicStopReason(message.stopReason);
  const usage = outputUsage(context, readAnthropicUsage(message.usage));
  const metadata = outputMetadata(context, {
    finishReason,
    ...(message.stopReason === undefined ? {} : { rawFinishReason: message.stopReason }),
    ...(message.responseId === undefined ? {} : { responseId: context.redactor.exact(message.responseId) }),
    ...(message.responseModel === undefined ? {} : { responseModel: context.redactor.exact(message.responseModel) }),
  });
  const extra = { usage, metadata };
  const reasoningParts = readAnthropicReasoning(message.blocks, context.redactor.exact);
  const answered = reasoningParts.length === 0 ? extra : { ...extra, reasoning: reasoningParts };
  if (message.error !== undefined) return reportedErrorOutput('Anthropic', message.error, context, extra);
  const text = context.redactor
    .exact(message.blocks.map((block) => (block.type === 'text' ? block.text : '')).join(''))
    .trim();
  if (finishReason === 'refusal') {
    const explanation = (message.stopDetails as { explanation?: unknown } | undefined)?.explanation;
    const reason = typeof explanation === 'string' && explanation.trim() !== '' ? explanation.trim() : text;
    return { type: 'refusal', reason: reason === '' ? 'The model declined to answer.' : context.redactor.exact(reason), ...answered };
  }
  const toolUses = message.blocks.filter((block): block is Extract<AssembledAnthropicBlock, { type: 'tool_use' }> => block.type === 'tool_use');
  if (toolUses.length > 0) {
    const calls: HarnessToolCall[] = [];
    for (const use of toolUses) {
      const read = readToolCall({ ...use, arguments: use.input }, context.redactor);
      if (!read.ok) return invalidOutput('schema_mismatch', read.reason, context, extra);
      calls.push(read.call);
    }
    return { type: 'tool_request', calls, ...(text === '' ? {} : { text }), ...answered };
  }
  if (text !== '') return { type: 'final_answer', text, ...answered };
  if (!message.hasMessage) return invalidOutput('missing_message', 'The response held no message content.', context, extra);
  if (finishReason === 'length') {
    return invalidOutput('empty_response', 'The model ran out of output tokens before answering.', context, { ...extra, retryable: false });
  }
  return invalidOutput('empty_response', 'The model returned an empty answer.', context, extra);
}
