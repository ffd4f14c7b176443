import { afterEach, describe, expect, it } from 'vitest';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { createFakeOllamaServer, type FakeModelServer, type FakeServerScript } from '../../testing/node/index.js';
import { createModelInput, weatherTool } from '../__fixtures__/create-model-input.js';
import { createOllamaModel } from './create-ollama-model.js';
import type { OllamaModelOptions } from './ollama-model-options.js';
import { collectStreamParts as collect } from '../__fixtures__/collect-stream-parts.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const fastRetry = { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2 };

async function setup(replies: FakeServerScript[], options: Partial<OllamaModelOptions> = {}) {
  server = await createFakeOllamaServer({ replies });
  const model = createOllamaModel({ baseUrl: server.url, model: 'qwen3:8b', retry: fastRetry, ...options });
  return { server, model };
}


const history = createModelInput({
  availableTools: [weatherTool],
  transcript: [
    { type: 'assistant_step', iteration: 1, outputType: 'tool_request', text: 'Checking.', calls: [{ id: 'call_1', name: 'lookup_weather', input: { city: 'Oslo' } }] },
    { type: 'tool_result', iteration: 1, result: { callId: 'call_1', toolName: 'lookup_weather', status: 'success', output: 'Sunny, 21 °C' } },
  ],
});

describe('createOllamaModel — nextStep', () => {
  it('sends /api/chat with stream false, keep_alive, options and tools, and maps the answer with usage', async () => {
    const { server, model } = await setup([{ text: 'Sunny.', usage: { inputTokens: 26, outputTokens: 3 } }], {
      keepAlive: '10m',
      temperature: 0.1,
      maxTokens: 200,
      modelOptions: { num_ctx: 8192, temperature: 0.9 },
      think: false,
      extraBody: { format: 'json' },
    });
    const output = await model.nextStep(createModelInput({ availableTools: [weatherTool] }));
    expect(output).toMatchObject({
      type: 'final_answer',
      text: 'Sunny.',
      usage: { inputTokens: 26, outputTokens: 3 },
      metadata: { provider: 'ollama', model: 'qwen3:8b', finishReason: 'stop', rawFinishReason: 'stop', responseModel: 'qwen3:8b', loadDurationMs: 2, attempts: 1 },
    });
    const request = server.requests[0]!;
    expect(request.path).toBe('/api/chat');
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toEqual({
      format: 'json',
      model: 'qwen3:8b',
      messages: [
        { role: 'system', content: 'You are a weather assistant.' },
        { role: 'user', content: 'What is the weather in Oslo?' },
      ],
      tools: [{ type: 'function', function: { name: 'lookup_weather', description: weatherTool.description, parameters: weatherTool.inputSchema } }],
      stream: false,
      keep_alive: '10m',
      options: { num_ctx: 8192, temperature: 0.1, num_predict: 200 },
      think: false,
    });
    expect(output.metadata?.requestBytes).toBe(Buffer.byteLength(JSON.stringify(request.body)));
  });

  it('returns tool calls (object arguments) and replays tool steps with tool_name', async () => {
    const { server, model } = await setup([
      { toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Bergen' } }] },
      { text: 'Done.' },
    ]);
    const output = await model.nextStep(createModelInput({ availableTools: [weatherTool] }));
    expect(output).toMatchObject({ type: 'tool_request', calls: [{ name: 'lookup_weather', input: { city: 'Bergen' } }], metadata: { finishReason: 'tool_calls' } });
    expect(output.type === 'tool_request' && output.calls[0]!.id).toMatch(/^call_/);
    await model.nextStep(history);
    expect((server.requests[1]!.body as { messages: unknown[] }).messages.slice(2)).toEqual([
      { role: 'assistant', content: 'Checking.', tool_calls: [{ id: 'call_1', function: { name: 'lookup_weather', arguments: { city: 'Oslo' } } }] },
      { role: 'tool', content: 'Sunny, 21 °C', tool_name: 'lookup_weather' },
    ]);
  });

  it('keeps the id Ollama gives a call, and refuses string arguments that are not JSON', async () => {
    const { model } = await setup([
      { toolCalls: [{ id: 'call_ollama_7', name: 'lookup_weather', arguments: { city: 'Oslo' } }] },
      { toolCalls: [{ name: 'lookup_weather', arguments: '{"city":' }] },
    ]);
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'tool_request', calls: [{ id: 'call_ollama_7' }] });
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'invalid', kind: 'schema_mismatch' });
  });

  it("maps Ollama's error shapes: 404 model not found, 500 retried, an error body with status 200", async () => {
    const { server, model } = await setup([
      { type: 'error', status: 404, message: 'model "qwen3:8b" not found, try pulling it first' },
      { type: 'error', status: 500, message: 'llama runner process has terminated' },
      { type: 'error', status: 500, message: 'llama runner process has terminated' },
      { type: 'error', status: 500, message: 'llama runner process has terminated' },
      { error: { message: 'unexpected EOF' } },
      { text: 'Recovered.' },
    ]);
    const missing = await model.nextStep(createModelInput());
    expect(missing).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: false, httpStatus: 404 });
    expect(missing.type === 'invalid' && missing.reason).toContain('not found, try pulling it first');
    const crashed = await model.nextStep(createModelInput());
    expect(crashed).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: true, httpStatus: 500, code: 'provider_unavailable' });
    expect(crashed.type === 'invalid' && crashed.reason).toContain('llama runner process has terminated');
    expect(server.requests).toHaveLength(4);
    // An error in a 200 body is asked again within the step's budget.
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'final_answer', text: 'Recovered.', metadata: { attempts: 2 } });
    expect(server.requests).toHaveLength(6);
  });

  it('reports empty answers, a length stop and an unexpected shape', async () => {
    const { model } = await setup([
      { text: '' },
      { finishReason: 'length' },
      { type: 'http', status: 200, body: { message: 'nope' } },
      { type: 'http', status: 200, body: { done: true } },
    ]);
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'invalid', kind: 'empty_response' });
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'invalid', kind: 'empty_response', retryable: false });
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: false, code: 'invalid_response' });
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'invalid', kind: 'missing_message' });
  });

  it('sends a configured key as a bearer token and never shows it', async () => {
    const { server, model } = await setup([{ type: 'error', status: 401, message: 'bad key sk-ollama-secret-123456' }], {
      apiKey: 'sk-ollama-secret-123456',
    });
    const output = await model.nextStep(createModelInput());
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-ollama-secret-123456');
    expect(JSON.stringify(output)).not.toContain('sk-ollama-secret-123456');
  });

  it('prices usage with a pricing table', async () => {
    const { model } = await setup([{ text: 'ok', usage: { inputTokens: 1_000_000, outputTokens: 500_000 } }], {
      pricing: { inputPerMillionTokens: 0.5, outputPerMillionTokens: 2 },
    });
    expect((await model.nextStep(createModelInput())).usage?.costUnits).toBeCloseTo(1.5, 10);
  });

  it('ends input_too_large before any call when the request exceeds maxInputBytes', async () => {
    const { server, model } = await setup([{ text: 'never' }], { maxInputBytes: 200 });
    const output = await model.nextStep(createModelInput({ message: { id: 'm', text: 'x'.repeat(500), receivedAt: '2026-01-01T00:00:00.000Z' } }));
    expect(output).toMatchObject({ type: 'invalid', kind: 'input_too_large', retryable: false, metadata: { maxInputBytes: 200 } });
    expect(output.type === 'invalid' && output.reason).toMatch(/would be \d+ bytes, more than maxInputBytes \(200\)/);
    const streamed = await collect(model.streamStep(createModelInput({ message: { id: 'm', text: 'x'.repeat(500), receivedAt: '2026-01-01T00:00:00.000Z' } })));
    expect(streamed.output).toMatchObject({ type: 'invalid', kind: 'input_too_large' });
    expect(server.requests).toHaveLength(0);
  });
});

