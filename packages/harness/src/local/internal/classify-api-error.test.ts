import { describe, expect, it } from 'vitest';
import { innerMessage, isRetryableMessage, isRetryableStatus, statusFromMessage } from './classify-api-error.js';

describe('API error classification', () => {
  it('finds statuses in JSON and in text', () => {
    expect(statusFromMessage('{"type":"error","error":{"message":"bad","code":400}}')).toBe(400);
    expect(statusFromMessage('{"status":429}')).toBe(429);
    expect(statusFromMessage('API Error: 529 overloaded')).toBe(529);
    expect(statusFromMessage('unexpected status 503 Service Unavailable')).toBe(503);
    expect(statusFromMessage('something else 400 times')).toBeUndefined();
  });

  it('retries 408/409/425/429/5xx and transient-sounding messages only', () => {
    expect([400, 401, 403, 404, 408, 409, 425, 429, 500, 529].map(isRetryableStatus)).toEqual([false, false, false, false, true, true, true, true, true, true]);
    expect(isRetryableMessage('Request timed out')).toBe(true);
    expect(isRetryableMessage('ECONNRESET')).toBe(true);
    expect(isRetryableMessage('invalid model')).toBe(false);
    expect(isRetryableMessage('HTTP 401 unauthorized')).toBe(false);
  });

  it('unwraps the innermost message', () => {
    expect(innerMessage('{"type":"error","error":{"message":"fake injected HTTP 400"}}')).toBe('fake injected HTTP 400');
    expect(innerMessage('{"message":"flat"}')).toBe('flat');
    expect(innerMessage('plain text')).toBe('plain text');
  });
});
