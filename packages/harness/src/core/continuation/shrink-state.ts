import type { HarnessContinuationState } from '../types/continuation.js';
import type { HarnessTranscriptItem } from '../types/transcript.js';

const TRUNCATION_MARK = ' …[truncated]';

/**
 * How much of each long text a shrink step keeps, in characters; `undefined` keeps everything.
 * The codec tries them in order until the sealed continuation fits `maxContinuationBytes`.
 */
export const SHRINK_STEPS: readonly (number | undefined)[] = [undefined, 4096, 1024, 256, 64, 0];

/**
 * A copy of a continuation state whose carried history is shortened to `keep` characters per
 * text: tool outputs, assistant texts, earlier call inputs, error messages, questions and answers
 * of the transcript, and the pause question. What a resume acts on — the turn input, pending
 * calls, approval requests, a backend's request and handle — is never shortened.
 */
export function shrinkState(state: HarnessContinuationState, keep: number | undefined): HarnessContinuationState {
  if (keep === undefined || state.mode !== 'loop') return state;
  return {
    ...state,
    transcript: state.transcript.map((item) => shrinkItem(item, keep)),
    ...(state.question === undefined ? {} : { question: truncate(state.question, keep) }),
  };
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
