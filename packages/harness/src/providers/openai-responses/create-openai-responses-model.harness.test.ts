import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import { createFakeToolRegistry, createTurnInput } from '../../testing/index.js';
import { createFakeOpenAIResponsesServer, type FakeModelServer } from '../../testing/node/index.js';
import { createOpenAIResponsesModel } from './create-openai-responses-model.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const weather = createFakeToolRegistry({ lookup_weather: ({ city }) => `Sunny in ${String(city)}` });
const key = 'sk-responses-harness-123456';

describe('OpenAI Responses model under createHarness', () => {
  it('runs a tool turn with reasoning carried to the second step, priced with cached and reasoning tokens', async () => {
    server = await createFakeOpenAIResponsesServer({
      replies: [
        {
          reasoning: 'The user wants the weather; call the tool.',
          toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }],
          usage: { inputTokens: 400, outputTokens: 60, cachedInputTokens: 300, reasoningTokens: 48 },
        },
        { text: 'Oslo is sunny.', usage: { inputTokens: 500, outputTokens: 10, cachedInputTokens: 400 } },
      ],
    });
    const model = createOpenAIResponsesModel({
      baseUrl: server.url,
      apiKey: key,
      model: 'gpt-5-mini',
      reasoningEffort: 'low',
      pricing: { inputPerMillionTokens: 1, outputPerMillionTokens: 10, cachedInputPerMillionTokens: 0.1 },
    });
    const result = await createHarness({ model, tools: weather }).runTurn(createTurnInput({ text: 'Weather in Oslo?' }));
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Oslo is sunny.' } });
    expect(result.usage).toMatchObject({ totalInputTokens: 900, totalOutputTokens: 70, totalCachedInputTokens: 700, totalReasoningTokens: 48, modelCalls: 2, toolCalls: 1 });
    // Uncached input at 1, cached input at 0.1, output at 10 per million tokens.
    expect(result.usage.totalCostUnits).toBeCloseTo((200 * 1 + 700 * 0.1 + 70 * 10) / 1e6, 12);
    const second = server.requests[1]!.body as { input: { type: string; id?: string; output?: string }[] };
    expect(second.input.map((item) => item.type)).toEqual(['message', 'reasoning', 'function_call', 'function_call_output']);
    expect(second.input[3]).toMatchObject({ type: 'function_call_output', output: 'Sunny in Oslo' });
    expect(JSON.stringify(result)).not.toContain(key);
  });

  it('streams a turn through streamTurn', async () => {
    server = await createFakeOpenAIResponsesServer({ replies: [{ text: 'Streaming works fine.', deltaSize: 6 }] });
    const stream = createHarness({ model: createOpenAIResponsesModel({ baseUrl: server.url, apiKey: key, model: 'gpt-5-mini' }) }).streamTurn(createTurnInput());
    const deltas: string[] = [];
    for await (const event of stream) if (event.type === 'text_delta') deltas.push(event.text);
    expect(deltas).toEqual(['Stream', 'ing wo', 'rks fi', 'ne.']);
    expect(await stream.result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Streaming works fine.' } });
  });

  it('streams a tool turn: argument deltas assembled, reasoning carried, answer streamed', async () => {
    server = await createFakeOpenAIResponsesServer({
      replies: [
        { reasoning: 'Tool first.', toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Bergen' } }], deltaSize: 2 },
        { text: 'Bergen is sunny.', deltaSize: 5 },
      ],
    });
    const model = createOpenAIResponsesModel({ baseUrl: server.url, apiKey: key, model: 'gpt-5-mini' });
    const stream = createHarness({ model, tools: weather }).streamTurn(createTurnInput());
    const deltas: string[] = [];
    for await (const event of stream) if (event.type === 'text_delta') deltas.push(event.text);
    expect(deltas.join('')).toBe('Bergen is sunny.');
    expect(await stream.result).toMatchObject({ outcome: 'completed', usage: { toolCalls: 1, modelCalls: 2 } });
    expect(server.requests).toHaveLength(2);
  });

  it('ends a refusal as failed / model_refused and stops at budgetLimit once priced usage reaches it', async () => {
    server = await createFakeOpenAIResponsesServer({
      replies: [
        { refusal: 'I cannot help with that.' },
        { toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }], usage: { inputTokens: 1000, outputTokens: 1000 } },
        { text: 'never' },
      ],
    });
    const model = createOpenAIResponsesModel({ baseUrl: server.url, apiKey: key, model: 'gpt-5-mini', pricing: { inputPerMillionTokens: 10, outputPerMillionTokens: 10 } });
    const harness = createHarness({ model, tools: weather, limits: { budgetLimit: 0.01 } });
    expect(await harness.runTurn(createTurnInput())).toMatchObject({ outcome: 'failed', stopReason: 'model_refused' });
    expect(await harness.runTurn(createTurnInput())).toMatchObject({ outcome: 'deferred', stopReason: 'budget_reached' });
    expect(server.requests).toHaveLength(2);
  });

  it('fails the turn with input_too_large before any call', async () => {
    server = await createFakeOpenAIResponsesServer({ replies: [{ text: 'never' }] });
    const model = createOpenAIResponsesModel({ baseUrl: server.url, apiKey: key, model: 'gpt-5-mini', maxInputBytes: 64 });
    const result = await createHarness({ model }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'failed', metadata: { error: { code: 'input_too_large', retryable: false } } });
    expect(server.requests).toHaveLength(0);
  });
});
