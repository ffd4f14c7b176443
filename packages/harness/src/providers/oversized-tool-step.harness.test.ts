import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import { createFakeToolRegistry, createTurnInput } from '../testing/index.js';
import { createFakeOpenAICompatibleServer, type FakeModelServer } from '../testing/node/index.js';
import { createOpenAICompatibleModel } from './openai-compatible/create-openai-compatible-model.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// Issue 23, item 9: a step asking for 20,000 tool calls (unknown names) is checked against the
// limits before any call is worked on; nothing of it runs or is sent back.
describe('OpenAI-compatible: a step with 20,000 tool calls', () => {
  it('is refused as a whole; the model is asked again with a short note, not 20,000 results', async () => {
    const toolCalls = Array.from({ length: 20_000 }, (_, index) => ({ name: `unknown_${String(index)}`, arguments: { n: index } }));
    server = await createFakeOpenAICompatibleServer({
      replies: [{ toolCalls }, { toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] }, { text: 'Found it.' }],
    });
    const tools = createFakeToolRegistry({ lookup: () => 'found' });
    const harness = createHarness({ model: createOpenAICompatibleModel({ baseUrl: server.url, model: 'fake-model' }), tools, limits: { maxToolCalls: 4 } });
    const result = await harness.runTurn(createTurnInput());

    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Found it.' } });
    expect(tools.calls.map((call) => call.name)).toEqual(['lookup']);
    expect(result.transcript.map((item) => item.type)).toEqual(['invalid_output', 'assistant_step', 'tool_result', 'assistant_step']);
    const retry = server.requests[1]!.body as { messages: { role: string; content: string | null }[] };
    expect(retry.messages.filter((message) => message.role === 'tool')).toEqual([]);
    expect(retry.messages.at(-1)?.content).toContain('The model asked for 20000 tool calls in one step');
    expect(JSON.stringify(retry).length).toBeLessThan(4_096);
  });
});
