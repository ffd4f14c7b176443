import type { HarnessContinuationState } from '../types/continuation.js';
import type { HarnessTranscriptItem } from '../types/transcript.js';

const TRUNCATION_MARK = ' …[truncated]';

/**
 * One way of shrinking a continuation's carried history: how much of each long text to keep, in
 * characters (`undefined` keeps everything), and which model reasoning to keep (`'all'`, only the
 * last assistant step's — the one a provider such as Anthropic must get back to continue a tool
 * step — or `'none'`).
 */
export interface ShrinkStep {
  keep: number | undefined;
  reasoning: 'all' | 'last' | 'none';
}

/**
 * The shrink steps the codec tries, in order, until the sealed continuation fits
 * `maxContinuationBytes`. Reasoning goes first (a resumed provider then replays those steps
 * without it), before any text is shortened.
 */
export const SHRINK_STEPS: readonly ShrinkStep[] = [
  { keep: undefined, reasoning: 'all' },
  { keep: undefined, reasoning: 'last' },
  { keep: undefined, reasoning: 'none' },
  { keep: 4096, reasoning: 'none' },
  { keep: 1024, reasoning: 'none' },
  { keep: 256, reasoning: 'none' },
  { keep: 64, reasoning: 'none' },
  { keep: 0, reasoning: 'none' },
];

/**
 * A copy of a continuation state whose carried history is shrunk by `step`: model reasoning
 * dropped, then tool outputs, assistant texts, earlier call inputs, error messages, questions and
 * answers of the transcript, and the pause question shortened to `step.keep` characters per
 * text. What a resume acts on — the turn input (with its history and attachments), pending calls,
 * approval requests, a backend's request and handle — is never shortened.
 */
export function shrinkState(state: HarnessContinuationState, step: ShrinkStep): HarnessContinuationState {
  if (state.mode !== 'loop' || (step.keep === undefined && step.reasoning === 'all')) return state;
  let lastStep = -1;
  if (step.reasoning === 'last') {
    for (let index = state.transcript.length - 1; index >= 0 && lastStep < 0; index -= 1) {
      if (state.transcript[index]!.type === 'assistant_step') lastStep = index;
    }
  }
  const transcript = state.transcript.map((item, index) => {
    const kept = item.type === 'assistant_step' && item.reasoning !== undefined && index !== lastStep ? withoutReasoning(item) : item;
    return step.keep === undefined ? kept : shrinkItem(kept, step.keep);
  });
  return {
    ...state,
    transcript,
    ...(state.question === undefined || step.keep === undefined ? {} : { question: truncate(state.question, step.keep) }),
  };
}

function withoutReasoning(item: Extract<HarnessTranscriptItem, { type: 'assistant_step' }>): HarnessTranscriptItem {
  const { reasoning: _reasoning, ...rest } = item;
  return rest;
}

function shrinkItem(item: HarnessTranscriptItem, keep: number): HarnessTranscriptItem {
  switch (item.type) {
    case 'tool_result':
      return { ...item, result: shrinkToolResult(item.result, keep) };
    case 'assistant_step':
      return {
        ...item,
        ...(item.text === undefined ? {} : { text: truncate(item.text, keep) }),
        ...(item.calls === undefined ? {} : { calls: item.calls.map((call) => ({ ...call, input: shrinkRecord(call.input, keep) })) }),
      };
    case 'invalid_output':
      return { ...item, reason: truncate(item.reason, keep) };
    case 'clarification_request':
      return { ...item, question: truncate(item.question, keep) };
    case 'clarification_answer':
      return { ...item, answer: truncate(item.answer, keep) };
    case 'compaction':
      return { ...item, summary: truncate(item.summary, keep) };
    case 'approval_request': {
      const { details, metadata, ...request } = item.request;
      return {
        ...item,
        request: {
          ...request,
          summary: truncate(request.summary, keep),
          ...(details === undefined ? {} : { details: shrinkRecord(details, keep) }),
          ...(metadata === undefined ? {} : { metadata: shrinkRecord(metadata, keep) }),
        },
      };
    }
    default:
      return item;
  }
}

function shrinkToolResult(
  result: Extract<HarnessTranscriptItem, { type: 'tool_result' }>['result'],
  keep: number,
): Extract<HarnessTranscriptItem, { type: 'tool_result' }>['result'] {
  const { output, structuredOutput, error, metadata, ...rest } = result;
  const shrunk: typeof result = { ...rest };
  const structuredJson = structuredOutput === undefined ? undefined : JSON.stringify(structuredOutput);
  if (output !== undefined) shrunk.output = truncate(output, keep);
  if (structuredOutput !== undefined && structuredJson !== undefined && structuredJson.length <= keep) {
    shrunk.structuredOutput = structuredOutput;
  } else if (structuredJson !== undefined && output === undefined) {
    shrunk.output = truncate(structuredJson, keep);
  }
  if (error !== undefined) {
    const { metadata: errorMetadata, ...errorRest } = error;
    shrunk.error = {
      ...errorRest,
      message: truncate(error.message, keep),
      ...(errorMetadata === undefined ? {} : { metadata: shrinkRecord(errorMetadata, keep) }),
    };
  }
  if (metadata !== undefined) shrunk.metadata = shrinkRecord(metadata, keep);
  return shrunk;
}

/** A record whose JSON is longer than `keep` (and than a short floor) becomes a one-key preview. */
function shrinkRecord(record: Record<string, unknown>, keep: number): Record<string, unknown> {
  const json = JSON.stringify(record);
  if (json.length <= Math.max(keep, 32)) return record;
  return { truncated: truncate(json, keep) };
}

function truncate(text: string, keep: number): string {
  if (text.length <= keep + TRUNCATION_MARK.length) return text;
  const end = keep > 0 && isHighSurrogate(text.charCodeAt(keep - 1)) ? keep - 1 : keep;
  return text.slice(0, end) + TRUNCATION_MARK;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
