import { afterEach, describe, expect, it } from 'vitest';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { HarnessModelInput, HarnessModelOutput } from '../../core/types/model.js';
import { createFakeOpenAIResponsesServer, type FakeModelServer, type FakeServerScript } from '../../testing/node/index.js';
import { createModelInput, weatherTool } from '../__fixtures__/create-model-input.js';
import { createOpenAIResponsesModel } from './create-openai-responses-model.js';
import type { OpenAIResponsesModelOptions } from './openai-responses-model-options.js';
import { collectStreamParts as collect } from '../__fixtures__/collect-stream-parts.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const fastRetry = { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2 };
const key = 'sk-responses-secret-123456';

async function setup(replies: FakeServerScript[], options: Partial<OpenAIResponsesModelOptions> = {}) {
  server = await createFakeOpenAIResponsesServer({ replies });
  const model = createOpenAIResponsesModel({ baseUrl: server.url, apiKey: key, model: 'gpt-5-mini', retry: fastRetry, ...options });
  return { server, model };
}


/** The input of the step after `output` (a tool request) ran its calls. */
function afterTools(output: HarnessModelOutput, base: HarnessModelInput = createModelInput({ availableTools: [weatherTool] })): HarnessModelInput {
  if (output.type !== 'tool_request') throw new Error(`expected a tool request, got ${output.type}`);
  return {
    ...base,
    iteration: 2,
    transcript: [
      {
        type: 'assistant_step',
        iteration: 1,
        outputType: 'tool_request',
        ...(output.text === undefined ? {} : { text: output.text }),
        calls: output.calls,
        ...(output.reasoning === undefined ? {} : { reasoning: output.reasoning }),
      },
      ...output.calls.map((call) => ({
        type: 'tool_result' as const,
        iteration: 1,
        result: { callId: call.id, toolName: call.name, status: 'success' as const, output: 'Sunny, 21 °C' },
      })),
    ],
  };
}

