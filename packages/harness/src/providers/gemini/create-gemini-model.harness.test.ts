import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import { createFakeToolRegistry, createTurnInput } from '../../testing/index.js';
import { createFakeGeminiServer, type FakeModelServer } from '../../testing/node/index.js';
import { createGeminiModel } from './create-gemini-model.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const weather = createFakeToolRegistry({ lookup_weather: ({ city }) => `Sunny in ${String(city)}` });
const key = 'AIzaSy-gemini-harness-123456';

describe('Gemini model under createHarness', () => {
  it('runs a tool turn with the thought signature carried to the second step, priced with cached and thinking tokens', async () => {
    server = await createFakeGeminiServer({
      replies: [
        {
          reasoning: 'Call the weather tool.',
          toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }],
          usage: { inputTokens: 400, outputTokens: 60, cachedInputTokens: 300, reasoningTokens: 48 },
        },
        { text: 'Oslo is sunny.', usage: { inputTokens: 500, outputTokens: 10 } },
      ],
    });
    const model = createGeminiModel({
      baseUrl: server.url,
      apiKey: key,
      model: 'gemini-2.5-flash',
      pricing: { inputPerMillionTokens: 0.3, outputPerMillionTokens: 2.5, cachedInputPerMillionTokens: 0.075 },
    });
    const result = await createHarness({ model, tools: weather }).runTurn(createTurnInput({ text: 'Weather in Oslo?' }));
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Oslo is sunny.' } });
    expect(result.usage).toMatchObject({ totalInputTokens: 900, totalOutputTokens: 70, totalCachedInputTokens: 300, totalReasoningTokens: 48, modelCalls: 2, toolCalls: 1 });
    expect(result.usage.totalCostUnits).toBeCloseTo((600 * 0.3 + 300 * 0.075 + 70 * 2.5) / 1e6, 12);
    const second = server.requests[1]!.body as { contents: { role: string; parts: Record<string, unknown>[] }[] };
    expect(second.contents.map((content) => content.role)).toEqual(['user', 'model', 'user']);
    expect(second.contents[1]!.parts[0]).toMatchObject({ thoughtSignature: 'c2lnX2Zha2Vf1' });
    expect(second.contents[2]!.parts[0]).toEqual({ functionResponse: { name: 'lookup_weather', response: { output: 'Sunny in Oslo' } } });
    expect(JSON.stringify(result)).not.toContain(key);
    expect(server.requests.every((request) => !request.search.includes(key) && !request.path.includes(key))).toBe(true);
  });

  it('streams a turn through streamTurn', async () => {
    server = await createFakeGeminiServer({ replies: [{ text: 'Streaming works fine.', deltaSize: 6 }] });
    const stream = createHarness({ model: createGeminiModel({ baseUrl: server.url, apiKey: key, model: 'gemini-2.5-flash' }) }).streamTurn(createTurnInput());
    const deltas: string[] = [];
    for await (const event of stream) if (event.type === 'text_delta') deltas.push(event.text);
    expect(deltas).toEqual(['Stream', 'ing wo', 'rks fi', 'ne.']);
    expect(await stream.result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Streaming works fine.' } });
  });

  it('streams a tool turn end to end', async () => {
    server = await createFakeGeminiServer({
      replies: [{ reasoning: 'Tool.', toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Bergen' } }] }, { text: 'Bergen is sunny.', deltaSize: 5 }],
    });
    const stream = createHarness({ model: createGeminiModel({ baseUrl: server.url, apiKey: key, model: 'gemini-2.5-flash' }), tools: weather }).streamTurn(createTurnInput());
    const deltas: string[] = [];
    for await (const event of stream) if (event.type === 'text_delta') deltas.push(event.text);
    expect(deltas.join('')).toBe('Bergen is sunny.');
    expect(await stream.result).toMatchObject({ outcome: 'completed', usage: { toolCalls: 1, modelCalls: 2 } });
  });

  it('ends a safety block as failed / model_refused', async () => {
    server = await createFakeGeminiServer({ replies: [{ blockReason: 'SAFETY' }, { refusal: 'unsafe' }] });
    const harness = createHarness({ model: createGeminiModel({ baseUrl: server.url, apiKey: key, model: 'gemini-2.5-flash' }) });
    expect(await harness.runTurn(createTurnInput())).toMatchObject({ outcome: 'failed', stopReason: 'model_refused' });
    expect(await harness.runTurn(createTurnInput())).toMatchObject({ outcome: 'failed', stopReason: 'model_refused' });
  });

  it('stops at budgetLimit, and fails input_too_large before any call', async () => {
    server = await createFakeGeminiServer({
      replies: [{ toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }], usage: { inputTokens: 1000, outputTokens: 1000 } }, { text: 'never' }],
    });
    const priced = createGeminiModel({ baseUrl: server.url, apiKey: key, model: 'gemini-2.5-flash', pricing: { inputPerMillionTokens: 10, outputPerMillionTokens: 10 } });
    expect(await createHarness({ model: priced, tools: weather, limits: { budgetLimit: 0.01 } }).runTurn(createTurnInput())).toMatchObject({
      outcome: 'deferred',
      stopReason: 'budget_reached',
    });
    const small = createGeminiModel({ baseUrl: server.url, apiKey: key, model: 'gemini-2.5-flash', maxInputBytes: 32 });
    expect(await createHarness({ model: small }).runTurn(createTurnInput())).toMatchObject({ outcome: 'failed', metadata: { error: { code: 'input_too_large' } } });
    expect(server.requests).toHaveLength(1);
  });
});
