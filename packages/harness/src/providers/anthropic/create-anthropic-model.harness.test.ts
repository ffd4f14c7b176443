import * as z from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import { createFakeToolRegistry, createTurnInput } from '../../testing/index.js';
import { createFakeAnthropicServer, type FakeModelServer, type FakeServerScript } from '../../testing/node/index.js';
import type { AnthropicModelOptions } from './anthropic-model-options.js';
import { createAnthropicModel } from './create-anthropic-model.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const KEY = 'sk-ant-harness-0123456789';
const weather = createFakeToolRegistry({ lookup_weather: ({ city }) => `Sunny in ${String(city)}` });

async function setup(replies: FakeServerScript[], options: Partial<AnthropicModelOptions> = {}) {
  server = await createFakeAnthropicServer({ replies });
  return createAnthropicModel({ apiKey: KEY, model: 'claude-test', maxTokens: 4096, baseUrl: server.url, retry: { maxRetries: 0 }, ...options });
}

type Body = { messages: { role: string; content: Record<string, unknown>[] }[] };

describe('Anthropic model under createHarness', () => {
  it('fails the turn with attachments_unsupported for an attachment the API cannot take, sending nothing', async () => {
    const model = await setup([{ text: 'never' }]);
    const result = await createHarness({ model }).runTurn(
      createTurnInput({
        message: { id: 'm', text: 'Unzip this', receivedAt: '2026-01-01T00:00:00.000Z', attachments: [{ id: 'archive', type: 'file', url: 'data:application/zip;base64,UEsDBA==' }] },
      }),
    );
    expect(result.outcome).toBe('failed');
    expect(result.error).toMatchObject({ code: 'attachments_unsupported', retryable: false, message: expect.stringContaining('"archive"') });
    expect(server!.requests).toHaveLength(0);
  });

  it('replays history before the message and sends attachments as image blocks', async () => {
    const model = await setup([{ text: 'Yes, the same cat.' }]);
    const result = await createHarness({ model }).runTurn(
      createTurnInput({
        history: [
          { role: 'user', text: 'My cat:', attachments: [{ id: 'c1', type: 'image', url: 'https://example.test/cat.jpg' }] },
          { role: 'assistant', text: 'Cute!' },
        ],
        message: { id: 'm', text: 'Same cat?', receivedAt: '2026-01-01T00:00:00.000Z', attachments: [{ id: 'c2', type: 'image', url: 'data:image/gif;base64,R0lGOA==' }] },
      }),
    );
    expect(result.outcome).toBe('completed');
    expect((server!.requests[0]!.body as Body).messages).toEqual([
      { role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://example.test/cat.jpg' } }, { type: 'text', text: 'My cat:' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Cute!' }] },
      { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/gif', data: 'R0lGOA==' } }, { type: 'text', text: 'Same cat?' }] },
    ]);
  });

  it('streams a thinking tool loop: reasoning_delta events, thinking replayed first in the second request', async () => {
    const model = await setup(
      [
        { reasoning: 'I need the weather tool.', toolCalls: [{ id: 'toolu_1', name: 'lookup_weather', arguments: { city: 'Oslo' } }], deltaSize: 6 },
        { reasoning: 'Now answer.', text: 'Oslo is sunny.' },
      ],
      { extraBody: { thinking: { type: 'enabled', budget_tokens: 2048 } } },
    );
    const stream = createHarness({ model, tools: weather }).streamTurn(createTurnInput({ text: 'Weather in Oslo?' }));
    const reasoning: string[] = [];
    const text: string[] = [];
    for await (const event of stream) {
      if (event.type === 'reasoning_delta') reasoning.push(event.text);
      if (event.type === 'text_delta') text.push(event.text);
    }
    const result = await stream.result;
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Oslo is sunny.' } });
    expect(reasoning.join('')).toBe('I need the weather tool.Now answer.');
    expect(text.join('')).toBe('Oslo is sunny.');
    const second = server!.requests[1]!.body as Body;
    expect(second.messages[1]!.content[0]).toEqual({ type: 'thinking', thinking: 'I need the weather tool.', signature: btoa('sig_fake_1') });
    expect(JSON.stringify(result)).not.toContain(KEY);
  });

  it('returns the structured answer of the forced answer tool as result.output', async () => {
    // The answer tool is the last tool of the request, whatever the harness names it.
    const answer: FakeServerScript = (request) => {
      const name = (request.body as { tools?: { name: string }[] }).tools?.at(-1)?.name ?? 'missing';
      return { toolCalls: [{ id: 'toolu_o', name, arguments: { city: 'Oslo', high: 21 } }] };
    };
    const model = await setup([answer]);
    const output = z.object({ city: z.string(), high: z.number() });
    const result = await createHarness({ model, output }).runTurn(createTurnInput({ text: 'Forecast?' }));
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'completed', output: { city: 'Oslo', high: 21 } });
    const body = server!.requests[0]!.body as { tools: { name: string }[]; tool_choice: { type: string; name?: string } };
    expect(body.tool_choice).toEqual({ type: 'tool', name: body.tools[0]!.name });
  });
});