describe('createOpenAIResponsesModel — nextStep', () => {
  it('sends instructions, input items, tools and options to /responses and maps the answer with usage', async () => {
    const { server, model } = await setup([{ text: 'Sunny.', usage: { inputTokens: 120, outputTokens: 30, cachedInputTokens: 100, reasoningTokens: 20 } }], {
      maxTokens: 400,
      reasoningEffort: 'low',
      extraBody: { prompt_cache_key: 'weather' },
    });
    const output = await model.nextStep(
      createModelInput({ availableTools: [weatherTool], instructions: { systemPrompt: 'You are a weather assistant.', developerPrompt: 'Be brief.' } }),
    );
    expect(output).toMatchObject({
      type: 'final_answer',
      text: 'Sunny.',
      usage: { inputTokens: 120, outputTokens: 30, cachedInputTokens: 100, reasoningTokens: 20 },
      metadata: { provider: 'openai', model: 'gpt-5-mini', finishReason: 'stop', rawFinishReason: 'completed', responseId: 'resp_fake_1', attempts: 1 },
    });
    const request = server.requests[0]!;
    expect(request.path).toBe('/v1/responses');
    expect(request.headers.authorization).toBe(`Bearer ${key}`);
    expect(request.body).toEqual({
      prompt_cache_key: 'weather',
      model: 'gpt-5-mini',
      instructions: 'You are a weather assistant.',
      input: [
        { type: 'message', role: 'developer', content: 'Be brief.' },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What is the weather in Oslo?' }] },
      ],
      tools: [{ type: 'function', name: 'lookup_weather', description: weatherTool.description, parameters: weatherTool.inputSchema, strict: false }],
      tool_choice: 'auto',
      store: false,
      include: ['reasoning.encrypted_content'],
      reasoning: { effort: 'low' },
      max_output_tokens: 400,
    });
    expect(output.metadata?.requestBytes).toBe(Buffer.byteLength(JSON.stringify(request.body)));
  });

  it('returns function calls and replays them with function_call_output items', async () => {
    const { server, model } = await setup([
      { text: 'Checking.', toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }, { name: 'lookup_weather', arguments: { city: 'Bergen' } }] },
      { text: 'Both sunny.' },
    ]);
    const first = await model.nextStep(createModelInput({ availableTools: [weatherTool] }));
    expect(first).toMatchObject({
      type: 'tool_request',
      text: 'Checking.',
      calls: [
        { id: 'call_fake_1_1', name: 'lookup_weather', input: { city: 'Oslo' } },
        { id: 'call_fake_1_2', name: 'lookup_weather', input: { city: 'Bergen' } },
      ],
      metadata: { finishReason: 'tool_calls' },
    });
    expect(await model.nextStep(afterTools(first))).toMatchObject({ type: 'final_answer', text: 'Both sunny.' });
    // No reasoning was issued, so the items go back without their output ids.
    expect((server.requests[1]!.body as { input: unknown[] }).input.slice(1)).toEqual([
      { type: 'message', role: 'assistant', content: 'Checking.' },
      { type: 'function_call', call_id: 'call_fake_1_1', name: 'lookup_weather', arguments: '{"city":"Oslo"}' },
      { type: 'function_call', call_id: 'call_fake_1_2', name: 'lookup_weather', arguments: '{"city":"Bergen"}' },
      { type: 'function_call_output', call_id: 'call_fake_1_1', output: 'Sunny, 21 °C' },
      { type: 'function_call_output', call_id: 'call_fake_1_2', output: 'Sunny, 21 °C' },
    ]);
  });

  it('carries reasoning items (with encrypted content) across tool steps, as the API requires', async () => {
    const { server, model } = await setup(
      [
        { reasoning: 'Need the weather tool.', toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }], usage: { inputTokens: 50, outputTokens: 40, reasoningTokens: 32 } },
        { text: 'Sunny in Oslo.' },
      ],
      { reasoningEffort: 'medium' },
    );
    const first = await model.nextStep(createModelInput({ availableTools: [weatherTool] }));
    expect(first).toMatchObject({
      type: 'tool_request',
      usage: { reasoningTokens: 32 },
      reasoning: [{ provider: 'openai-responses', id: 'rs_fake_1', text: 'Need the weather tool.', data: 'gAAAAB_fake_1' }],
    });
    const second = await model.nextStep(afterTools(first));
    expect(second).toMatchObject({ type: 'final_answer', text: 'Sunny in Oslo.' });
    expect((server.requests[1]!.body as { input: unknown[] }).input.slice(1, 3)).toEqual([
      { type: 'reasoning', id: 'rs_fake_1', summary: [{ type: 'summary_text', text: 'Need the weather tool.' }], encrypted_content: 'gAAAAB_fake_1' },
      { type: 'function_call', call_id: 'call_fake_1_1', name: 'lookup_weather', arguments: '{"city":"Oslo"}', id: 'fc_fake_1_1' },
    ]);
  });

  it('replays the reasoning from the transcript with a fresh adapter (another process, after a resume)', async () => {
    const { server } = await setup(
      [
        { reasoning: 'Thinking.', toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }] },
        { text: 'Sunny.' },
      ],
      { reasoningEffort: 'low' },
    );
    const first = await createOpenAIResponsesModel({ baseUrl: server.url, apiKey: key, model: 'gpt-5-mini', reasoningEffort: 'low' }).nextStep(createModelInput());
    const fresh = createOpenAIResponsesModel({ baseUrl: server.url, apiKey: key, model: 'gpt-5-mini', reasoningEffort: 'low' });
    expect(await fresh.nextStep(afterTools(first))).toMatchObject({ type: 'final_answer', text: 'Sunny.' });
    expect((server.requests[1]!.body as { input: { type: string }[] }).input.map((item) => item.type)).toEqual(['message', 'reasoning', 'function_call', 'function_call_output']);
  });

  it('replays a step whose transcript has no reasoning (another provider, or an older continuation) without reasoning or item ids', async () => {
    const { server, model } = await setup([{ reasoning: 'Thinking.', toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }] }, { text: 'Sunny.' }], { reasoningEffort: 'low' });
    const first = await model.nextStep(createModelInput());
    expect(await model.nextStep(afterTools({ ...first, reasoning: undefined }))).toMatchObject({ type: 'final_answer', text: 'Sunny.' });
    expect((server.requests[1]!.body as { input: unknown[] }).input.slice(1)).toEqual([
      { type: 'function_call', call_id: 'call_fake_1_1', name: 'lookup_weather', arguments: '{"city":"Oslo"}' },
      { type: 'function_call_output', call_id: 'call_fake_1_1', output: 'Sunny, 21 °C' },
    ]);
  });

  it('with store: true carries reasoning items by id, without asking for encrypted content', async () => {
    const { server, model } = await setup(
      [{ reasoning: 'Stored thought.', toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }] }, { text: 'Sunny.' }],
      { store: true, reasoningEffort: 'low' },
    );
    const first = await model.nextStep(createModelInput());
    expect(await model.nextStep(afterTools(first))).toMatchObject({ type: 'final_answer' });
    expect(server.requests[0]!.body).toMatchObject({ store: true });
    expect((server.requests[0]!.body as { include?: unknown }).include).toBeUndefined();
    expect((server.requests[1]!.body as { input: unknown[] }).input.slice(1, 3)).toEqual([
      { type: 'reasoning', id: 'rs_fake_1', summary: [{ type: 'summary_text', text: 'Stored thought.' }] },
      { type: 'function_call', call_id: 'call_fake_1_1', name: 'lookup_weather', arguments: '{"city":"Oslo"}', id: 'fc_fake_1_1' },
    ]);
  });

  it('without store or encrypted content never sends reasoning back (the API could not find it)', async () => {
    const { server, model } = await setup([{ reasoning: 'Unstored thought.', toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }] }, { text: 'Sunny.' }], {
      includeEncryptedReasoning: false,
    });
    const first = await model.nextStep(createModelInput());
    expect(first.reasoning).toEqual([{ provider: 'openai-responses', id: 'rs_fake_1', text: 'Unstored thought.', signature: JSON.stringify([{ type: 'function_call', id: 'fc_fake_1_1', callId: 'call_fake_1_1' }]) }]);
    expect(await model.nextStep(afterTools(first))).toMatchObject({ type: 'final_answer', text: 'Sunny.' });
    expect((server.requests[0]!.body as { include?: unknown }).include).toBeUndefined();
    expect((server.requests[1]!.body as { input: { type: string }[] }).input.map((item) => item.type)).toEqual(['message', 'function_call', 'function_call_output']);
  });

  it('maps refusals, content-filter and token-cap stops, failures and unexpected shapes', async () => {
    const { model } = await setup([
      { refusal: 'I cannot help with that.' },
      { finishReason: 'content_filter' },
      { finishReason: 'max_output_tokens', reasoning: 'Long thought.' },
      { error: { message: 'The model crashed.', code: 'server_error' } },
      { error: { message: 'Invalid prompt.', code: 'invalid_prompt' } },
      { type: 'http', status: 200, body: { output: 'nope' } },
      { type: 'http', status: 200, body: { status: 'completed', output: [] } },
      { type: 'http', status: 200, body: 'not json' },
    ], { retry: { ...fastRetry, maxRetries: 0 } });
    const next = () => model.nextStep(createModelInput());
    expect(await next()).toMatchObject({ type: 'refusal', reason: 'I cannot help with that.' });
    expect(await next()).toMatchObject({ type: 'refusal', metadata: { finishReason: 'content_filter' } });
    expect(await next()).toMatchObject({ type: 'invalid', kind: 'empty_response', retryable: false, metadata: { finishReason: 'length', rawFinishReason: 'max_output_tokens' } });
    expect(await next()).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: true, providerCode: 'server_error', reason: expect.stringContaining('The model crashed.') });
    expect(await next()).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: false, code: 'bad_request', providerCode: 'invalid_prompt' });
    expect(await next()).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: false, code: 'invalid_response' });
    expect(await next()).toMatchObject({ type: 'invalid', kind: 'missing_message' });
    expect(await next()).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: false, reason: expect.stringContaining('not valid JSON') });
  });

  it('asks again within the step when a 200 body reports a transient failure, and never for a spent quota', async () => {
    const { server, model } = await setup([
      { error: { message: 'The model crashed.', code: 'server_error' } },
      { text: 'Recovered.' },
      { error: { message: 'You exceeded your current quota.', code: 'insufficient_quota' } },
    ]);
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'final_answer', text: 'Recovered.', metadata: { attempts: 2 } });
    expect(await model.nextStep(createModelInput())).toMatchObject({ kind: 'provider_error', retryable: false, code: 'quota_exceeded', metadata: { attempts: 1 } });
    expect(server.requests).toHaveLength(3);
  });

  it('retries 429 and 5xx, gives up on 400 with the API message, and never shows the key', async () => {
    const { server, model } = await setup([
      { type: 'error', status: 429, message: 'Rate limit reached', retryAfter: 0 },
      { text: 'after retry' },
      { type: 'error', status: 400, message: `Invalid value: key ${key} is not allowed` },
    ]);
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'final_answer', text: 'after retry', metadata: { attempts: 2 } });
    const bad = await model.nextStep(createModelInput());
    expect(bad).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: false, httpStatus: 400 });
    expect(JSON.stringify(bad)).not.toContain(key);
    expect(server.requests).toHaveLength(3);
  });

  it('refuses bad tool-call arguments as schema_mismatch', async () => {
    const { model } = await setup([{ toolCalls: [{ name: 'lookup_weather', arguments: '{"city":' }] }]);
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'invalid', kind: 'schema_mismatch' });
  });

  it('fails before any call when the key variable is missing', async () => {
    const { server, model } = await setup([{ text: 'never' }], { apiKey: { env: 'P2_MISSING_OPENAI_KEY' }, env: {} });
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: false });
    expect(server.requests).toHaveLength(0);
  });
});

