import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { loopbackServers } from '../__fixtures__/loopback-servers.js';
import { createHarness } from '../core/create-harness.js';
import type { HarnessModelAdapter } from '../core/types/model.js';
import type { HarnessResult } from '../core/types/result.js';
import { createTurnInput } from '../testing/create-turn-input.js';
import { createFakeAnthropicServer, createFakeOpenAIResponsesServer, type FakeModelServer, type FakeServerScript } from '../testing/node/index.js';
import { createAnthropicModel } from './anthropic/create-anthropic-model.js';
import { createGeminiModel } from './gemini/create-gemini-model.js';
import type { HttpProviderOptions } from './http/http-provider-options.js';
import type { RetryEvent } from './http/retry-policy.js';
import { createOllamaModel } from './ollama/create-ollama-model.js';
import { createOpenAICompatibleModel } from './openai-compatible/create-openai-compatible-model.js';
import { createOpenAIResponsesModel } from './openai-responses/create-openai-responses-model.js';

const KEY = 'sk-provider-errors-0123456789';
const servers = loopbackServers();
// The default budget (maxRetries 2: at most 3 requests per step), without the default waits.
const fast = { apiKey: KEY, retry: { initialDelayMs: 1, maxDelayMs: 2 } } satisfies HttpProviderOptions;

type Protocol = 'chat' | 'responses' | 'anthropic' | 'gemini' | 'ollama';
const models: Record<Protocol, (baseUrl: string, options?: HttpProviderOptions) => HarnessModelAdapter> = {
  chat: (baseUrl, options) => createOpenAICompatibleModel({ ...fast, ...options, baseUrl, model: 'gpt-4o' }),
  responses: (baseUrl, options) => createOpenAIResponsesModel({ ...fast, ...options, baseUrl, model: 'gpt-5-mini' }),
  anthropic: (baseUrl, options) => createAnthropicModel({ ...fast, ...options, baseUrl, model: 'claude-sonnet-4-5', maxTokens: 1024 }),
  gemini: (baseUrl, options) => createGeminiModel({ ...fast, ...options, baseUrl, model: 'gemini-2.5-flash' }),
  ollama: (baseUrl, options) => createOllamaModel({ ...fast, ...options, baseUrl, model: 'qwen3:8b' }),
};

interface Reply {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/** A loopback server that gives every request the same answer, and counts them. */
async function answering(reply: Reply | ((count: number) => Reply)) {
  let count = 0;
  const { origin } = await servers.serve((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      count += 1;
      const { status, body, headers } = typeof reply === 'function' ? reply(count) : reply;
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(body);
    });
  });
  return { origin, requests: () => count };
}

const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({ status, body: JSON.stringify(body), ...(headers === undefined ? {} : { headers }) });
const sse = (...events: [event: string | undefined, data: unknown][]): Reply => ({
  status: 200,
  headers: { 'content-type': 'text/event-stream' },
  body: events.map(([event, data]) => `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`).join(''),
});

async function streamed(model: HarnessModelAdapter, limits?: { maxElapsedMs?: number }): Promise<HarnessResult> {
  const stream = createHarness({ model, ...(limits === undefined ? {} : { limits }) }).streamTurn(createTurnInput());
  for await (const _event of stream) {
    // drain
  }
  return stream.result;
}

function expectNoKey(result: HarnessResult): void {
  expect(JSON.stringify(result)).not.toContain(KEY);
}

