import * as v from '../../shared/validation/index.js';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import { lazySchema } from '../../shared/schemas/lazy-schema.js';

/**
 * A model's price table, in cost units (for example USD) per million tokens. It turns the tokens a
 * provider reports into `usage.costUnits`, so `limits.budgetLimit` works for every provider. A
 * cost the provider reports itself (OpenRouter's `usage.cost`) always wins over the table.
 */
export interface ModelPricing {
  /** Price of a million input tokens that were not served from the cache. */
  inputPerMillionTokens: number;
  /** Price of a million output tokens (reasoning included unless `reasoningPerMillionTokens` is set). */
  outputPerMillionTokens: number;
  /**
   * Price of a million cached input tokens (`usage.cachedInputTokens`).
   * @default inputPerMillionTokens
   */
  cachedInputPerMillionTokens?: number | undefined;
  /**
   * Price of a million reasoning tokens (`usage.reasoningTokens`).
   * @default outputPerMillionTokens
   */
  reasoningPerMillionTokens?: number | undefined;
}

const price = () => v.number().check(v.gte(0), v.lte(1_000_000));

/** Validates a `ModelPricing` object: finite prices from 0 to 1,000,000 per million tokens, no other keys. */
export const modelPricingSchema = /* @__PURE__ */ lazySchema(() =>
  v.strictObject({
    inputPerMillionTokens: price(),
    outputPerMillionTokens: price(),
    cachedInputPerMillionTokens: v.optional(price()),
    reasoningPerMillionTokens: v.optional(price()),
  }),
);

/**
 * Checks an optional `pricing` option and returns a frozen copy.
 * @throws HarnessConfigError naming `field` (e.g. `pricing.inputPerMillionTokens`).
 */
export function validateModelPricing(value: unknown, field: string): Readonly<ModelPricing> | undefined {
  if (value === undefined) return undefined;
  const parsed = modelPricingSchema.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0]?.path ?? [];
    const path = first.length === 0 ? field : `${field}.${first.map(String).join('.')}`;
    throw new HarnessConfigError(`Invalid ${field}: ${formatIssues(parsed.error.issues, field)}.`, { field: path });
  }
  return Object.freeze({ ...parsed.data });
}
