import { describe, expect, it } from 'vitest';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { validateModelPricing } from './model-pricing.js';
import { priceUsage } from './price-usage.js';

const table = { inputPerMillionTokens: 2, outputPerMillionTokens: 8, cachedInputPerMillionTokens: 0.5, reasoningPerMillionTokens: 10 };

describe('priceUsage', () => {
  it('prices plain, cached and reasoning tokens at their own rates', () => {
    expect(priceUsage({ inputTokens: 1_000_000, outputTokens: 1_000_000 }, { inputPerMillionTokens: 2, outputPerMillionTokens: 8 }).costUnits).toBe(10);
    const usage = priceUsage({ inputTokens: 1_000_000, cachedInputTokens: 400_000, outputTokens: 500_000, reasoningTokens: 200_000 }, table);
    // 600k × 2 + 400k × 0.5 + 300k × 8 + 200k × 10 = 1.2 + 0.2 + 2.4 + 2.0
    expect(usage.costUnits).toBeCloseTo(5.8, 12);
  });

  it('defaults cached and reasoning prices to the input and output prices, and caps them at their totals', () => {
    expect(priceUsage({ inputTokens: 10, cachedInputTokens: 10, outputTokens: 10, reasoningTokens: 10 }, { inputPerMillionTokens: 1, outputPerMillionTokens: 1 }).costUnits).toBeCloseTo(20e-6, 15);
    expect(priceUsage({ inputTokens: 10, cachedInputTokens: 99 }, table).costUnits).toBeCloseTo(10 * 0.5e-6, 15);
  });

  it('keeps a reported cost and leaves usage without tokens unpriced', () => {
    expect(priceUsage({ inputTokens: 5, costUnits: 0.42 }, table)).toEqual({ inputTokens: 5, costUnits: 0.42 });
    expect(priceUsage({ latencyMs: 3 }, table)).toEqual({ latencyMs: 3 });
    expect(priceUsage({ outputTokens: 0 }, table)).toEqual({ outputTokens: 0, costUnits: 0 });
  });
});

describe('validateModelPricing', () => {
  it.each([
    [{ inputPerMillionTokens: -1, outputPerMillionTokens: 1 }, 'pricing.inputPerMillionTokens'],
    [{ inputPerMillionTokens: 1 }, 'pricing.outputPerMillionTokens'],
    [{ inputPerMillionTokens: 1, outputPerMillionTokens: Number.POSITIVE_INFINITY }, 'pricing.outputPerMillionTokens'],
    [{ inputPerMillionTokens: 1, outputPerMillionTokens: 1, currency: 'USD' }, 'pricing'],
    ['cheap', 'pricing'],
  ])('refuses %j naming %s', (value, field) => {
    let thrown: unknown;
    try {
      validateModelPricing(value, 'pricing');
    } catch (error) {
      thrown = error;
    }
    expect(HarnessConfigError.isInstance(thrown)).toBe(true);
    expect((thrown as HarnessConfigError).field).toBe(field);
  });

  it('returns a frozen copy of a valid table', () => {
    const pricing = validateModelPricing({ ...table }, 'pricing');
    expect(pricing).toEqual(table);
    expect(Object.isFrozen(pricing)).toBe(true);
  });
});