describe('one retry budget per step (issue 23 item 6)', () => {
  it.each<[Protocol, number, unknown]>([
    ['chat', 429, { error: { message: 'Rate limit reached for gpt-4o on requests per min (RPM).', type: 'requests', param: null, code: 'rate_limit_exceeded' } }],
    ['responses', 503, { error: { message: 'The server is overloaded or not ready yet.', type: 'server_error', param: null, code: null } }],
    ['anthropic', 529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }],
    ['gemini', 429, { error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } }],
    ['ollama', 503, { error: 'server busy, please try again. maximum pending requests exceeded' }],
  ])('%s: a provider answering %i forever gets exactly 3 requests for the step, and the loop does not ask again', async (protocol, status, body) => {
    const server = await answering(json(status, body));
    const result = await createHarness({ model: models[protocol](server.origin) }).runTurn(createTurnInput());
    expect(server.requests()).toBe(3);
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'provider_error', error: { retryable: true, source: 'model' }, usage: { modelCalls: 1 } });
    expect(result.traceSummary.iterationCount).toBe(1);
    expect(result.transcript).toHaveLength(1);
    expectNoKey(result);
  });

  it('a streamed step has the same budget: maxRetries + 1 requests, here 5', async () => {
    const server = await answering(json(503, { error: { message: 'upstream connect error', type: 'server_error', code: null } }));
    const result = await streamed(models.responses(server.origin, { retry: { maxRetries: 4, initialDelayMs: 1, maxDelayMs: 2 } }));
    expect(server.requests()).toBe(5);
    expect(result).toMatchObject({ stopReason: 'provider_error', error: { code: 'provider_unavailable', retryable: true } });
  });

  it('honours retry-after-ms before Retry-After, and x-should-retry: false', async () => {
    const waits: RetryEvent[] = [];
    const busy = await answering(json(429, { error: { message: 'slow down', code: 'rate_limit_exceeded' } }, { 'retry-after-ms': '3', 'retry-after': '120' }));
    const model = models.chat(busy.origin, { retry: { initialDelayMs: 1, maxDelayMs: 2, onRetry: (event) => waits.push(event) } });
    await createHarness({ model }).runTurn(createTurnInput());
    expect(busy.requests()).toBe(3);
    expect(waits.map((event) => event.delayMs)).toEqual([3, 3]);

    const told = await answering(json(503, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, { 'x-should-retry': 'false' }));
    const result = await createHarness({ model: models.anthropic(told.origin) }).runTurn(createTurnInput());
    expect(told.requests()).toBe(1);
    expect(result).toMatchObject({ stopReason: 'provider_error', error: { code: 'provider_unavailable', retryable: false, providerCode: 'overloaded_error' } });
  });
});

describe('non-retryable provider errors make exactly one request (issue 23 items 1, 6, 12)', () => {
  it.each<[string, Protocol, Reply, { code: string; providerCode?: string; message: string }]>([
    [
      'OpenAI 429 insufficient_quota',
      'chat',
      json(429, { error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } }),
      { code: 'quota_exceeded', providerCode: 'insufficient_quota', message: 'You exceeded your current quota' },
    ],
    [
      'OpenAI 404 model_not_found',
      'chat',
      json(404, { error: { message: 'The model `gpt-9` does not exist or you do not have access to it.', type: 'invalid_request_error', param: null, code: 'model_not_found' } }),
      { code: 'not_found', providerCode: 'model_not_found', message: 'does not exist' },
    ],
    [
      'OpenAI 400 unsupported_value',
      'responses',
      json(400, { error: { message: "Unsupported value: 'temperature' does not support 0.2 with this model.", type: 'invalid_request_error', param: 'temperature', code: 'unsupported_value' } }),
      { code: 'bad_request', providerCode: 'unsupported_value', message: 'Unsupported value' },
    ],
    [
      'Responses stream: a nested error event (as the API sends it)',
      'responses',
      sse(
        ['response.created', { type: 'response.created', sequence_number: 0, response: { id: 'resp_1', object: 'response', status: 'in_progress', output: [] } }],
        ['error', { type: 'error', sequence_number: 1, error: { type: 'insufficient_quota', code: 'insufficient_quota', message: 'You exceeded your current quota, please check your plan and billing details.', param: null } }],
      ),
      { code: 'quota_exceeded', providerCode: 'insufficient_quota', message: 'You exceeded your current quota' },
    ],
    [
      'Responses stream: a top-level error event (as documented)',
      'responses',
      sse(['error', { type: 'error', code: 'invalid_prompt', message: 'Invalid prompt: your prompt was flagged.', param: null, sequence_number: 1 }]),
      { code: 'bad_request', providerCode: 'invalid_prompt', message: 'Invalid prompt' },
    ],
    [
      'Anthropic 404 not_found_error',
      'anthropic',
      json(404, { type: 'error', error: { type: 'not_found_error', message: 'model: claude-x' }, request_id: 'req_011CSHoEeqs5C35K2UUqR7Fy' }),
      { code: 'not_found', providerCode: 'not_found_error', message: 'model: claude-x' },
    ],
    [
      'Anthropic stream: invalid_request_error event',
      'anthropic',
      sse(['error', { type: 'error', error: { type: 'invalid_request_error', message: 'messages: text content blocks must be non-empty' } }]),
      { code: 'bad_request', providerCode: 'invalid_request_error', message: 'text content blocks must be non-empty' },
    ],
    [
      'Gemini 404 NOT_FOUND',
      'gemini',
      json(404, { error: { code: 404, message: 'models/gemini-x is not found for API version v1beta, or is not supported for generateContent.', status: 'NOT_FOUND' } }),
      { code: 'not_found', providerCode: 'NOT_FOUND', message: 'is not found for API version v1beta' },
    ],
    [
      'Groq stream: tool_use_failed error event',
      'chat',
      sse([
        'error',
        {
          error: {
            message: "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.",
            type: 'invalid_request_error',
            code: 'tool_use_failed',
            failed_generation: '<function=lookup>{"q": "x"}</function>',
            status_code: 400,
          },
        },
      ]),
      { code: 'bad_request', providerCode: 'tool_use_failed', message: 'Failed to call a function' },
    ],
    [
      'DeepSeek 402 Insufficient Balance',
      'chat',
      json(402, { error: { message: 'Insufficient Balance', type: 'unknown_error', param: null, code: 'invalid_request_error' } }),
      { code: 'payment_required', providerCode: 'invalid_request_error', message: 'Insufficient Balance' },
    ],
    ['Ollama 404 model not found', 'ollama', json(404, { error: 'model "llama9" not found, try pulling it first' }), { code: 'not_found', message: 'try pulling it first' }],
  ])('%s', async (_name, protocol, reply, expected) => {
    const server = await answering(reply);
    const model = models[protocol](server.origin);
    // A JSON error answers both a plain and a streamed step; an SSE one only a streamed step.
    const isStream = reply.headers?.['content-type'] === 'text/event-stream';
    const results = isStream ? [await streamed(model)] : [await createHarness({ model }).runTurn(createTurnInput()), await streamed(model)];
    expect(server.requests()).toBe(results.length);
    for (const result of results) {
      expect(result).toMatchObject({
        outcome: 'failed',
        stopReason: 'provider_error',
        error: { code: expected.code, retryable: false, source: 'model', ...(expected.providerCode === undefined ? {} : { providerCode: expected.providerCode }) },
      });
      expect(result.error?.message).toContain(expected.message);
      expect(result.transcript).toEqual([
        expect.objectContaining({ type: 'invalid_output', kind: 'provider_error', code: expected.code, ...(expected.providerCode === undefined ? {} : { providerCode: expected.providerCode }) }),
      ]);
      expectNoKey(result);
    }
  });
});

