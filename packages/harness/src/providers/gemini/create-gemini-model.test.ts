import { afterEach, describe, expect, it } from 'vitest';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { HarnessModelInput, HarnessModelOutput } from '../../core/types/model.js';
import { createFakeGeminiServer, type FakeModelServer, type FakeServerScript } from '../../testing/node/index.js';
import { createModelInput, weatherTool } from '../__fixtures__/create-model-input.js';
import { GEMINI_UNKNOWN_THOUGHT_SIGNATURE } from './convert-to-gemini-contents.js';
import { createGeminiModel } from './create-gemini-model.js';
import type { GeminiModelOptions } from './gemini-model-options.js';
import { collectStreamParts as collect } from '../__fixtures__/collect-stream-parts.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const fastRetry = { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2 };
const key = 'AIzaSy-gemini-secret-123456';

async function setup(replies: FakeServerScript[], options: Partial<GeminiModelOptions> = {}) {
  server = await createFakeGeminiServer({ replies });
  const model = createGeminiModel({ baseUrl: server.url, apiKey: key, model: 'gemini-2.5-flash', retry: fastRetry, ...options });
  return { server, model };
}


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
      ...output.calls.map((call, index) => ({
        type: 'tool_result' as const,
        iteration: 1,
        result:
          index === 0
            ? { callId: call.id, toolName: call.name, status: 'success' as const, output: 'Sunny, 21 °C' }
            : { callId: call.id, toolName: call.name, status: 'error' as const, error: { code: 'unavailable', message: 'No data.' } },
      })),
    ],
  };
}

