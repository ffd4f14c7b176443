/** Usage reported by one model call or tool call. All fields are optional. */
export interface HarnessUsage {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  /** The part of `inputTokens` the provider served from its prompt cache (cache reads). */
  cachedInputTokens?: number | undefined;
  /** The part of `outputTokens` the model spent on reasoning (thinking) rather than the answer. */
  reasoningTokens?: number | undefined;
  /** Provider cost in the product's unit (for OpenRouter: USD; from `pricing` when a model has a price table and the provider reported none). Compared against `limits.budgetLimit`. */
  costUnits?: number | undefined;
  latencyMs?: number | undefined;
}

/** Usage summed over a whole turn, including runs before a resume. */
export interface HarnessAggregateUsage {
  totalInputTokens: number;
  totalOutputTokens: number;
  totalCostUnits: number;
  /** Sum of `cachedInputTokens`; present once any call reported it. */
  totalCachedInputTokens?: number | undefined;
  /** Sum of `reasoningTokens`; present once any call reported it. */
  totalReasoningTokens?: number | undefined;
  /** Sum of measured model and tool latencies, in milliseconds. */
  totalLatencyMs: number;
  modelCalls: number;
  /**
   * Tool calls run, over the whole turn. A call that paused the turn (a permission rule's `ask`,
   * a subagent's approval) and runs again on resume is counted once.
   */
  toolCalls: number;
}
