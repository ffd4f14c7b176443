import { afterEach, describe, expect, it } from 'vitest';
import { createFakeOpenAICompatibleServer } from '../../testing/node/index.js';
import type { FakeModelServer, FakeServerScript } from '../../testing/node/index.js';
import { HarnessModelHttpError } from './harness-model-http-error.js';
import { readBodyText } from '../../shared/read-body-text.js';
import { createRedactor } from '../../shared/redact-secrets.js';
import type { RetryEvent } from './retry-policy.js';
import { providerErrorDetails, sendWithRetries, type SendRequest } from './send-with-retries.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(...replies: FakeServerScript[]): Promise<FakeModelServer> {
  server = await createFakeOpenAICompatibleServer({ replies });
  return server;
}

function request(url: string, overrides: Partial<SendRequest> = {}): SendRequest {
  return {
    url: `${url}/chat/completions`,
    headers: { authorization: 'Bearer canary-send-key-000111' },
    body: JSON.stringify({ model: 'fake', messages: [] }),
    timeoutMs: 5000,
    retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 30_000 },
    redactor: createRedactor(['canary-send-key-000111']),
    ...overrides,
  };
}

const readText = async (response: Response, scope: { dispose(): void }) => {
  try {
    return (await readBodyText(response, 1_000_000)).text;
  } finally {
    scope.dispose();
  }
};

