// The last line of a run says what it counts: a first run is the whole turn; after a resume the
// counts, tokens and cost are the whole turn's (every run) and the time is this run's.
import { describe, expect, it } from 'vitest';
import type { HarnessResult } from '../../core/types/result.js';
import { summaryLine } from './summary-line.js';

/** A turn paused once: 2 model calls and 1 tool call over both runs, this run took 1 step and 1 call. */
const resumedResult = {
  outcome: 'completed',
  stopReason: 'answer_finalized',
  turnId: 't1',
  transcript: [],
  traceSummary: { iterationCount: 1, toolCallCount: 1, hadContinuation: true, finalEventType: 'answer', traceSinkErrors: 0, elapsedMs: 420 },
  usage: { totalInputTokens: 470, totalOutputTokens: 39, totalCostUnits: 0.00125, totalLatencyMs: 0, modelCalls: 2, toolCalls: 1 },
} as unknown as HarnessResult;

describe('summaryLine', () => {
  it('after a resume counts the whole turn (model calls, tool calls, tokens, cost) and labels the time as this run’s', () => {
    expect(summaryLine(resumedResult, true)).toBe(
      'completed (answer_finalized) · whole turn: 2 model calls · 1 tool call · 470 in / 39 out tokens · cost 0.00125 · this run: 0.4 s',
    );
  });

  it('a first run is the whole turn: steps, tool calls, tokens and time of the run', () => {
    const first = { ...resumedResult, traceSummary: { ...resumedResult.traceSummary, iterationCount: 2 } } as HarnessResult;
    expect(summaryLine(first, false)).toBe('completed (answer_finalized) · 2 steps · 1 tool call · 470 in / 39 out tokens · cost 0.00125 · 0.4 s');
  });
});
