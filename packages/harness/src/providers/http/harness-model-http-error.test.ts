import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../core/errors/harness-error.js';
import { HarnessModelHttpError } from './harness-model-http-error.js';

describe('HarnessModelHttpError', () => {
  it('carries a permanent code, the HTTP details and a plain-JSON form', () => {
    const error = new HarnessModelHttpError('HTTP 429: slow down', {
      failure: 'http_status',
      statusCode: 429,
      isRetryable: true,
      providerCode: 'rate_limit_error',
      retryAfterMs: 2000,
      responseBody: '{"error":"slow down"}',
    });
    expect(error).toBeInstanceOf(HarnessError);
    expect(error.code).toBe('HARNESS_ERR_MODEL_HTTP');
    expect(error.name).toBe('HarnessModelHttpError');
    expect(error.toJSON()).toEqual({
      code: 'HARNESS_ERR_MODEL_HTTP',
      failure: 'http_status',
      message: 'HTTP 429: slow down',
      isRetryable: true,
      statusCode: 429,
      providerCode: 'rate_limit_error',
      retryAfterMs: 2000,
      responseBody: '{"error":"slow down"}',
    });
    expect(JSON.parse(JSON.stringify(error))).toEqual(error.toJSON());
  });

  it('is recognised across copies by isInstance, and by HarnessError.isInstance', () => {
    const error = new HarnessModelHttpError('timeout', { failure: 'timeout', isRetryable: true });
    expect(HarnessModelHttpError.isInstance(error)).toBe(true);
    expect(HarnessError.isInstance(error)).toBe(true);
    expect(HarnessModelHttpError.isInstance(new Error('x'))).toBe(false);
    expect(error.toJSON()).toEqual({ code: 'HARNESS_ERR_MODEL_HTTP', failure: 'timeout', message: 'timeout', isRetryable: true });
  });
});