describe('sendWithRetries', () => {
  it('waits out a 429 with Retry-After and then succeeds', async () => {
    const fake = await start({ type: 'error', status: 429, message: 'slow down', retryAfter: 0 }, { text: 'ok' });
    const events: RetryEvent[] = [];
    const outcome = await sendWithRetries(request(fake.url, { retry: { ...request(fake.url).retry, onRetry: (event) => events.push(event) } }), readText);
    expect(outcome.ok).toBe(true);
    expect(outcome.attempts).toBe(2);
    expect(events).toEqual([{ attempt: 1, delayMs: 0, failure: 'http_status', statusCode: 429 }]);
    expect(fake.requests).toHaveLength(2);
  });

  it('gives up after maxRetries on repeated 500s with a retryable error that keeps the status', async () => {
    const fake = await start(
      { type: 'error', status: 500, message: 'boom' },
      { type: 'error', status: 502, message: 'boom' },
      { type: 'error', status: 503, message: 'still down' },
    );
    const outcome = await sendWithRetries(request(fake.url), readText);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.attempts).toBe(3);
    expect(fake.requests).toHaveLength(3);
    expect(outcome.error.failure).toBe('http_status');
    expect(outcome.error.statusCode).toBe(503);
    expect(outcome.error.isRetryable).toBe(true);
    expect(outcome.error.message).toContain('still down');
    expect(outcome.error.providerCode).toBe('fake_error');
    expect(outcome.error.message).toContain(`from ${new URL(fake.url).host}`);
  });

  it('does not retry a 401', async () => {
    const fake = await start({ type: 'error', status: 401, message: 'bad key' });
    const outcome = await sendWithRetries(request(fake.url), readText);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(fake.requests).toHaveLength(1);
    expect(outcome.error.isRetryable).toBe(false);
    expect(outcome.error.statusCode).toBe(401);
  });

  it('does not wait for a Retry-After longer than maxRetryAfterMs', async () => {
    const fake = await start({ type: 'error', status: 429, retryAfter: 120 });
    const outcome = await sendWithRetries(request(fake.url), readText);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(fake.requests).toHaveLength(1);
    expect(outcome.error.retryAfterMs).toBe(120_000);
    expect(outcome.error.isRetryable).toBe(true);
  });

  it('does not start a wait that would end past the deadline', async () => {
    const fake = await start({ type: 'error', status: 503, retryAfter: 5 });
    const outcome = await sendWithRetries(request(fake.url, { deadlineAt: Date.now() + 1000 }), readText);
    expect(outcome.ok).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });

  it('times out a server that never answers, retries, and closes each connection', async () => {
    const fake = await start({ type: 'hang' }, { type: 'hang' });
    const outcome = await sendWithRetries(request(fake.url, { timeoutMs: 250, retry: { ...request(fake.url).retry, maxRetries: 1 } }), readText);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.failure).toBe('timeout');
    expect(outcome.error.isRetryable).toBe(true);
    expect(outcome.attempts).toBe(2);
    expect(fake.requests.length).toBeGreaterThan(0);
    await Promise.all(fake.requests.map((recorded) => recorded.closed));
    expect(fake.requests.every((recorded) => recorded.abortedByClient())).toBe(true);
  });

  it('does not retry a refused connection, and names the host', async () => {
    const fake = await start();
    const url = fake.url;
    await fake.close();
    server = undefined;
    const outcome = await sendWithRetries(request(url), readText);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.attempts).toBe(1);
    expect(outcome.error.failure).toBe('network');
    expect(outcome.error.isRetryable).toBe(false);
    expect(outcome.error.message).toMatch(/^Could not reach 127\.0\.0\.1:\d+: the connection was refused \(ECONNREFUSED\)/);
  });

  it('says why fetch refuses a blocked port instead of "fetch failed"', async () => {
    const outcome = await sendWithRetries(request('http://127.0.0.1:6000'), readText);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.attempts).toBe(1);
    expect(outcome.error).toMatchObject({ failure: 'network', isRetryable: false });
    expect(outcome.error.message).toContain('Could not reach 127.0.0.1:6000: fetch refuses this port ("bad port"');
  });

  it('honours x-should-retry: false on a 503 and x-should-retry: true on a 400', async () => {
    const fake = await start(
      { type: 'error', status: 503, headers: { 'x-should-retry': 'false' } },
      { type: 'error', status: 409, headers: { 'x-should-retry': 'true' } },
      { type: 'error', status: 409, headers: { 'x-should-retry': 'false' } },
    );
    const first = await sendWithRetries(request(fake.url), readText);
    expect(first).toMatchObject({ ok: false, attempts: 1, error: { statusCode: 503, isRetryable: false } });
    const second = await sendWithRetries(request(fake.url), readText);
    expect(second).toMatchObject({ ok: false, attempts: 2, error: { statusCode: 409, isRetryable: false } });
    expect(fake.requests).toHaveLength(3);
  });

  it('waits retry-after-ms (before Retry-After), and never retries a quota error even when told to', async () => {
    const quota = { error: { message: 'You exceeded your current quota.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } };
    const fake = await start(
      { type: 'http', status: 429, body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }, headers: { 'retry-after-ms': '7', 'retry-after': '60' } },
      { type: 'http', status: 429, body: quota, headers: { 'x-should-retry': 'true' } },
    );
    const events: RetryEvent[] = [];
    const outcome = await sendWithRetries(request(fake.url, { retry: { ...request(fake.url).retry, onRetry: (event) => events.push(event) } }), readText);
    expect(events).toEqual([{ attempt: 1, delayMs: 7, failure: 'http_status', statusCode: 429 }]);
    expect(outcome).toMatchObject({ ok: false, attempts: 2, error: { statusCode: 429, isRetryable: false, providerCode: 'insufficient_quota' } });
    expect(fake.requests).toHaveLength(2);
  });

  it('counts attempts from firstAttempt, so a step spends one budget', async () => {
    const fake = await start({ type: 'error', status: 503 }, { type: 'error', status: 503 });
    const outcome = await sendWithRetries(request(fake.url), readText, 2);
    expect(outcome).toMatchObject({ ok: false, attempts: 3 });
    expect(fake.requests).toHaveLength(2);
  });

  it('hints at a doubled path on a 404', async () => {
    const fake = await start({ type: 'error', status: 404, message: 'Not Found' });
    const outcome = await sendWithRetries(request(`${fake.url}/chat/completions`), readText);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.message).toContain('baseUrl probably already ends in "/chat/completions", which the provider appends');
  });

  it('stops waiting between attempts when the caller aborts', async () => {
    const fake = await start({ type: 'error', status: 503 });
    const controller = new AbortController();
    const outcome = await sendWithRetries(
      request(fake.url, {
        signal: controller.signal,
        retry: { maxRetries: 3, initialDelayMs: 60_000, maxDelayMs: 60_000, maxRetryAfterMs: 1, onRetry: () => controller.abort() },
      }),
      readText,
    );
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.failure).toBe('aborted');
    expect(outcome.error.isRetryable).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });

  it('never lets the key into the error, even when the server echoes it', async () => {
    const fake = await start((recorded) => ({ type: 'http', status: 401, body: { error: { message: `Invalid key ${recorded.headers.authorization}` } } }));
    const outcome = await sendWithRetries(request(fake.url), readText);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    const serialised = JSON.stringify({ error: outcome.error, json: outcome.error.toJSON(), message: outcome.error.message });
    expect(serialised).not.toContain('canary-send-key-000111');
    expect(outcome.error.responseBody).toContain('[REDACTED]');
    expect(HarnessModelHttpError.isInstance(outcome.error)).toBe(true);
    expect(outcome.error.code).toBe('HARNESS_ERR_MODEL_HTTP');
  });
});

describe('providerErrorDetails', () => {
  it('reads OpenAI, Anthropic and vLLM error bodies, and text', () => {
    expect(providerErrorDetails('{"error":{"message":"m1","code":"c1"}}')).toEqual({ message: 'm1', providerCode: 'c1', names: ['c1'] });
    expect(providerErrorDetails('{"type":"error","error":{"type":"overloaded_error","message":"m2"}}')).toEqual({
      message: 'm2',
      providerCode: 'overloaded_error',
      names: ['overloaded_error'],
    });
    expect(providerErrorDetails('{"object":"error","message":"m3","type":"BadRequestError","code":400}')).toEqual({
      message: 'm3',
      providerCode: 'BadRequestError',
      names: ['BadRequestError'],
      status: 400,
    });
    expect(providerErrorDetails('<html>Bad gateway</html>')).toEqual({ message: '<html>Bad gateway</html>', names: [] });
    expect(providerErrorDetails('')).toEqual({ names: [] });
  });
});