describe('errors reported inside a 200 response share the step budget', () => {
  let fake: FakeModelServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  const start = async (kind: 'responses' | 'anthropic', replies: FakeServerScript[]) => {
    fake = kind === 'responses' ? await createFakeOpenAIResponsesServer({ replies }) : await createFakeAnthropicServer({ replies });
    return fake;
  };

  it('Responses: response.failed with server_error before any output is asked again within the step', async () => {
    const server = await start('responses', [
      {
        type: 'sse',
        chunks: [
          `event: response.failed\ndata: ${JSON.stringify({ type: 'response.failed', sequence_number: 1, response: { id: 'resp_123', object: 'response', status: 'failed', error: { code: 'server_error', message: 'The model failed to generate a response.' }, incomplete_details: null, output: [], usage: null } })}\n\n`,
        ],
      },
      { text: 'Recovered.' },
    ]);
    const result = await streamed(models.responses(server.url));
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Recovered.' }, usage: { modelCalls: 1 } });
    expect(server.requests).toHaveLength(2);
  });

  it('Anthropic: an overloaded_error event before any text is asked again; after text, the turn fails once, retryable', async () => {
    const overloaded = `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })}\n\n`;
    const messageStart = `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], model: 'claude-sonnet-4-5', stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } })}\n\n`;
    const server = await start('anthropic', [{ type: 'sse', chunks: [messageStart, overloaded] }, { text: 'Recovered.' }, { text: 'Half an answer', error: { message: 'Overloaded', code: 'overloaded_error' } }]);
    const model = models.anthropic(server.url);
    expect(await streamed(model)).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Recovered.' } });
    expect(server.requests).toHaveLength(2);
    const failed = await streamed(model);
    expect(failed).toMatchObject({ stopReason: 'provider_error', error: { code: 'provider_unavailable', retryable: true, providerCode: 'overloaded_error' } });
    expect(server.requests).toHaveLength(3);
  });

  it('OpenRouter: a mid-stream error chunk after text ends the turn with the provider code, one request', async () => {
    const server = await answering(
      sse(
        [undefined, { id: 'gen-1', object: 'chat.completion.chunk', created: 1, model: 'openai/gpt-4o', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }] }],
        [
          undefined,
          {
            id: 'gen-1',
            object: 'chat.completion.chunk',
            created: 1,
            model: 'openai/gpt-4o',
            provider: 'openai',
            error: { code: 'server_error', message: 'Provider disconnected unexpectedly' },
            choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
          },
        ],
      ),
    );
    const result = await streamed(models.chat(server.origin));
    expect(server.requests()).toBe(1);
    expect(result).toMatchObject({ stopReason: 'provider_error', error: { code: 'provider_unavailable', retryable: true, providerCode: 'server_error' } });
    expect(result.error?.message).toContain('Provider disconnected unexpectedly');
  });
});