describe('createOpenAIResponsesModel — streamStep', () => {
  it('streams response.output_text.delta and ends with usage', async () => {
    const { server, model } = await setup([{ text: 'Streaming works fine.', deltaSize: 6, usage: { inputTokens: 9, outputTokens: 5, cachedInputTokens: 4 } }]);
    const { deltas, output } = await collect(model.streamStep(createModelInput()));
    expect(deltas).toEqual(['Stream', 'ing wo', 'rks fi', 'ne.']);
    expect(output).toMatchObject({ type: 'final_answer', text: 'Streaming works fine.', usage: { inputTokens: 9, outputTokens: 5, cachedInputTokens: 4 } });
    expect(server.requests[0]!.body).toMatchObject({ stream: true });
  });

  it('assembles function-call arguments from deltas and carries streamed reasoning to the next step', async () => {
    const { server, model } = await setup(
      [{ reasoning: 'Use the tool.', text: 'Let me look.', toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Tromsø' } }], deltaSize: 3 }, { text: 'Cold.' }],
      { includeEncryptedReasoning: true },
    );
    const first = await collect(model.streamStep(createModelInput({ availableTools: [weatherTool] })));
    expect(first.deltas.join('')).toBe('Let me look.');
    expect(first.reasoning).toEqual(['Use', ' th', 'e t', 'ool', '.']);
    expect(first.output).toMatchObject({ type: 'tool_request', text: 'Let me look.', calls: [{ id: 'call_fake_1_1', input: { city: 'Tromsø' } }] });
    const second = await collect(model.streamStep(afterTools(first.output)));
    expect(second.output).toMatchObject({ type: 'final_answer', text: 'Cold.' });
    expect((server.requests[1]!.body as { input: unknown[] }).input.slice(1, 4)).toEqual([
      { type: 'reasoning', id: 'rs_fake_1', summary: [{ type: 'summary_text', text: 'Use the tool.' }], encrypted_content: 'gAAAAB_fake_1' },
      { type: 'message', role: 'assistant', content: 'Let me look.', id: 'msg_fake_1' },
      { type: 'function_call', call_id: 'call_fake_1_1', name: 'lookup_weather', arguments: '{"city":"Tromsø"}', id: 'fc_fake_1_1' },
    ]);
  });

  it('maps response.failed, an error event, an incomplete answer and a truncated stream', async () => {
    const { model } = await setup([
      { text: 'partial', error: { message: 'overloaded', code: 'server_error' } },
      { type: 'sse', chunks: ['event: error\ndata: {"type":"error","code":"invalid_prompt","message":"Bad prompt."}\n\n'] },
      { finishReason: 'max_output_tokens', reasoning: 'thinking' },
      { text: 'cut off here', truncateAfterEvents: 5 },
      { type: 'sse', chunks: ['data: {not json\n\n'] },
    ]);
    const stream = () => collect(model.streamStep(createModelInput()));
    expect((await stream()).output).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: true, reason: expect.stringContaining('overloaded') });
    expect((await stream()).output).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: false, reason: expect.stringContaining('Bad prompt.') });
    expect((await stream()).output).toMatchObject({ type: 'invalid', kind: 'empty_response', retryable: false });
    expect((await stream()).output).toMatchObject({ type: 'invalid', kind: 'transient', code: 'stream_truncated', reason: expect.stringContaining('ended before it was complete') });
    expect((await stream()).output).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: false, reason: 'Stream event 1 was not valid JSON.' });
  });

  it('never streams the key, even split across deltas', async () => {
    const { model } = await setup([{ text: `The key is ${key}.`, deltaSize: 3 }]);
    const { deltas, output } = await collect(model.streamStep(createModelInput()));
    expect(deltas.join('')).not.toContain(key);
    expect(JSON.stringify(output)).not.toContain(key);
  });
});

