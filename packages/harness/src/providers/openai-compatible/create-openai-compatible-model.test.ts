import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { HarnessModelInput, HarnessModelStreamPart } from '../../core/types/model.js';
import { createFakeOpenAICompatibleServer, type FakeModelServer, type FakeServerScript } from '../../testing/node/index.js';
import { createModelInput, weatherTool } from '../__fixtures__/create-model-input.js';
import { createOpenAICompatibleModel } from './create-openai-compatible-model.js';
import type { OpenAICompatibleModelOptions } from './openai-compatible-model-options.js';
import { collectStreamParts as collect } from '../__fixtures__/collect-stream-parts.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const fastRetry = { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2 };

async function setup(replies: FakeServerScript[], options: Partial<OpenAICompatibleModelOptions> = {}) {
  server = await createFakeOpenAICompatibleServer({ replies });
  const model = createOpenAICompatibleModel({ baseUrl: server.url, model: 'fake-model', apiKey: 'test-key-abcdef', retry: fastRetry, ...options });
  return { server, model };
}


describe('createOpenAICompatibleModel — nextStep', () => {
  it('returns a final answer with usage and metadata, sending the expected request', async () => {
    const { server, model } = await setup([{ text: 'Sunny.', usage: { inputTokens: 12, outputTokens: 3 } }], {
      temperature: 0.2,
      maxTokens: 300,
      extraBody: { top_p: 0.9 },
      headers: { 'x-team': 'weather' },
    });
    const output = await model.nextStep(createModelInput({ availableTools: [weatherTool] }));
    expect(output).toMatchObject({
      type: 'final_answer',
      text: 'Sunny.',
      usage: { inputTokens: 12, outputTokens: 3 },
      metadata: { provider: 'openai-compatible', model: 'fake-model', finishReason: 'stop', responseId: 'chatcmpl-fake-1', attempts: 1 },
    });
    expect(output.usage?.latencyMs).toBeGreaterThanOrEqual(0);
    const request = server.requests[0]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer test-key-abcdef');
    expect(request.headers['x-team']).toBe('weather');
    expect(request.body).toMatchObject({
      model: 'fake-model',
      temperature: 0.2,
      max_tokens: 300,
      top_p: 0.9,
      tool_choice: 'auto',
      tools: [{ type: 'function', function: { name: 'lookup_weather', parameters: weatherTool.inputSchema } }],
    });
    expect((request.body as { stream?: boolean }).stream).toBeUndefined();
  });

  it('returns tool calls with parsed arguments and keeps the text said alongside', async () => {
    const { model } = await setup([{ text: 'Let me check.', toolCalls: [{ id: 'call_1', name: 'lookup_weather', arguments: { city: 'Oslo' } }] }]);
    const output = await model.nextStep(createModelInput({ availableTools: [weatherTool] }));
    expect(output).toMatchObject({
      type: 'tool_request',
      text: 'Let me check.',
      calls: [{ id: 'call_1', name: 'lookup_weather', input: { city: 'Oslo' } }],
      metadata: { finishReason: 'tool_calls' },
    });
  });

  it('reports malformed tool arguments as a schema mismatch naming the tool', async () => {
    const { model } = await setup([{ toolCalls: [{ name: 'lookup_weather', arguments: '{"city":' }] }]);
    const output = await model.nextStep(createModelInput());
    expect(output).toMatchObject({ type: 'invalid', kind: 'schema_mismatch' });
    expect(output.type === 'invalid' && output.reason).toContain('"lookup_weather"');
  });

  it('maps message.refusal and a content-filter stop to a refusal', async () => {
    const { model } = await setup([{ refusal: 'I cannot help with that.' }, { text: '', finishReason: 'content_filter' }]);
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'refusal', reason: 'I cannot help with that.' });
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'refusal', metadata: { finishReason: 'content_filter' } });
  });

  it('reports empty answers, and a token-limit stop without text as not retryable', async () => {
    const { model } = await setup([{ text: '   ' }, { finishReason: 'length' }]);
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'invalid', kind: 'empty_response' });
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'invalid', kind: 'empty_response', retryable: false });
  });

  it('reports malformed JSON, a missing message and an unexpected shape', async () => {
    const { model } = await setup([
      { type: 'http', status: 200, body: '{"choices": [ {"message": ', headers: { 'content-type': 'application/json' } },
      { type: 'http', status: 200, body: { id: 'x', choices: [] } },
      { type: 'http', status: 200, body: { choices: 'nope' } },
    ]);
    expect(await model.nextStep(createModelInput())).toMatchObject({
      type: 'invalid',
      kind: 'provider_error',
      retryable: false,
      code: 'invalid_response',
      reason: 'The provider answered with a body that is not valid JSON (content-type application/json).',
    });
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'invalid', kind: 'missing_message' });
    const shape = await model.nextStep(createModelInput());
    expect(shape).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: false, code: 'invalid_response' });
    expect(shape.type === 'invalid' && shape.reason).toContain('choices');
  });

  it('retries a 429 with Retry-After and then answers', async () => {
    const { server, model } = await setup([{ type: 'error', status: 429, retryAfter: 0 }, { text: 'Finally.' }]);
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'final_answer', text: 'Finally.', metadata: { attempts: 2 } });
    expect(server.requests).toHaveLength(2);
  });

  it('reports exhausted 5xx retries as a retryable provider_error, with the status', async () => {
    const errors: FakeServerScript[] = [500, 502, 503].map((status) => ({ type: 'error', status }));
    const { server, model } = await setup(errors);
    expect(await model.nextStep(createModelInput())).toMatchObject({
      type: 'invalid',
      kind: 'provider_error',
      retryable: true,
      httpStatus: 503,
      code: 'provider_unavailable',
      metadata: { attempts: 3 },
    });
    expect(server.requests).toHaveLength(3);
  });

  it('reports a 401 as a non-retryable provider error without retrying', async () => {
    const { server, model } = await setup([{ type: 'error', status: 401, message: 'Invalid API key' }]);
    const output = await model.nextStep(createModelInput());
    expect(output).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: false, httpStatus: 401 });
    expect(output.metadata?.error).toMatchObject({ code: 'HARNESS_ERR_MODEL_HTTP', statusCode: 401 });
    expect(server.requests).toHaveLength(1);
  });

  it('gives up on a server that never answers after its own per-request timeout', async () => {
    const { server, model } = await setup([{ type: 'hang' }], { timeoutMs: 250, retry: { maxRetries: 0 } });
    const output = await model.nextStep(createModelInput());
    expect(output).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: true, code: 'provider_timeout' });
    await server.requests[0]!.closed;
    expect(server.requests[0]!.abortedByClient()).toBe(true);
  });

  it('reports a missing env key before sending anything', async () => {
    const { server, model } = await setup([], { apiKey: { env: 'HARNESS_TEST_UNSET_KEY_VARIABLE' } });
    const output = await model.nextStep(createModelInput());
    expect(output).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: false });
    expect(output.type === 'invalid' && output.reason).toContain('HARNESS_TEST_UNSET_KEY_VARIABLE');
    expect(server.requests).toHaveLength(0);
  });

  it('sends no auth header when no key is configured (local servers)', async () => {
    server = await createFakeOpenAICompatibleServer({ replies: [{ text: 'hi' }] });
    const model = createOpenAICompatibleModel({ baseUrl: server.url, model: 'llama' });
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'final_answer' });
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('uses an injected fetch and passes the dispatcher through', async () => {
    const seen: { url: string; init: RequestInit & { dispatcher?: unknown } }[] = [];
    const dispatcher = { name: 'proxy-agent' };
    const model = createOpenAICompatibleModel({
      baseUrl: 'https://llm.example.com/v1/',
      model: 'm',
      dispatcher,
      fetch: async (url, init) => {
        seen.push({ url, init: init! });
        return new Response(JSON.stringify({ choices: [{ message: { content: 'via fetch' }, finish_reason: 'stop' }] }), {
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'final_answer', text: 'via fetch' });
    expect(seen[0]!.url).toBe('https://llm.example.com/v1/chat/completions');
    expect(seen[0]!.init.dispatcher).toBe(dispatcher);
    expect(seen[0]!.init.signal).toBeInstanceOf(AbortSignal);
  });
});

describe('createOpenAICompatibleModel — streamStep', () => {
  it('streams text deltas and ends with one output carrying usage', async () => {
    const { server, model } = await setup([{ text: 'It is sunny in Oslo today.', usage: { inputTokens: 20, outputTokens: 7 }, deltaSize: 5 }]);
    const { deltas, output } = await collect(model.streamStep(createModelInput()));
    expect(deltas).toEqual(['It is', ' sunn', 'y in ', 'Oslo ', 'today', '.']);
    expect(output).toMatchObject({ type: 'final_answer', text: 'It is sunny in Oslo today.', usage: { inputTokens: 20, outputTokens: 7 } });
    expect(server.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('assembles tool-call argument deltas by index', async () => {
    const { model } = await setup([
      {
        toolCalls: [
          { id: 'call_a', name: 'lookup_weather', arguments: { city: 'Oslo', units: 'metric' } },
          { id: 'call_b', name: 'lookup_weather', arguments: { city: 'Bergen' } },
        ],
        deltaSize: 3,
      },
    ]);
    const { output } = await collect(model.streamStep(createModelInput({ availableTools: [weatherTool] })));
    expect(output).toMatchObject({
      type: 'tool_request',
      calls: [
        { id: 'call_a', name: 'lookup_weather', input: { city: 'Oslo', units: 'metric' } },
        { id: 'call_b', name: 'lookup_weather', input: { city: 'Bergen' } },
      ],
    });
  });

  it('reads a recorded OpenRouter stream with interleaved tool calls, comments and cost, split at odd places', async () => {
    const recorded = readFileSync(new URL('./__fixtures__/openrouter-tool-call.chunks.txt', import.meta.url), 'utf8');
    const chunks = [recorded.slice(0, 7), recorded.slice(7, 400), recorded.slice(400, 401), recorded.slice(401, 1500), recorded.slice(1500)];
    const { model } = await setup([{ type: 'sse', chunks }]);
    const { deltas, output } = await collect(model.streamStep(createModelInput({ availableTools: [weatherTool] })));
    expect(deltas).toEqual(['Checking both cities.']);
    expect(output).toMatchObject({
      type: 'tool_request',
      text: 'Checking both cities.',
      calls: [
        { id: 'call_Xk9', name: 'lookup_weather', input: { city: 'Oslo' } },
        { id: 'call_Yz3', name: 'lookup_weather', input: { city: 'Bergen' } },
      ],
      usage: { inputTokens: 212, outputTokens: 58, costUnits: 0.0001693 },
      metadata: { responseId: 'gen-1767225600-AbCdEf', responseModel: 'openai/gpt-5-mini', finishReason: 'tool_calls' },
    });
  });

  it('reports a truncated stream that already streamed text as transient (the loop repeats it once), instead of hanging', async () => {
    const { model } = await setup([{ text: 'This answer will be cut off.', deltaSize: 4, truncateAfterEvents: 4 }]);
    const { deltas, output } = await collect(model.streamStep(createModelInput()));
    expect(deltas.length).toBeGreaterThan(0);
    expect(output).toMatchObject({ type: 'invalid', kind: 'transient', retryable: true, code: 'stream_truncated' });
  });

  it('repeats a stream cut off before any text once, within the step', async () => {
    const { server, model } = await setup([
      { type: 'sse', chunks: ['data: {"id":"c1","choices":[{"index":0,"delta":{"role":"assistant"}}]}\n\n'] },
      { type: 'sse', chunks: ['data: {"id":"c2","choices":[{"index":0,"delta":{"role":"assistant"}}]}\n\n'] },
    ]);
    const { deltas, output } = await collect(model.streamStep(createModelInput()));
    expect(deltas).toEqual([]);
    expect(output).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: true, code: 'stream_truncated', metadata: { attempts: 2 } });
    expect(server.requests).toHaveLength(2);
  });

  it('ends a silent stream after streamIdleTimeoutMs and closes the connection', async () => {
    const { server, model } = await setup([{ text: 'Partial answer', stallAfterEvents: 3 }], { streamIdleTimeoutMs: 50 });
    const { output } = await collect(model.streamStep(createModelInput()));
    expect(output).toMatchObject({ type: 'invalid', kind: 'transient', retryable: true, code: 'provider_timeout' });
    await server.requests[0]!.closed;
    expect(server.requests[0]!.abortedByClient()).toBe(true);
  });

  it('aborts the fetch mid-stream when the signal fires, and the server sees the connection close', async () => {
    const { server, model } = await setup([{ text: 'A long answer that never finishes', stallAfterEvents: 4 }]);
    const controller = new AbortController();
    const parts: HarnessModelStreamPart[] = [];
    for await (const part of model.streamStep(createModelInput({ signal: controller.signal }))) {
      parts.push(part);
      if (part.type === 'text_delta') controller.abort();
    }
    expect(parts.at(-1)).toMatchObject({ type: 'output', output: { type: 'invalid', kind: 'transient', retryable: false } });
    await server.requests[0]!.closed;
    expect(server.requests[0]!.abortedByClient()).toBe(true);
  });

  it('closes the connection when the consumer stops reading', async () => {
    const { server, model } = await setup([{ text: 'Never ending', stallAfterEvents: 4 }]);
    for await (const part of model.streamStep(createModelInput())) {
      if (part.type === 'text_delta') break;
    }
    await server.requests[0]!.closed;
    expect(server.requests[0]!.abortedByClient()).toBe(true);
  });

  it('maps a mid-stream provider error and malformed stream data', async () => {
    const { model } = await setup([
      { text: 'Partial', error: { message: 'Upstream overloaded', code: 502 } },
      { type: 'sse', chunks: ['data: {"choices":[{"delta":{"content":"ok"}}]}\n\n', 'data: {not json}\n\n', 'data: [DONE]\n\n'] },
    ]);
    const first = await collect(model.streamStep(createModelInput()));
    expect(first.output).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: true, httpStatus: 502, code: 'provider_unavailable' });
    const second = await collect(model.streamStep(createModelInput()));
    expect(second.deltas).toEqual(['ok']);
    expect(second.output).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: false, code: 'invalid_response', reason: 'Stream chunk 2 was not valid JSON.' });
  });

  it('accepts a JSON answer from a server that ignores stream: true', async () => {
    const { model } = await setup([{ type: 'http', status: 200, body: { choices: [{ message: { content: 'Not streamed.' }, finish_reason: 'stop' }] } }]);
    const { deltas, output } = await collect(model.streamStep(createModelInput()));
    expect(deltas).toEqual([]);
    expect(output).toMatchObject({ type: 'final_answer', text: 'Not streamed.' });
  });

  it('retries before the stream starts and reports HTTP failures as one output', async () => {
    const { server, model } = await setup([{ type: 'error', status: 503, retryAfter: 0 }, { text: 'Recovered.' }, { type: 'error', status: 400, message: 'bad request' }]);
    expect((await collect(model.streamStep(createModelInput()))).output).toMatchObject({ type: 'final_answer', text: 'Recovered.' });
    expect((await collect(model.streamStep(createModelInput()))).output).toMatchObject({ type: 'invalid', kind: 'provider_error', httpStatus: 400 });
    expect(server.requests).toHaveLength(3);
  });

  it('omits stream_options when includeStreamUsage is false', async () => {
    const { server, model } = await setup([{ text: 'ok' }], { includeStreamUsage: false });
    await collect(model.streamStep(createModelInput()));
    expect((server.requests[0]!.body as Record<string, unknown>).stream_options).toBeUndefined();
  });
});