describe('a response that cannot be parsed is not sent again (issue 23 item 4)', () => {
  it('names the stream event that broke by position and type, never by its content', async () => {
    const secretish = 'sk-looks-like-a-key-0123456789abcdef';
    const server = await answering(
      sse(
        [undefined, { id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' } }] }],
        [undefined, { id: 'c1', object: 'chat.completion.chunk', choices: secretish }],
      ),
    );
    const result = await streamed(models.chat(server.origin));
    expect(server.requests()).toBe(1);
    expect(result).toMatchObject({ stopReason: 'provider_error', error: { code: 'invalid_response', retryable: false } });
    expect(result.error?.message).toMatch(/^Stream chunk 2 does not match the chat-completions format: choices: /);
    expect(JSON.stringify(result)).not.toContain(secretish);
  });

  it('a JSON body that is not JSON is one request, naming the content type', async () => {
    const server = await answering({ status: 200, body: '<html><body>Bad gateway</body></html>', headers: { 'content-type': 'text/html' } });
    const result = await createHarness({ model: models.gemini(server.origin) }).runTurn(createTurnInput());
    expect(server.requests()).toBe(1);
    expect(result).toMatchObject({ stopReason: 'provider_error', error: { code: 'invalid_response', retryable: false } });
    expect(result.error?.message).toContain('content-type text/html');
  });
});

describe('failures say what happened and where (issue 23 item 11)', () => {
  it('a missing key ends provider_error / missing_api_key before any request', async () => {
    const server = await answering(json(200, {}));
    const model = createOpenAICompatibleModel({ baseUrl: server.origin, model: 'm', apiKey: { env: 'AA_PROVIDER_ERRORS_UNSET_KEY' }, env: {} });
    const result = await createHarness({ model }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'provider_error', error: { code: 'missing_api_key', retryable: false } });
    expect(server.requests()).toBe(0);
  });

  it('a 401 ends provider_error / authentication_failed, naming the host, in one request', async () => {
    const server = await answering(json(401, { error: { message: `Incorrect API key provided: ${KEY}.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }));
    const result = await createHarness({ model: models.chat(server.origin) }).runTurn(createTurnInput());
    expect(result).toMatchObject({ stopReason: 'provider_error', error: { code: 'authentication_failed', providerCode: 'invalid_api_key', retryable: false } });
    expect(result.error?.message).toContain(`HTTP 401 Unauthorized from ${new URL(server.origin).host}: Incorrect API key provided: [REDACTED]`);
    expect(server.requests()).toBe(1);
    expectNoKey(result);
  });

  it('a refused connection is one step and one attempt, naming the host', async () => {
    const { server, origin } = await servers.serve(() => undefined);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const result = await createHarness({ model: models.ollama(origin, { retry: { initialDelayMs: 60_000 } }) }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'provider_error', error: { code: 'network_error', retryable: false } });
    expect(result.error?.message).toBe(`Could not reach ${new URL(origin).host}: the connection was refused (ECONNREFUSED); is the server running and listening on that port?`);
    // A retry would have waited 30 s or more (initialDelayMs 60 000, half of it fixed).
    expect(result.traceSummary).toMatchObject({ iterationCount: 1 });
    expect(result.traceSummary.elapsedMs).toBeLessThan(30_000);
  });

  it('a port the Fetch standard blocks says so instead of "fetch failed"', async () => {
    const result = await createHarness({ model: models.chat('http://127.0.0.1:6000/v1') }).runTurn(createTurnInput());
    expect(result).toMatchObject({ stopReason: 'provider_error', error: { code: 'network_error', retryable: false } });
    expect(result.error?.message).toContain('fetch refuses this port ("bad port"');
  });

  it('a baseUrl that already ends in /chat/completions gets a hint on the 404', async () => {
    const server = await answering(json(404, { error: { message: 'Not Found', type: 'invalid_request_error', code: null } }));
    const result = await createHarness({ model: models.chat(`${server.origin}/v1/chat/completions`) }).runTurn(createTurnInput());
    expect(result).toMatchObject({ stopReason: 'provider_error', error: { code: 'not_found', retryable: false } });
    expect(result.error?.message).toContain('baseUrl probably already ends in "/chat/completions", which the provider appends');
  });
});