describe('createOllamaModel — streamStep (NDJSON)', () => {
  it('streams text deltas and ends with one output carrying usage', async () => {
    const { server, model } = await setup([{ text: 'It is sunny in Oslo today.', usage: { inputTokens: 20, outputTokens: 7 }, deltaSize: 5 }]);
    const { deltas, output } = await collect(model.streamStep(createModelInput()));
    expect(deltas).toEqual(['It is', ' sunn', 'y in ', 'Oslo ', 'today', '.']);
    expect(output).toMatchObject({ type: 'final_answer', text: 'It is sunny in Oslo today.', usage: { inputTokens: 20, outputTokens: 7 } });
    expect(server.requests[0]!.body).toMatchObject({ stream: true });
  });

  it('collects tool calls sent whole in one line', async () => {
    const { model } = await setup([{ text: 'Let me look.', toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }, { name: 'lookup_weather', arguments: { city: 'Bergen' } }] }]);
    const { deltas, output } = await collect(model.streamStep(createModelInput({ availableTools: [weatherTool] })));
    expect(deltas.join('')).toBe('Let me look.');
    expect(output).toMatchObject({ type: 'tool_request', text: 'Let me look.', calls: [{ input: { city: 'Oslo' } }, { input: { city: 'Bergen' } }] });
  });

  it('reports an error line mid-stream as a provider_error, and a cut-off stream or last line as transient', async () => {
    const { model } = await setup([
      { text: 'Halfway', error: { message: 'an error was encountered while running the model' } },
      { text: 'Cut off here', truncateAfterEvents: 2 },
      { type: 'sse', chunks: ['{"message":{"role":"assistant","content":"a"},"done":false}\n{"message":{"con'], headers: { 'content-type': 'application/x-ndjson' } },
    ]);
    const errorLine = await collect(model.streamStep(createModelInput()));
    expect(errorLine.output).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: true });
    expect(errorLine.output.type === 'invalid' && errorLine.output.reason).toContain('an error was encountered');
    expect((await collect(model.streamStep(createModelInput()))).output).toMatchObject({ type: 'invalid', kind: 'transient', reason: 'The stream ended before it was complete.' });
    expect((await collect(model.streamStep(createModelInput()))).output).toMatchObject({
      type: 'invalid',
      kind: 'transient',
      retryable: true,
      code: 'stream_truncated',
      reason: 'Stream line 2 was not valid JSON: the stream was cut off.',
    });
  });

  it('handles CRLF, blank lines, lines split across chunks and a last line without a newline', async () => {
    const lines = [
      '{"model":"m","message":{"role":"assistant","content":"Hel"},"done":false}\r\n\r\n',
      '{"model":"m","message":{"role":"assistant","content":"lo ',
      'wörld"},"done":false}\n{"model":"m","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":4,"eval_count":2}',
    ];
    const { model } = await setup([{ type: 'sse', chunks: lines, headers: { 'content-type': 'application/x-ndjson' } }]);
    const { deltas, output } = await collect(model.streamStep(createModelInput()));
    expect(deltas.join('')).toBe('Hello wörld');
    expect(output).toMatchObject({ type: 'final_answer', text: 'Hello wörld', usage: { inputTokens: 4, outputTokens: 2 } });
  });

  it('fails a stream that grows past maxStreamBytes as response_too_large', async () => {
    const { server, model } = await setup([{ text: 'y'.repeat(4000), deltaSize: 100 }], { maxStreamBytes: 1024 });
    const { output } = await collect(model.streamStep(createModelInput()));
    expect(output).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: false, metadata: { error: { failure: 'response_too_large' } } });
    await server.requests[0]!.closed;
  });

  it('gives up on a stalled stream after streamIdleTimeoutMs and closes the connection', async () => {
    const { server, model } = await setup([{ text: 'This will stall after a few words', stallAfterEvents: 2 }], { streamIdleTimeoutMs: 150, retry: { maxRetries: 0 } });
    const { deltas, output } = await collect(model.streamStep(createModelInput()));
    expect(deltas.length).toBeGreaterThan(0);
    expect(output).toMatchObject({ type: 'invalid', kind: 'transient', retryable: true });
    await server.requests[0]!.closed;
    expect(server.requests[0]!.abortedByClient()).toBe(true);
  });

  it('treats a JSON (non-stream) answer to a stream request like nextStep', async () => {
    const { model } = await setup([{ type: 'http', status: 200, body: { model: 'm', message: { role: 'assistant', content: 'Whole.' }, done: true, done_reason: 'stop' } }]);
    expect((await collect(model.streamStep(createModelInput()))).output).toMatchObject({ type: 'final_answer', text: 'Whole.' });
  });
});

