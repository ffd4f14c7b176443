import type { HarnessToolCall } from '../../shared/types/tools.js';
import type { HarnessTranscriptItem } from '../../core/types/transcript.js';
import type { HarnessReasoningPart } from '../../core/types/reasoning.js';
import { formatToolResult, missingToolResult, type FormattedToolResult } from '../../shared/format-tool-result.js';

/** One tool call with its result, ready to replay. */
export interface ReplayedToolResult extends FormattedToolResult {
  call: HarnessToolCall;
}

/** A provider-neutral conversation step rebuilt from the transcript. */
export type ReplayEntry =
  /** The assistant spoke; `calls` are present for a tool step (with their real arguments). */
  | { role: 'assistant'; text?: string; calls?: HarnessToolCall[]; reasoning?: HarnessReasoningPart[] }
  /** The results of the preceding assistant step's calls, one per call, in call order. */
  | { role: 'tool_results'; results: ReplayedToolResult[] }
  /** Something the user said (a clarification answer). */
  | { role: 'user'; text: string }
  /** A short note from the runtime (approval decisions, an unusable previous reply). */
  | { role: 'note'; text: string };

/**
 * Rebuilds the conversation after the user's message from the transcript, so that every provider
 * replays the same, correct history: each tool step is followed directly by one result per call
 * (found by call id wherever it sits in the transcript; a call without a result gets a
 * `not_executed` error), errors stay marked as errors, and text said alongside calls is kept.
 * `invalid_output` items are never replayed as assistant speech; a schema mismatch becomes a note
 * so the model can correct itself. Clarification answers are user turns, except those a tool call
 * asked for (`callId`), which reach the model once, as that call's result; approval decisions are
 * notes, and so is the summary that stands for compacted items.
 */
export function replayTranscript(transcript: readonly HarnessTranscriptItem[]): ReplayEntry[] {
  const entries: ReplayEntry[] = [];
  const consumed = new Set<number>();
  const lastAssistantText = () => {
    const last = entries.at(-1);
    return last?.role === 'assistant' && last.calls === undefined ? last.text : undefined;
  };
  transcript.forEach((item, index) => {
    if (consumed.has(index)) return;
    switch (item.type) {
      case 'assistant_step': {
        const text = item.text !== undefined && item.text.trim() !== '' ? item.text : undefined;
        const reasoning = item.reasoning !== undefined && item.reasoning.length > 0 ? { reasoning: item.reasoning } : {};
        if (item.outputType === 'tool_request' && item.calls !== undefined && item.calls.length > 0) {
          entries.push({ role: 'assistant', ...(text === undefined ? {} : { text }), calls: item.calls, ...reasoning });
          entries.push({ role: 'tool_results', results: item.calls.map((call) => resultFor(call, transcript, index, consumed)) });
        } else if (text !== undefined) {
          entries.push({ role: 'assistant', text, ...reasoning });
        }
        return;
      }
      case 'clarification_request':
        // A tool call's question is answered through that call's result, not as messages.
        if (item.callId === undefined && lastAssistantText() !== item.question) entries.push({ role: 'assistant', text: item.question });
        return;
      case 'clarification_answer':
        if (item.callId === undefined) entries.push({ role: 'user', text: item.answer });
        return;
      case 'approval_request':
        if (item.request.kind !== 'tool_call' && lastAssistantText() !== item.request.summary) {
          entries.push({ role: 'assistant', text: `Approval needed: ${item.request.summary}` });
        }
        return;
      case 'approval_decision':
        entries.push({ role: 'note', text: `Approval decision for request "${item.requestId}": ${item.decision}.` });
        return;
      case 'invalid_output':
        if (item.kind === 'schema_mismatch') {
          entries.push({ role: 'note', text: `Your previous reply could not be used, so nothing in it was run: ${item.reason} Please try again.` });
        }
        return;
      case 'compaction':
        entries.push({ role: 'note', text: compactionNote(item.summary) });
        return;
      case 'tool_result':
        // A result whose call is not in an earlier tool step has nothing to answer; providers reject it.
        return;
    }
  });
  return entries;
}

/** How the summary of compacted items reads to the model. */
export function compactionNote(summary: string): string {
  return `Summary of the conversation and steps so far (earlier items were compacted to fit the context window):\n${summary}`;
}

function resultFor(
  call: HarnessToolCall,
  transcript: readonly HarnessTranscriptItem[],
  stepIndex: number,
  consumed: Set<number>,
): ReplayedToolResult {
  for (let index = stepIndex + 1; index < transcript.length; index += 1) {
    const item = transcript[index]!;
    if (item.type === 'assistant_step' && item.outputType === 'tool_request') break;
    if (item.type === 'tool_result' && item.result.callId === call.id && !consumed.has(index)) {
      consumed.add(index);
      return { call, ...formatToolResult(item.result) };
    }
  }
  return { call, ...missingToolResult() };
}
