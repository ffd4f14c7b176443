import type { HarnessHistoryMessage } from '../../shared/types/turn-input.js';
import type { HarnessTranscriptItem } from '../types/transcript.js';

/** A run of the conversation that compaction keeps or folds away whole. */
export interface CompactionUnit {
  source: 'history' | 'transcript';
  /** First index (in the history or the transcript) of the unit. */
  start: number;
  /** One past its last index. */
  end: number;
  /** A pinned history message: always kept. */
  pinned: boolean;
}

/** One unit per history message. */
export function historyUnits(history: readonly HarnessHistoryMessage[]): CompactionUnit[] {
  return history.map((message, index) => ({ source: 'history', start: index, end: index + 1, pinned: message.pinned === true }));
}

/**
 * The transcript in units: each model step (`assistant_step`) with everything after it up to the
 * next step — its tool results, notes, questions, answers and decisions. A unit never separates a
 * tool call from its result: when a result sits in a later unit than its call (which the loop never
 * writes, but a continuation may carry), every unit from the call's to the result's becomes one.
 */
export function transcriptUnits(transcript: readonly HarnessTranscriptItem[]): CompactionUnit[] {
  const starts: number[] = [];
  transcript.forEach((item, index) => {
    if (index === 0 || item.type === 'assistant_step') starts.push(index);
  });
  // unitOf[i]: the unit holding item i; merged units keep the smallest number.
  const unitOf = new Array<number>(transcript.length);
  starts.forEach((start, unit) => {
    const end = starts[unit + 1] ?? transcript.length;
    for (let index = start; index < end; index += 1) unitOf[index] = unit;
  });
  const callUnit = new Map<string, number>();
  transcript.forEach((item, index) => {
    if (item.type === 'assistant_step') for (const call of item.calls ?? []) if (!callUnit.has(call.id)) callUnit.set(call.id, unitOf[index]!);
  });
  // The earliest unit each unit must join, so that calls and results stay together.
  const joinFrom = starts.map((_, unit) => unit);
  transcript.forEach((item, index) => {
    const callId = item.type === 'tool_result' ? item.result.callId : item.type === 'clarification_answer' || item.type === 'clarification_request' ? item.callId : undefined;
    if (callId === undefined) return;
    const from = callUnit.get(callId);
    const unit = unitOf[index]!;
    if (from !== undefined && from < unit) joinFrom[unit] = Math.min(joinFrom[unit]!, from);
  });
  const units: CompactionUnit[] = [];
  for (let unit = starts.length - 1; unit >= 0; ) {
    // Walk back, widening the unit while any unit inside it must join an earlier one.
    let first = unit;
    for (let inner = unit; inner >= first; inner -= 1) first = Math.min(first, joinFrom[inner]!);
    units.unshift({ source: 'transcript', start: starts[first]!, end: starts[unit + 1] ?? transcript.length, pinned: false });
    unit = first - 1;
  }
  return units;
}