describe('createOpenAIResponsesModel — options', () => {
  it('rejects invalid options with HarnessConfigError naming the field', () => {
    const bad: [Partial<OpenAIResponsesModelOptions>, string][] = [
      [{ model: 'm', apiKey: { env: '' } }, 'apiKey'],
      [{ apiKey: 'k', model: '' }, 'model'],
      [{ apiKey: 'k', model: 'm', baseUrl: 'http://example.com/v1' }, 'baseUrl'],
      [{ apiKey: 'k', model: 'm', reasoningEffort: 'extreme' as never }, 'reasoningEffort'],
      [{ apiKey: 'k', model: 'm', store: 'yes' as never }, 'store'],
      [{ apiKey: 'k', model: 'm', includeEncryptedReasoning: 1 as never }, 'includeEncryptedReasoning'],
      [{ apiKey: 'k', model: 'm', maxTokens: 0 }, 'maxTokens'],
      [{ apiKey: 'k', model: 'm', extraBody: { input: [] } }, 'extraBody.input'],
      [{ apiKey: 'k', model: 'm', pricing: { inputPerMillionTokens: -1, outputPerMillionTokens: 1 } }, 'pricing.inputPerMillionTokens'],
    ];
    for (const [options, field] of bad) {
      let caught: unknown;
      try {
        createOpenAIResponsesModel(options as OpenAIResponsesModelOptions);
      } catch (error) {
        caught = error;
      }
      expect(caught, field).toBeInstanceOf(HarnessConfigError);
      expect((caught as HarnessConfigError).field, field).toBe(field);
    }
  });

  it('allows plain http on a LAN host only with allowInsecureHttp, and a keyless compatible server', () => {
    expect(() => createOpenAIResponsesModel({ model: 'm', baseUrl: 'http://192.168.1.5:8000/v1', allowInsecureHttp: true })).not.toThrow();
  });
});
