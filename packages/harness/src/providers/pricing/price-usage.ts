import type { HarnessUsage } from '../../shared/types/usage.js';
import type { ModelPricing } from './model-pricing.js';

/**
 * Adds `costUnits` to a call's usage from a price table. Usage that already carries a cost (the
 * provider reported one) or no token counts at all is returned unchanged. Cached input tokens are
 * priced at `cachedInputPerMillionTokens` and reasoning tokens at `reasoningPerMillionTokens`
 * (each capped at the total it is part of); the rest at the input and output prices.
 * @example
 * ```ts
 * priceUsage({ inputTokens: 1000, outputTokens: 200 }, { inputPerMillionTokens: 0.25, outputPerMillionTokens: 2 });
 * // → { inputTokens: 1000, outputTokens: 200, costUnits: 0.00065 }
 * ```
 */
export function priceUsage(usage: HarnessUsage, pricing: ModelPricing): HarnessUsage {
  if (usage.costUnits !== undefined) return usage;
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) return usage;
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  const cached = Math.min(usage.cachedInputTokens ?? 0, input);
  const reasoning = Math.min(usage.reasoningTokens ?? 0, output);
  const cost =
    (input - cached) * pricing.inputPerMillionTokens +
    cached * (pricing.cachedInputPerMillionTokens ?? pricing.inputPerMillionTokens) +
    (output - reasoning) * pricing.outputPerMillionTokens +
    reasoning * (pricing.reasoningPerMillionTokens ?? pricing.outputPerMillionTokens);
  return { ...usage, costUnits: cost / 1_000_000 };
}
