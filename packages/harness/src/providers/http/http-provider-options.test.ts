import { describe, expect, it } from 'vitest';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { DEFAULT_HTTP_PROVIDER_OPTIONS, optionalFiniteNumber, optionalPositiveInteger, requiredString, resolveHttpProviderOptions } from './http-provider-options.js';
import { DEFAULT_RETRY_OPTIONS } from './retry-policy.js';

const local = new URL('http://127.0.0.1:8080/v1');

describe('resolveHttpProviderOptions', () => {
  it('applies the documented defaults', () => {
    const resolved = resolveHttpProviderOptions({}, new URL('https://openrouter.ai/api/v1'));
    expect(resolved).toMatchObject({
      apiKey: { env: 'OPENROUTER_API_KEY' },
      headers: {},
      timeoutMs: 60_000,
      streamIdleTimeoutMs: 30_000,
      maxResponseBytes: 8 * 1024 * 1024,
      maxStreamBytes: 32 * 1024 * 1024,
      retry: { maxRetries: 2, initialDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 30_000 },
    });
    expect(DEFAULT_HTTP_PROVIDER_OPTIONS).toEqual({ timeoutMs: 60_000, streamIdleTimeoutMs: 30_000, maxResponseBytes: 8_388_608, maxStreamBytes: 33_554_432 });
    expect(DEFAULT_RETRY_OPTIONS).toEqual({ maxRetries: 2, initialDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 30_000 });
    expect(Object.isFrozen(DEFAULT_HTTP_PROVIDER_OPTIONS) && Object.isFrozen(DEFAULT_RETRY_OPTIONS)).toBe(true);
  });

  it('keeps explicit values, including retries turned off', () => {
    const onRetry = () => undefined;
    const resolved = resolveHttpProviderOptions({ apiKey: 'k-123456', timeoutMs: 5, retry: { maxRetries: 0, onRetry } }, local);
    expect(resolved).toMatchObject({ apiKey: 'k-123456', timeoutMs: 5, retry: { maxRetries: 0, onRetry } });
  });

  it.each<[Record<string, unknown>, string]>([
    [{ env: 'x' }, 'env'],
    [{ fetch: 'fetch' }, 'fetch'],
    [{ dispatcher: 3 }, 'dispatcher'],
    [{ maxResponseBytes: 0 }, 'maxResponseBytes'],
    [{ maxStreamBytes: -1 }, 'maxStreamBytes'],
    [{ retry: { initialDelayMs: -1 } }, 'retry.initialDelayMs'],
    [{ retry: { maxRetryAfterMs: 1.5 } }, 'retry.maxRetryAfterMs'],
    [{ retry: { onRetry: 'log' } }, 'retry.onRetry'],
  ])('refuses %j', (options, field) => {
    expect(() => resolveHttpProviderOptions(options, local)).toThrow(expect.objectContaining({ field }));
  });
});

describe('option checks', () => {
  it('check single values and name the field', () => {
    expect(optionalPositiveInteger(3, 'n')).toBe(3);
    expect(optionalFiniteNumber(undefined, 't')).toBeUndefined();
    expect(requiredString('m', 'model')).toBe('m');
    expect(() => optionalPositiveInteger(-2, 'n')).toThrow(HarnessConfigError);
    expect(() => optionalFiniteNumber(Infinity, 't')).toThrow(HarnessConfigError);
    expect(() => requiredString(' ', 'model')).toThrow(expect.objectContaining({ field: 'model' }));
  });

  it('checks contextWindow: a positive whole number of tokens', () => {
    expect(resolveHttpProviderOptions({ contextWindow: 128_000 }, local).contextWindow).toBe(128_000);
    expect(resolveHttpProviderOptions({}, local).contextWindow).toBeUndefined();
    for (const bad of [0, -1, 1.5, Number.NaN, '8192']) {
      expect(() => resolveHttpProviderOptions({ contextWindow: bad as number }, local)).toThrow(expect.objectContaining({ field: 'contextWindow' }));
    }
  });
});
