import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import { createFakeToolRegistry, createTurnInput } from '../../testing/index.js';
import { createFakeAnthropicServer, createFakeOpenAICompatibleServer, type FakeModelServer } from '../../testing/node/index.js';
import { createAnthropicModel } from '../anthropic/create-anthropic-model.js';
import { createOpenAICompatibleModel } from '../openai-compatible/create-openai-compatible-model.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const tools = createFakeToolRegistry({ lookup: () => 'found' });
const pricing = { inputPerMillionTokens: 1, outputPerMillionTokens: 4, cachedInputPerMillionTokens: 0.1 };

describe('pricing and usage details through createHarness', () => {
  it('OpenAI-compatible: cached and reasoning tokens are reported and summed, and priced from the table', async () => {
    server = await createFakeOpenAICompatibleServer({
      replies: [
        { toolCalls: [{ name: 'lookup', arguments: {} }], usage: { inputTokens: 1000, cachedInputTokens: 800, outputTokens: 100, reasoningTokens: 60 } },
        { text: 'done', usage: { inputTokens: 1200, cachedInputTokens: 1000, outputTokens: 50, reasoningTokens: 10 } },
      ],
    });
    const model = createOpenAICompatibleModel({ baseUrl: server.url, model: 'gpt-fake', pricing });
    const result = await createHarness({ model, tools }).runTurn(createTurnInput());
    expect(result.usage).toMatchObject({ totalInputTokens: 2200, totalCachedInputTokens: 1800, totalOutputTokens: 150, totalReasoningTokens: 70 });
    // (200 + 200) × 1 + 1800 × 0.1 + 150 × 4 = 400 + 180 + 600 per million
    expect(result.usage.totalCostUnits).toBeCloseTo(1180e-6, 12);
  });

  it('OpenRouter-style reported cost wins over the table', async () => {
    server = await createFakeOpenAICompatibleServer({ replies: [{ text: 'hi', usage: { inputTokens: 1_000_000, outputTokens: 0, cost: 0.003 } }] });
    const model = createOpenAICompatibleModel({ baseUrl: server.url, model: 'router', pricing });
    const result = await createHarness({ model }).runTurn(createTurnInput());
    expect(result.usage.totalCostUnits).toBe(0.003);
  });

  it('Anthropic: cache reads count as input and as cached input; budgetLimit trips on priced usage', async () => {
    server = await createFakeAnthropicServer({
      replies: [
        { toolCalls: [{ name: 'lookup', arguments: {} }], usage: { inputTokens: 3000, cachedInputTokens: 2000, outputTokens: 500 } },
        { text: 'never' },
      ],
    });
    const model = createAnthropicModel({ baseUrl: server.url, apiKey: 'sk-ant-test-123456', model: 'claude-fake', maxTokens: 100, pricing });
    const result = await createHarness({ model, tools, limits: { budgetLimit: 0.001 } }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'budget_reached' });
    expect(result.usage).toMatchObject({ totalInputTokens: 3000, totalCachedInputTokens: 2000, totalOutputTokens: 500 });
    // 1000 × 1 + 2000 × 0.1 + 500 × 4 = 3200 per million
    expect(result.usage.totalCostUnits).toBeCloseTo(3200e-6, 12);
  });

  it('a model without pricing reports no cost and no usage-detail totals', async () => {
    server = await createFakeOpenAICompatibleServer({ replies: [{ text: 'hi', usage: { inputTokens: 10, outputTokens: 2 } }] });
    const result = await createHarness({ model: createOpenAICompatibleModel({ baseUrl: server.url, model: 'm' }) }).runTurn(createTurnInput());
    expect(result.usage.totalCostUnits).toBe(0);
    expect(result.usage).not.toHaveProperty('totalCachedInputTokens');
    expect(result.usage).not.toHaveProperty('totalReasoningTokens');
  });
});
