/** Usage reported by one model call or tool call. All fields are optional. */
export interface HarnessUsage {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  /** Provider cost in the product's unit (for OpenRouter: USD). Compared against `limits.budgetLimit`. */
  costUnits?: number | undefined;
  latencyMs?: number | undefined;
}

/** Usage summed over a whole turn, including runs before a resume. */
export interface HarnessAggregateUsage {
  totalInputTokens: number;
  totalOutputTokens: number;
  totalCostUnits: number;
  /** Sum of measured model and tool latencies, in milliseconds. */
  totalLatencyMs: number;
  modelCalls: number;
  toolCalls: number;
}