describe('createOllamaModel — options', () => {
  it.each<[string, Partial<OllamaModelOptions>, string]>([
    ['model', { model: '' }, 'model'],
    ['keepAlive', { keepAlive: 'forever' }, 'keepAlive'],
    ['keepAlive NaN', { keepAlive: Number.NaN }, 'keepAlive'],
    ['think', { think: 'max' as never }, 'think'],
    ['extraBody reserved', { extraBody: { keep_alive: 0 } }, 'extraBody.keep_alive'],
    ['modelOptions', { modelOptions: [] as never }, 'modelOptions'],
    ['maxTokens', { maxTokens: 0 }, 'maxTokens'],
    ['maxInputBytes', { maxInputBytes: 17 * 1024 * 1024 }, 'maxInputBytes'],
    ['pricing', { pricing: { inputPerMillionTokens: -1, outputPerMillionTokens: 1 } }, 'pricing.inputPerMillionTokens'],
    ['plain http elsewhere', { baseUrl: 'http://gpu-box.lan:11434' }, 'baseUrl'],
  ])('refuses an invalid %s', (_name, options, field) => {
    let thrown: unknown;
    try {
      createOllamaModel({ model: 'qwen3:8b', ...options });
    } catch (error) {
      thrown = error;
    }
    expect(HarnessConfigError.isInstance(thrown)).toBe(true);
    expect((thrown as HarnessConfigError).field).toBe(field);
  });

  it('accepts durations and numbers for keepAlive, the default URL, and plain http on a LAN host when opted in', async () => {
    for (const keepAlive of ['5m', '1h30m', '-1s', 0, -1, 300]) expect(() => createOllamaModel({ model: 'm', keepAlive })).not.toThrow();
    const seen: string[] = [];
    const fetch = async (url: string) => {
      seen.push(url);
      return new Response(JSON.stringify({ message: { role: 'assistant', content: 'ok' }, done: true }), { headers: { 'content-type': 'application/json' } });
    };
    await createOllamaModel({ model: 'm', fetch }).nextStep(createModelInput());
    await createOllamaModel({ model: 'm', baseUrl: 'http://gpu-box.lan:11434/', allowInsecureHttp: true, fetch }).nextStep(createModelInput());
    expect(seen).toEqual(['http://localhost:11434/api/chat', 'http://gpu-box.lan:11434/api/chat']);
  });
});
