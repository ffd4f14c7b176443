import { describe, expect, it } from 'vitest';
import { HarnessModelHttpError, type HarnessModelHttpErrorOptions } from './harness-model-http-error.js';
import { httpErrorToExecutionError } from './http-error-to-execution-error.js';
import { httpErrorToInvalidOutput } from './http-error-to-invalid-output.js';

const error = (options: HarnessModelHttpErrorOptions) => new HarnessModelHttpError('failed', options);

describe('httpErrorToInvalidOutput', () => {
  it.each<[HarnessModelHttpErrorOptions, Record<string, unknown>]>([
    [{ failure: 'http_status', statusCode: 503, isRetryable: true }, { kind: 'provider_error', retryable: true, httpStatus: 503, code: 'provider_unavailable' }],
    [{ failure: 'http_status', statusCode: 401, isRetryable: false }, { kind: 'provider_error', retryable: false, httpStatus: 401, code: 'authentication_failed' }],
    [
      { failure: 'http_status', statusCode: 429, isRetryable: false, providerCode: 'insufficient_quota' },
      { kind: 'provider_error', retryable: false, httpStatus: 429, code: 'quota_exceeded', providerCode: 'insufficient_quota' },
    ],
    [{ failure: 'timeout', isRetryable: true }, { kind: 'provider_error', retryable: true, code: 'provider_timeout' }],
    [{ failure: 'network', isRetryable: true }, { kind: 'provider_error', retryable: true, code: 'network_error' }],
    [{ failure: 'aborted', isRetryable: false }, { kind: 'transient', retryable: false, code: 'cancelled' }],
    [{ failure: 'response_too_large', statusCode: 200, isRetryable: false }, { kind: 'provider_error', retryable: false }],
  ])('maps %j', (options, expected) => {
    const output = httpErrorToInvalidOutput(error(options), { usage: { latencyMs: 5 }, metadata: { provider: 'p' } });
    expect(output).toMatchObject({ type: 'invalid', reason: 'failed', usage: { latencyMs: 5 }, ...expected });
    expect(output.metadata).toMatchObject({ provider: 'p', error: { code: 'HARNESS_ERR_MODEL_HTTP', failure: options.failure } });
  });
});

describe('httpErrorToExecutionError', () => {
  it.each<[HarnessModelHttpErrorOptions, Record<string, unknown>]>([
    [
      { failure: 'http_status', statusCode: 502, isRetryable: true, providerCode: '502' },
      { code: 'backend_execution_error', retryable: true, metadata: { httpStatus: 502, providerCode: '502', errorCode: 'provider_unavailable' } },
    ],
    [{ failure: 'http_status', statusCode: 403, isRetryable: false }, { code: 'backend_execution_error', retryable: false, metadata: { httpStatus: 403 } }],
    [{ failure: 'timeout', isRetryable: true }, { code: 'timeout', retryable: true }],
    [{ failure: 'network', isRetryable: true }, { code: 'backend_execution_error', retryable: true }],
    [{ failure: 'response_too_large', isRetryable: false }, { code: 'invalid_backend_output', retryable: false }],
  ])('maps %j', (options, expected) => {
    expect(httpErrorToExecutionError(error(options))).toMatchObject({ message: 'failed', ...expected });
  });
});