describe('createGeminiModel — nextStep', () => {
  it('calls :generateContent with the key only in x-goog-api-key, system instruction, tools and generation config', async () => {
    const { server, model } = await setup([{ text: 'Sunny.', usage: { inputTokens: 120, outputTokens: 30, cachedInputTokens: 64, reasoningTokens: 20 } }], {
      temperature: 0.3,
      maxTokens: 500,
      generationConfig: { thinkingConfig: { thinkingBudget: 256 }, temperature: 1 },
      extraBody: { safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }] },
    });
    const output = await model.nextStep(
      createModelInput({ availableTools: [weatherTool], instructions: { systemPrompt: 'You are a weather assistant.', developerPrompt: 'Be brief.' } }),
    );
    expect(output).toMatchObject({
      type: 'final_answer',
      text: 'Sunny.',
      // Output is the answer plus the thinking; the thinking is reasoning.
      usage: { inputTokens: 120, outputTokens: 30, cachedInputTokens: 64, reasoningTokens: 20 },
      metadata: { provider: 'gemini', model: 'gemini-2.5-flash', finishReason: 'stop', rawFinishReason: 'STOP', responseModel: 'gemini-2.5-flash', responseId: 'fake-response-1' },
    });
    const request = server.requests[0]!;
    expect(request.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(request.search).toBe('');
    expect(request.headers['x-goog-api-key']).toBe(key);
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toEqual({
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }],
      systemInstruction: { parts: [{ text: 'You are a weather assistant.' }, { text: 'Be brief.' }] },
      contents: [{ role: 'user', parts: [{ text: 'What is the weather in Oslo?' }] }],
      tools: [{ functionDeclarations: [{ name: 'lookup_weather', description: weatherTool.description, parametersJsonSchema: weatherTool.inputSchema }] }],
      generationConfig: { thinkingConfig: { thinkingBudget: 256 }, temperature: 0.3, maxOutputTokens: 500 },
    });
    expect(output.metadata?.requestBytes).toBe(Buffer.byteLength(JSON.stringify(request.body)));
  });

  it('returns function calls and replays them as functionCall / functionResponse parts', async () => {
    const { server, model } = await setup([
      { text: 'Checking.', toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }, { name: 'lookup_weather', arguments: { city: 'Bergen' } }] },
      { text: 'Oslo is sunny.' },
    ]);
    const first = await model.nextStep(createModelInput({ availableTools: [weatherTool] }));
    expect(first).toMatchObject({
      type: 'tool_request',
      text: 'Checking.',
      calls: [
        { name: 'lookup_weather', input: { city: 'Oslo' } },
        { name: 'lookup_weather', input: { city: 'Bergen' } },
      ],
      metadata: { finishReason: 'tool_calls' },
    });
    expect(await model.nextStep(afterTools(first))).toMatchObject({ type: 'final_answer', text: 'Oslo is sunny.' });
    // Gemini gave no ids, so the made-up ones are local and not sent back; no signature was issued, so none is sent.
    expect(first.type === 'tool_request' && first.calls.every((call) => call.id.startsWith('gemini_local_'))).toBe(true);
    expect(first.reasoning).toEqual(first.type === 'tool_request' ? first.calls.map((call) => ({ provider: 'gemini', id: `functionCall:${call.id}` })) : []);
    expect((server.requests[1]!.body as { contents: unknown[] }).contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [{ text: 'Checking.' }, { functionCall: { name: 'lookup_weather', args: { city: 'Oslo' } } }, { functionCall: { name: 'lookup_weather', args: { city: 'Bergen' } } }],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'lookup_weather', response: { output: 'Sunny, 21 °C' } } },
          { functionResponse: { name: 'lookup_weather', response: { error: { code: 'unavailable', message: 'No data.' } } } },
        ],
      },
    ]);
  });

  it("keeps Gemini's call ids and thought signatures and sends them back with the step", async () => {
    const { server, model } = await setup([
      { reasoning: 'I should call the tool.', toolCalls: [{ id: 'fc-gemini-1', name: 'lookup_weather', arguments: { city: 'Oslo' } }] },
      { text: 'Sunny.' },
    ]);
    const first = await model.nextStep(createModelInput({ availableTools: [weatherTool] }));
    expect(first).toMatchObject({
      type: 'tool_request',
      calls: [{ id: 'fc-gemini-1' }],
      reasoning: [
        { provider: 'gemini', text: 'I should call the tool.' },
        { provider: 'gemini', id: 'functionCall:fc-gemini-1', signature: 'c2lnX2Zha2Vf1' },
      ],
    });
    expect(first.type === 'tool_request' && first.text).toBeUndefined();
    expect(await model.nextStep(afterTools(first))).toMatchObject({ type: 'final_answer' });
    expect((server.requests[1]!.body as { contents: unknown[] }).contents.slice(1)).toEqual([
      { role: 'model', parts: [{ functionCall: { name: 'lookup_weather', args: { city: 'Oslo' }, id: 'fc-gemini-1' }, thoughtSignature: 'c2lnX2Zha2Vf1' }] },
      { role: 'user', parts: [{ functionResponse: { name: 'lookup_weather', response: { output: 'Sunny, 21 °C' }, id: 'fc-gemini-1' } }] },
    ]);
  });

  it('replays the signature from the transcript with a fresh adapter (another process, after a resume)', async () => {
    const { server } = await setup([{ reasoning: 'Tool.', toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }] }, { text: 'Sunny.' }]);
    const first = await createGeminiModel({ baseUrl: server.url, apiKey: key, model: 'gemini-2.5-flash' }).nextStep(createModelInput());
    const fresh = createGeminiModel({ baseUrl: server.url, apiKey: key, model: 'gemini-2.5-flash' });
    expect(await fresh.nextStep(afterTools(first))).toMatchObject({ type: 'final_answer', text: 'Sunny.' });
    const replayed = (server.requests[1]!.body as { contents: { parts: { thoughtSignature?: string }[] }[] }).contents[1]!;
    expect(replayed.parts[0]!.thoughtSignature).toBe('c2lnX2Zha2Vf1');
  });

  it('replays a step without gemini reasoning parts (another provider, an older continuation) with the documented placeholder signature', async () => {
    const { server, model } = await setup([{ reasoning: 'Tool.', toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }] }, { text: 'Sunny.' }]);
    const first = await model.nextStep(createModelInput());
    expect(await model.nextStep(afterTools({ ...first, reasoning: undefined }))).toMatchObject({ type: 'final_answer', text: 'Sunny.' });
    const replayed = (server.requests[1]!.body as { contents: { parts: { thoughtSignature?: string }[] }[] }).contents[1]!;
    expect(replayed.parts[0]!.thoughtSignature).toBe(GEMINI_UNKNOWN_THOUGHT_SIGNATURE);
  });

  it('maps safety blocks of the prompt and of the answer to refusals', async () => {
    const { model } = await setup([{ blockReason: 'PROHIBITED_CONTENT' }, { refusal: 'unsafe' }, { finishReason: 'RECITATION' }]);
    expect(await model.nextStep(createModelInput())).toMatchObject({
      type: 'refusal',
      reason: expect.stringContaining('PROHIBITED_CONTENT'),
      metadata: { finishReason: 'content_filter', rawFinishReason: 'PROHIBITED_CONTENT' },
    });
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'refusal', reason: expect.stringContaining('SAFETY') });
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'refusal', reason: expect.stringContaining('RECITATION') });
  });

  it('maps MAX_TOKENS, MALFORMED_FUNCTION_CALL, error bodies and unexpected shapes', async () => {
    const { server, model } = await setup([
      { finishReason: 'MAX_TOKENS', reasoning: 'long thinking' },
      { finishReason: 'MALFORMED_FUNCTION_CALL' },
      { type: 'error', status: 400, message: 'API key not valid. Please pass a valid API key.' },
      { type: 'error', status: 503, message: 'The model is overloaded. Please try again later.' },
      { type: 'error', status: 503, message: 'The model is overloaded. Please try again later.' },
      { type: 'error', status: 503, message: 'The model is overloaded. Please try again later.' },
      { type: 'http', status: 200, body: { candidates: 'nope' } },
      { type: 'http', status: 200, body: {} },
      { toolCalls: [{ name: 'lookup_weather', arguments: '{"city":' }] },
    ]);
    const next = () => model.nextStep(createModelInput());
    expect(await next()).toMatchObject({ type: 'invalid', kind: 'empty_response', retryable: false, metadata: { finishReason: 'length' } });
    expect(await next()).toMatchObject({ type: 'invalid', kind: 'schema_mismatch', reason: expect.stringContaining('MALFORMED_FUNCTION_CALL') });
    const invalidKey = await next();
    expect(invalidKey).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: false, httpStatus: 400 });
    expect(invalidKey.type === 'invalid' && invalidKey.reason).toContain('API key not valid');
    expect(await next()).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: true, httpStatus: 503, code: 'provider_unavailable' });
    expect(server.requests).toHaveLength(6);
    expect(await next()).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: false, code: 'invalid_response' });
    expect(await next()).toMatchObject({ type: 'invalid', kind: 'missing_message' });
    expect(await next()).toMatchObject({ type: 'invalid', kind: 'schema_mismatch' });
  });

  it('accepts a models/ prefix and never shows the key', async () => {
    const { server, model } = await setup([{ type: 'error', status: 403, message: `Key ${key} is blocked.` }], { model: 'models/gemini-2.5-pro' });
    const output = await model.nextStep(createModelInput());
    expect(server.requests[0]!.path).toBe('/v1beta/models/gemini-2.5-pro:generateContent');
    expect(output).toMatchObject({ type: 'invalid', httpStatus: 403 });
    expect(JSON.stringify(output)).not.toContain(key);
  });
});

