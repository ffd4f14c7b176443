import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import { createFakeToolRegistry, createTurnInput } from '../../testing/index.js';
import { createFakeOllamaServer, type FakeModelServer } from '../../testing/node/index.js';
import { createOllamaModel } from './create-ollama-model.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const weather = createFakeToolRegistry({ lookup_weather: ({ city }) => `Sunny in ${String(city)}` });

describe('Ollama model under createHarness', () => {
  it('runs a tool turn and replays the tool result with tool_name', async () => {
    server = await createFakeOllamaServer({
      replies: [
        { toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }], usage: { inputTokens: 40, outputTokens: 9 } },
        { text: 'Oslo is sunny.', usage: { inputTokens: 60, outputTokens: 4 } },
      ],
    });
    const model = createOllamaModel({ baseUrl: server.url, model: 'qwen3:8b', keepAlive: '10m', pricing: { inputPerMillionTokens: 1, outputPerMillionTokens: 1 } });
    const result = await createHarness({ model, tools: weather }).runTurn(createTurnInput({ text: 'Weather in Oslo?' }));
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Oslo is sunny.' } });
    expect(result.usage).toMatchObject({ totalInputTokens: 100, totalOutputTokens: 13, modelCalls: 2, toolCalls: 1 });
    expect(result.usage.totalCostUnits).toBeCloseTo(113 / 1e6, 12);
    const second = server.requests[1]!.body as { messages: { role: string; content: string; tool_name?: string }[]; keep_alive: string };
    expect(second.keep_alive).toBe('10m');
    expect(second.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(second.messages[3]).toEqual({ role: 'tool', content: 'Sunny in Oslo', tool_name: 'lookup_weather' });
  });

  it('streams a turn over NDJSON through streamTurn', async () => {
    server = await createFakeOllamaServer({ replies: [{ text: 'Streaming works fine.', deltaSize: 6 }] });
    const stream = createHarness({ model: createOllamaModel({ baseUrl: server.url, model: 'qwen3:8b' }) }).streamTurn(createTurnInput());
    const deltas: string[] = [];
    for await (const event of stream) if (event.type === 'text_delta') deltas.push(event.text);
    expect(deltas).toEqual(['Stream', 'ing wo', 'rks fi', 'ne.']);
    expect(await stream.result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Streaming works fine.' } });
  });

  it('stops at budgetLimit once priced usage reaches it', async () => {
    server = await createFakeOllamaServer({
      replies: [{ toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }], usage: { inputTokens: 1000, outputTokens: 1000 } }, { text: 'never' }],
    });
    const model = createOllamaModel({ baseUrl: server.url, model: 'qwen3:8b', pricing: { inputPerMillionTokens: 10, outputPerMillionTokens: 10 } });
    const result = await createHarness({ model, tools: weather, limits: { budgetLimit: 0.01 } }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'budget_reached' });
    expect(server.requests).toHaveLength(1);
  });

  it('fails the turn with input_too_large before any call', async () => {
    server = await createFakeOllamaServer({ replies: [{ text: 'never' }] });
    const model = createOllamaModel({ baseUrl: server.url, model: 'qwen3:8b', maxInputBytes: 64 });
    const result = await createHarness({ model }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'model_invalid_response', metadata: { error: { code: 'input_too_large', retryable: false } } });
    expect(result.metadata?.error?.message).toMatch(/more than maxInputBytes \(64\)/);
    expect(server.requests).toHaveLength(0);
  });
});
