import type { HarnessToolCall, HarnessToolError, HarnessToolResult } from '../../../shared/types/tools.js';
import type { HarnessAggregateUsage, HarnessUsage } from '../../../shared/types/usage.js';

/** What the child's usage adds since `before` (what was already reported to the parent). */
export function usageDelta(total: HarnessAggregateUsage, before: HarnessAggregateUsage | undefined): HarnessUsage {
  const delta = (now: number | undefined, then: number | undefined) => Math.max(0, (now ?? 0) - (then ?? 0));
  return {
    inputTokens: delta(total.totalInputTokens, before?.totalInputTokens),
    outputTokens: delta(total.totalOutputTokens, before?.totalOutputTokens),
    costUnits: delta(total.totalCostUnits, before?.totalCostUnits),
    ...(total.totalCachedInputTokens === undefined ? {} : { cachedInputTokens: delta(total.totalCachedInputTokens, before?.totalCachedInputTokens) }),
    ...(total.totalReasoningTokens === undefined ? {} : { reasoningTokens: delta(total.totalReasoningTokens, before?.totalReasoningTokens) }),
  };
}

/** The `task` tool's error result for `call`. */
export function errorResult(call: HarnessToolCall, error: HarnessToolError, usage?: HarnessUsage): HarnessToolResult {
  return { callId: call.id, toolName: call.name, status: 'error', error, ...(usage === undefined ? {} : { usage }) };
}
