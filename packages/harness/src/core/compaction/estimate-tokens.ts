import { contextBlockText } from '../../shared/context-block-text.js';
import type { HarnessToolDefinition } from '../../shared/types/tools.js';
import type { HarnessHistoryMessage, HarnessInstructions, HarnessPreparedContext, HarnessUserMessage } from '../../shared/types/turn-input.js';
import { utf8ByteLength } from '../continuation/utf8-byte-length.js';
import type { HarnessTokenEstimator } from '../types/compaction.js';
import type { HarnessOutputFormat } from '../types/model.js';
import type { HarnessTranscriptItem } from '../types/transcript.js';

/** The default estimate: a token for every 4 UTF-8 bytes, rounded up. */
export function estimateTokensByBytes(text: string): number {
  return Math.ceil(utf8ByteLength(text) / 4);
}

/**
 * The estimator's count for `text`.
 * @throws Error when the estimator throws or returns anything but a finite number of 0 or more.
 */
export function countTokens(estimate: HarnessTokenEstimator, text: string): number {
  const count: unknown = estimate(text);
  if (typeof count !== 'number' || !Number.isFinite(count) || count < 0) {
    throw new Error(`compaction.estimateTokens returned ${typeof count === 'number' ? String(count) : typeof count}; it must return a finite number of 0 or more.`);
  }
  return count;
}

/** What a model step is sent, as far as the estimate counts it. */
export interface EstimatedStepInput {
  instructions: HarnessInstructions;
  context?: HarnessPreparedContext | undefined;
  history?: readonly HarnessHistoryMessage[] | undefined;
  message: HarnessUserMessage;
  transcript: readonly HarnessTranscriptItem[];
  availableTools: readonly HarnessToolDefinition[];
  output?: HarnessOutputFormat | undefined;
}

/**
 * The estimated input tokens of a step: the estimator over the system and developer prompts, the
 * context blocks (and structured context as JSON), every history message's text, the user's
 * message, the transcript as JSON, the tool definitions as JSON and the output schema as JSON.
 * Attachments are not counted (providers bill images by their pixels, not their bytes).
 */
export function estimateStepTokens(input: EstimatedStepInput, estimate: HarnessTokenEstimator): number {
  const count = (text: string | undefined) => (text === undefined || text === '' ? 0 : countTokens(estimate, text));
  let total = count(input.instructions.systemPrompt) + count(input.instructions.developerPrompt);
  for (const block of input.context?.blocks ?? []) total += count(`${block.label}\n${contextBlockText(block)}`);
  if (input.context?.structured !== undefined) total += count(JSON.stringify(input.context.structured));
  total += countHistoryAndTranscript(input.history ?? [], input.transcript, estimate);
  total += count(input.message.text);
  if (input.availableTools.length > 0) total += count(JSON.stringify(input.availableTools));
  if (input.output !== undefined) total += count(JSON.stringify(input.output.jsonSchema));
  return total;
}

/** The estimated tokens of the history's texts and the transcript as JSON. */
export function countHistoryAndTranscript(
  history: readonly HarnessHistoryMessage[],
  transcript: readonly HarnessTranscriptItem[],
  estimate: HarnessTokenEstimator,
): number {
  let total = 0;
  for (const message of history) if (message.text !== '') total += countTokens(estimate, message.text);
  if (transcript.length > 0) total += countTokens(estimate, JSON.stringify(transcript));
  return total;
}

/** UTF-8 bytes of the history and the transcript as JSON: what compaction never grows. */
export function historyAndTranscriptBytes(history: readonly HarnessHistoryMessage[], transcript: readonly HarnessTranscriptItem[]): number {
  return utf8ByteLength(JSON.stringify(history)) + utf8ByteLength(JSON.stringify(transcript));
}
