import type { HarnessResult } from '../../core/types/result.js';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The last line of a run: outcome, stop reason, steps, tool calls, tokens, cost, time. */
export function summaryLine(result: HarnessResult): string {
  const { usage, traceSummary } = result;
  const parts = [
    `${result.outcome} (${result.stopReason})`,
    plural(traceSummary.iterationCount, 'step'),
    plural(traceSummary.toolCallCount, 'tool call'),
    `${usage.totalInputTokens} in / ${usage.totalOutputTokens} out tokens`,
    ...(usage.totalCostUnits > 0 ? [`cost ${Number(usage.totalCostUnits.toPrecision(3))}`] : []),
    `${(traceSummary.elapsedMs / 1000).toFixed(1)} s`,
  ];
  return parts.join(' · ');
}