describe('createGeminiModel — streamStep', () => {
  it('streams :streamGenerateContent?alt=sse text without thoughts and ends with usage', async () => {
    const { server, model } = await setup([{ reasoning: 'Hmm, weather.', text: 'Streaming works fine.', deltaSize: 6, usage: { inputTokens: 9, outputTokens: 5 } }]);
    const { deltas, output } = await collect(model.streamStep(createModelInput()));
    expect(deltas).toEqual(['Stream', 'ing wo', 'rks fi', 'ne.']);
    expect(output).toMatchObject({ type: 'final_answer', text: 'Streaming works fine.', usage: { inputTokens: 9, outputTokens: 5 } });
    expect(server.requests[0]!.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent');
    expect(server.requests[0]!.search).toBe('?alt=sse');
    expect(server.requests[0]!.headers['x-goog-api-key']).toBe(key);
  });

  it('streams a tool step and carries its signature to the next streamed step', async () => {
    const { server, model } = await setup([
      { reasoning: 'Tool.', text: 'Let me look.', toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Tromsø' } }], deltaSize: 3 },
      { text: 'Cold.' },
    ]);
    const first = await collect(model.streamStep(createModelInput({ availableTools: [weatherTool] })));
    expect(first.deltas.join('')).toBe('Let me look.');
    expect(first.reasoning).toEqual(['Too', 'l.']);
    expect(first.output).toMatchObject({ type: 'tool_request', text: 'Let me look.', calls: [{ input: { city: 'Tromsø' } }] });
    expect((await collect(model.streamStep(afterTools(first.output)))).output).toMatchObject({ type: 'final_answer', text: 'Cold.' });
    const replayed = (server.requests[1]!.body as { contents: { parts: { thoughtSignature?: string }[] }[] }).contents[1]!;
    expect(replayed.parts[1]!.thoughtSignature).toBe('c2lnX2Zha2Vf1');
  });

  it('maps a mid-stream error, a safety stop, a truncated stream and a bad chunk', async () => {
    const { model } = await setup([
      { error: { message: 'Internal error encountered.', code: 500 } },
      { text: 'Here is how', refusal: 'unsafe' },
      { text: 'cut off here', truncateAfterEvents: 2 },
      { type: 'sse', chunks: ['data: {not json\r\n\r\n'] },
    ], { retry: { maxRetries: 0 } });
    const stream = () => collect(model.streamStep(createModelInput()));
    expect((await stream()).output).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: true, httpStatus: 500, reason: expect.stringContaining('Internal error') });
    expect((await stream()).output).toMatchObject({ type: 'refusal', metadata: { rawFinishReason: 'SAFETY' } });
    expect((await stream()).output).toMatchObject({ type: 'invalid', kind: 'transient', code: 'stream_truncated', reason: expect.stringContaining('ended before it was complete') });
    expect((await stream()).output).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: false, reason: 'Stream chunk 1 was not valid JSON.' });
  });

  it('never streams the key, even split across chunks', async () => {
    const { model } = await setup([{ text: `The key is ${key}.`, deltaSize: 3 }]);
    const { deltas, output } = await collect(model.streamStep(createModelInput()));
    expect(deltas.join('')).not.toContain(key);
    expect(JSON.stringify(output)).not.toContain(key);
  });
});