describe('createOpenAICompatibleModel — options', () => {
  const valid: OpenAICompatibleModelOptions = { baseUrl: 'https://api.example.com/v1', model: 'm' };
  it.each<[Partial<OpenAICompatibleModelOptions> | Record<string, unknown>, string]>([
    [{ baseUrl: 'http://api.example.com/v1' }, 'baseUrl'],
    [{ model: '' }, 'model'],
    [{ temperature: Number.NaN }, 'temperature'],
    [{ maxTokens: 0 }, 'maxTokens'],
    [{ timeoutMs: -1 }, 'timeoutMs'],
    [{ streamIdleTimeoutMs: 0 }, 'streamIdleTimeoutMs'],
    [{ retry: { maxRetries: 1.5 } }, 'retry.maxRetries'],
    [{ extraBody: { messages: [] } }, 'extraBody.messages'],
    [{ apiKey: '' }, 'apiKey'],
    [{ developerRole: 'assistant' }, 'developerRole'],
    [{ headers: { 'x-n': 1 } }, 'headers'],
  ])('refuses %j', (override, field) => {
    let caught: unknown;
    try {
      createOpenAICompatibleModel({ ...valid, ...override } as OpenAICompatibleModelOptions);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(HarnessConfigError);
    expect((caught as HarnessConfigError).field).toBe(field);
  });

  it('satisfies the model adapter contract with streaming', () => {
    const model = createOpenAICompatibleModel(valid);
    const input: HarnessModelInput = createModelInput();
    expect(typeof model.nextStep).toBe('function');
    expect(typeof model.streamStep).toBe('function');
    expect(input.signal.aborted).toBe(false);
  });
});
