import type { HarnessResult } from '../../core/types/result.js';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * The last line of a run: outcome and stop reason, then what the turn took. For a first run
 * (`resumed` false) the run is the whole turn: steps, tool calls, tokens, cost and time. After a
 * resume, the counts, tokens and cost are the whole turn's, every run so far (labelled `whole
 * turn`, steps counted as model calls), and the time is this run's (labelled `this run`).
 */
export function summaryLine(result: HarnessResult, resumed = false): string {
  const { usage, traceSummary } = result;
  const tokens = `${usage.totalInputTokens} in / ${usage.totalOutputTokens} out tokens`;
  const cost = usage.totalCostUnits > 0 ? [`cost ${Number(usage.totalCostUnits.toPrecision(3))}`] : [];
  const seconds = `${(traceSummary.elapsedMs / 1000).toFixed(1)} s`;
  const outcome = `${result.outcome} (${result.stopReason})`;
  if (resumed) {
    return [
      outcome,
      `whole turn: ${plural(usage.modelCalls, 'model call')}`,
      plural(usage.toolCalls, 'tool call'),
      tokens,
      ...cost,
      `this run: ${seconds}`,
    ].join(' · ');
  }
  return [outcome, plural(traceSummary.iterationCount, 'step'), plural(traceSummary.toolCallCount, 'tool call'), tokens, ...cost, seconds].join(' · ');
}
