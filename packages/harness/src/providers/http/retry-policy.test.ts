import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_OPTIONS, parseRetryAfter, retryDelay } from './retry-policy.js';

const now = Date.parse('2026-01-01T00:00:00.000Z');

describe('parseRetryAfter', () => {
  it('reads delta seconds', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(parseRetryAfter(new Headers({ 'retry-after': '0' }), now)).toBe(0);
    expect(parseRetryAfter(new Headers({ 'retry-after': '1.5' }), now)).toBe(1500);
  });
  it('reads an HTTP date relative to now, and a past date as 0', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now)).toBe(3000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }), now)).toBe(0);
  });
  it('prefers retry-after-ms', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
  });
  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
  });
});

describe('retryDelay', () => {
  const options = { ...DEFAULT_RETRY_OPTIONS };
  it('uses Retry-After when given', () => {
    expect(retryDelay(1, 1234, options, () => 0.5)).toBe(1234);
  });
  it('backs off exponentially with half the delay jittered', () => {
    expect(retryDelay(1, undefined, options, () => 0)).toBe(250);
    expect(retryDelay(1, undefined, options, () => 0.999999)).toBe(500);
    expect(retryDelay(2, undefined, options, () => 0)).toBe(500);
    expect(retryDelay(3, undefined, options, () => 0)).toBe(1000);
  });
  it('caps the delay at maxDelayMs', () => {
    expect(retryDelay(20, undefined, options, () => 1)).toBe(options.maxDelayMs);
  });
});
