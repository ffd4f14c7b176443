import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { createFakeToolRegistry, createTurnInput, memoryTraceSink } from '../../testing/index.js';
import { createFakeAnthropicServer, type FakeModelServer, type FakeServerScript } from '../../testing/node/index.js';
import { createModelInput, weatherTool } from '../__fixtures__/create-model-input.js';
import type { AnthropicModelOptions } from './anthropic-model-options.js';
import { createAnthropicModel } from './create-anthropic-model.js';
import { collectStreamParts as collect } from '../__fixtures__/collect-stream-parts.js';

const CANARY = 'sk-ant-api03-canary-1a2b3c4d5e6f';
let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(replies: FakeServerScript[], options: Partial<AnthropicModelOptions> = {}) {
  server = await createFakeAnthropicServer({ replies });
  const model = createAnthropicModel({
    apiKey: CANARY,
    model: 'claude-test',
    maxTokens: 512,
    baseUrl: server.url,
    retry: { initialDelayMs: 1, maxDelayMs: 2 },
    ...options,
  });
  return { server, model };
}


describe('createAnthropicModel', () => {
  it('answers with text and usage, sending the Messages API headers and body', async () => {
    const { server, model } = await setup([{ text: 'Sunny in Oslo.', usage: { inputTokens: 25, outputTokens: 6 } }], { temperature: 0.3 });
    const output = await model.nextStep(createModelInput({ availableTools: [weatherTool] }));
    expect(output).toMatchObject({
      type: 'final_answer',
      text: 'Sunny in Oslo.',
      usage: { inputTokens: 25, outputTokens: 6 },
      metadata: { provider: 'anthropic', finishReason: 'stop', rawFinishReason: 'end_turn', responseId: 'msg_fake_1' },
    });
    const request = server.requests[0]!;
    expect(request.path).toBe('/v1/messages');
    expect(request.headers['x-api-key']).toBe(CANARY);
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toMatchObject({
      model: 'claude-test',
      max_tokens: 512,
      temperature: 0.3,
      system: 'You are a weather assistant.',
      tools: [{ name: 'lookup_weather', input_schema: weatherTool.inputSchema }],
      tool_choice: { type: 'auto' },
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is the weather in Oslo?' }] }],
    });
  });

  it('runs a tool_use / tool_result round trip under createHarness', async () => {
    const { server, model } = await setup([
      { text: 'Let me check.', toolCalls: [{ id: 'toolu_a', name: 'lookup_weather', arguments: { city: 'Oslo' } }], usage: { inputTokens: 10, outputTokens: 5 } },
      { toolCalls: [{ id: 'toolu_b', name: 'lookup_weather', arguments: { city: 'Atlantis' } }] },
      { text: 'Oslo is sunny; Atlantis is unknown.', usage: { inputTokens: 30, outputTokens: 8 } },
    ]);
    const tools = createFakeToolRegistry({
      lookup_weather: ({ city }) => (city === 'Oslo' ? 'Sunny' : { status: 'error', error: { code: 'not_found', message: 'Unknown city', retryable: true } }),
    });
    const result = await createHarness({ model, tools }).runTurn(createTurnInput({ text: 'Oslo and Atlantis?' }));
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Oslo is sunny; Atlantis is unknown.' } });
    expect(result.usage).toMatchObject({ totalInputTokens: 40, totalOutputTokens: 13 });
    const third = server.requests[2]!.body as { messages: { role: string; content: Record<string, unknown>[] }[] };
    expect(third.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Oslo and Atlantis?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'toolu_a', name: 'lookup_weather', input: { city: 'Oslo' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_a', content: 'Sunny' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_b', name: 'lookup_weather', input: { city: 'Atlantis' } }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_b', content: '{"error":{"code":"not_found","message":"Unknown city","retryable":true}}', is_error: true },
        ],
      },
    ]);
  });

  it('streams text and assembles input_json_delta into tool input', async () => {
    const { server, model } = await setup([
      { text: 'Checking the weather.', toolCalls: [{ id: 'toolu_s', name: 'lookup_weather', arguments: { city: 'Oslo', days: 3 } }], deltaSize: 5 },
    ]);
    const { deltas, output } = await collect(model.streamStep(createModelInput({ availableTools: [weatherTool] })));
    expect(deltas.join('')).toBe('Checking the weather.');
    expect(deltas.length).toBeGreaterThan(1);
    expect(output).toMatchObject({ type: 'tool_request', text: 'Checking the weather.', calls: [{ id: 'toolu_s', name: 'lookup_weather', input: { city: 'Oslo', days: 3 } }] });
    expect((server.requests[0]!.body as { stream?: boolean }).stream).toBe(true);
  });

  it('reads a recorded stream with ping events and cache usage', async () => {
    const recorded = readFileSync(new URL('./__fixtures__/tool-use.chunks.txt', import.meta.url), 'utf8');
    const { model } = await setup([{ type: 'sse', chunks: [recorded.slice(0, 333), recorded.slice(333, 334), recorded.slice(334)] }]);
    const { deltas, output } = await collect(model.streamStep(createModelInput()));
    expect(deltas).toEqual(['Okay, let me check', ' the weather.']);
    expect(output).toMatchObject({
      type: 'tool_request',
      calls: [{ id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'lookup_weather', input: { city: 'San Francisco' } }],
      usage: { inputTokens: 572, outputTokens: 89 },
      metadata: { responseId: 'msg_01XFDUDYJgAACzvnptvVoYEL', responseModel: 'claude-sonnet-4-5', finishReason: 'tool_calls' },
    });
  });

  it('maps stop_reason "refusal" to a refusal, in JSON and in streams, and the turn ends model_refused', async () => {
    const { model } = await setup([{ refusal: 'I will not help with that.' }, { refusal: 'Still no.' }, { refusal: 'No.' }]);
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'refusal', reason: 'I will not help with that.', metadata: { finishReason: 'refusal' } });
    expect((await collect(model.streamStep(createModelInput()))).output).toMatchObject({ type: 'refusal', reason: 'Still no.' });
    expect(await createHarness({ model }).runTurn(createTurnInput())).toMatchObject({ outcome: 'failed', stopReason: 'model_refused' });
  });

  it('retries 529 overloaded, and reports a 401 as a non-retryable provider error', async () => {
    const { server, model } = await setup([{ type: 'error', status: 529, message: 'Overloaded', retryAfter: 0 }, { text: 'ok' }, { type: 'error', status: 401 }]);
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'final_answer', metadata: { attempts: 2 } });
    const denied = await model.nextStep(createModelInput());
    expect(denied).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: false, httpStatus: 401 });
    expect(denied.metadata?.error).toMatchObject({ providerCode: 'authentication_error' });
    expect(server.requests).toHaveLength(3);
  });

  it('reports a mid-stream error event as a retryable provider_error and a truncated stream as transient', async () => {
    const { model } = await setup([
      { text: 'Partial', error: { message: 'Overloaded', code: 'overloaded_error' } },
      { text: 'Cut short', truncateAfterEvents: 4 },
    ]);
    expect((await collect(model.streamStep(createModelInput()))).output).toMatchObject({
      type: 'invalid',
      kind: 'provider_error',
      retryable: true,
      code: 'provider_unavailable',
      providerCode: 'overloaded_error',
    });
    expect((await collect(model.streamStep(createModelInput()))).output).toMatchObject({ type: 'invalid', kind: 'transient', retryable: true, code: 'stream_truncated' });
  });

  it('reports bad tool input JSON, an empty answer and a token-limit stop', async () => {
    const { model } = await setup([
      { type: 'sse', chunks: [
        'event: message_start\ndata: {"type":"message_start","message":{"id":"m","content":[],"usage":{"input_tokens":1}}}\n\n',
        'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"lookup_weather","input":{}}}\n\n',
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\\"city\\": "}}\n\n',
        'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":5}}\n\n',
        'event: message_stop\ndata: {"type":"message_stop"}\n\n',
      ] },
      { text: '' },
      { finishReason: 'max_tokens' },
    ]);
    const bad = (await collect(model.streamStep(createModelInput()))).output;
    expect(bad).toMatchObject({ type: 'invalid', kind: 'schema_mismatch' });
    expect(bad.type === 'invalid' && bad.reason).toContain('"lookup_weather"');
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'invalid', kind: 'empty_response' });
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'invalid', kind: 'empty_response', retryable: false });
  });

  it('never leaks the key through errors, traces or results', async () => {
    const echo: FakeServerScript = (request) => ({ type: 'http', status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: `bad key ${request.headers['x-api-key'] ?? ''}` } } });
    const { model } = await setup([echo]);
    const trace = memoryTraceSink();
    const result = await createHarness({ model, trace }).runTurn(createTurnInput());
    expect(result.outcome).toBe('failed');
    const everything = JSON.stringify({ result, events: trace.events, model });
    expect(everything).not.toContain(CANARY);
    expect(everything).toContain('[REDACTED]');
  });

  it.each<[Record<string, unknown>, string]>([
    [{ apiKey: 42 }, 'apiKey'],
    [{ maxTokens: undefined }, 'maxTokens'],
    [{ maxTokens: 1.5 }, 'maxTokens'],
    [{ model: '' }, 'model'],
    [{ baseUrl: 'http://api.anthropic.example/v1' }, 'baseUrl'],
    [{ extraBody: { system: 'x' } }, 'extraBody.system'],
  ])('refuses invalid options %j', (override, field) => {
    let caught: unknown;
    try {
      createAnthropicModel({ apiKey: 'k-123456', model: 'claude', maxTokens: 100, ...override } as AnthropicModelOptions);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(HarnessConfigError);
    expect((caught as HarnessConfigError).field).toBe(field);
  });
});
