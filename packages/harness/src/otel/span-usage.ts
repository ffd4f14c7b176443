import type { HarnessUsage } from '../shared/types/usage.js';
import { GENAI, HARNESS_ATTRIBUTES as HARNESS } from './genai-attributes.js';
import type { OpenTelemetryAttributes } from './open-telemetry-types.js';

/** Token and cost totals of one run, summed over its model steps and history compactions. */
export interface TurnTotals {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  reasoningTokens: number;
  costUnits: number;
  reported: boolean;
}

/** Totals before any usage was reported. */
export function emptyTotals(): TurnTotals {
  return {
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    reasoningTokens: 0,
    costUnits: 0,
    reported: false,
  };
}

/** The turn span's usage attributes: none when no step reported usage. */
export function totalsAttributes(totals: TurnTotals): OpenTelemetryAttributes {
  return totals.reported
    ? {
        [GENAI.inputTokens]: totals.inputTokens,
        [GENAI.outputTokens]: totals.outputTokens,
        [GENAI.cacheReadInputTokens]: totals.cachedInputTokens,
        [HARNESS.reasoningTokens]: totals.reasoningTokens,
        [HARNESS.costUnits]: totals.costUnits,
      }
    : {};
}

/** One step's (or compaction's) usage as span attributes; numbers that are not finite are left out. */
export function usageAttributes(usage: HarnessUsage | undefined): OpenTelemetryAttributes {
  if (usage === undefined) return {};
  return {
    [GENAI.inputTokens]: finite(usage.inputTokens),
    [GENAI.outputTokens]: finite(usage.outputTokens),
    [GENAI.cacheReadInputTokens]: finite(usage.cachedInputTokens),
    [HARNESS.reasoningTokens]: finite(usage.reasoningTokens),
    [HARNESS.costUnits]: finite(usage.costUnits),
  };
}

/** Adds `usage` to the run's totals (and marks them reported). */
export function addUsage(totals: TurnTotals, usage: HarnessUsage | undefined): void {
  if (usage === undefined) return;
  totals.reported = true;
  totals.inputTokens += finite(usage.inputTokens) ?? 0;
  totals.outputTokens += finite(usage.outputTokens) ?? 0;
  totals.cachedInputTokens += finite(usage.cachedInputTokens) ?? 0;
  totals.reasoningTokens += finite(usage.reasoningTokens) ?? 0;
  totals.costUnits += finite(usage.costUnits) ?? 0;
}

function finite(value: number | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