describe('createGeminiModel — options', () => {
  it('rejects invalid options with HarnessConfigError naming the field', () => {
    const bad: [Partial<GeminiModelOptions>, string][] = [
      [{ model: 'gemini-2.5-flash', apiKey: '' }, 'apiKey'],
      [{ apiKey: 'k', model: '' }, 'model'],
      [{ apiKey: 'k', model: '../../v1/files' }, 'model'],
      [{ apiKey: 'k', model: 'gemini:streamGenerateContent' }, 'model'],
      [{ apiKey: 'k', model: 'm', baseUrl: 'https://example.com/v1beta?key=abc' }, 'baseUrl'],
      [{ apiKey: 'k', model: 'm', generationConfig: [] as never }, 'generationConfig'],
      [{ apiKey: 'k', model: 'm', extraBody: { contents: [] } }, 'extraBody.contents'],
      [{ apiKey: 'k', model: 'm', maxInputBytes: 17 * 1024 * 1024 }, 'maxInputBytes'],
    ];
    for (const [options, field] of bad) {
      let caught: unknown;
      try {
        createGeminiModel(options as GeminiModelOptions);
      } catch (error) {
        caught = error;
      }
      expect(caught, field).toBeInstanceOf(HarnessConfigError);
      expect((caught as HarnessConfigError).field, field).toBe(field);
    }
  });
});
