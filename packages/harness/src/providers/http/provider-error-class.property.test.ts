import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../__fixtures__/property-runs.js';
import { classifyProviderError, readProviderError } from './provider-error-class.js';

describe('readProviderError (property)', () => {
  it('reads any JSON value without throwing, and classifies what it read', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const details = readProviderError(value);
        expect(Array.isArray(details.names)).toBe(true);
        const verdict = classifyProviderError({ status: details.status, names: details.names });
        expect(typeof verdict.retryable).toBe('boolean');
      }),
      { numRuns: propertyRuns() },
    );
  });

  it('never retries a quota, authentication, permission or invalid-request code, whatever the status or x-should-retry', () => {
    const neverRetried = fc.constantFrom('insufficient_quota', 'billing_error', 'invalid_api_key', 'authentication_error', 'PERMISSION_DENIED', 'invalid_request_error', 'INVALID_ARGUMENT');
    fc.assert(
      fc.property(neverRetried, fc.option(fc.integer({ min: 100, max: 599 }), { nil: undefined }), fc.option(fc.boolean(), { nil: undefined }), (name, status, shouldRetry) => {
        expect(classifyProviderError({ status, names: [name], shouldRetry }).retryable).toBe(false);
      }),
      { numRuns: propertyRuns() },
    );
    // Found by this property: an invalid-request code under a 404 with x-should-retry: true.
    expect(classifyProviderError({ status: 404, names: ['INVALID_ARGUMENT'], shouldRetry: true })).toMatchObject({ class: 'not_found', retryable: false });
  });
});
