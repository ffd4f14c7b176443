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

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const weather = createFakeToolRegistry({ lookup_weather: ({ city }) => `Sunny in ${String(city)}` });

describe('Ollama under createHarness — issue 13 inputs', () => {
  it('sends history and an inline image, and streams thinking as reasoning_delta through a tool loop', async () => {
    server = await createFakeOllamaServer({
      replies: [
        { reasoning: 'Need the tool.', toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }] },
        { reasoning: 'Got it.', text: 'Sunny in Oslo.' },
      ],
    });
    const model = createOllamaModel({ baseUrl: server.url, model: 'qwen3-vl:8b' });
    const stream = createHarness({ model, tools: weather }).streamTurn(
      createTurnInput({
        history: [
          { role: 'user', text: 'Hi' },
          { role: 'assistant', text: 'Hello!' },
        ],
        message: { id: 'm1', text: 'Weather where this photo was taken?', receivedAt: '2026-01-01T00:00:00.000Z', attachments: [{ id: 'p', type: 'image', data: PNG, mediaType: 'image/png' }] },
      }),
    );
    const reasoning: string[] = [];
    for await (const event of stream) if (event.type === 'reasoning_delta') reasoning.push(event.text);
    expect(await stream.result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Sunny in Oslo.' } });
    expect(reasoning.join('')).toBe('Need the tool.Got it.');
    const first = server.requests[0]!.body as { messages: Record<string, unknown>[] };
    expect(first.messages.slice(1)).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'Weather where this photo was taken?', images: [PNG] },
    ]);
    const second = server.requests[1]!.body as { messages: { role: string }[] };
    expect(second.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'tool']);
  });

  it('fails the turn with attachments_unsupported for an image by URL, sending nothing', async () => {
    server = await createFakeOllamaServer({ replies: [{ text: 'never' }] });
    const model = createOllamaModel({ baseUrl: server.url, model: 'qwen3-vl:8b' });
    const result = await createHarness({ model }).runTurn(
      createTurnInput({ message: { id: 'm1', text: 'What is this?', receivedAt: '2026-01-01T00:00:00.000Z', attachments: [{ id: 'remote', type: 'image', url: 'https://example.com/a.png' }] } }),
    );
    expect(result.outcome).toBe('failed');
    expect(result.metadata?.error).toMatchObject({ code: 'attachments_unsupported', retryable: false });
    expect(server.requests).toHaveLength(0);
  });

  it('asks for a structured answer with format and completes with the parsed value, streamed', async () => {
    server = await createFakeOllamaServer({ replies: [{ text: '{"city":"Oslo"}' }] });
    const model = createOllamaModel({ baseUrl: server.url, model: 'qwen3:8b' });
    const output = { jsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
    const stream = createHarness({ model, output }).streamTurn(createTurnInput({ text: 'Which city? JSON please.' }));
    for await (const _event of stream) {
      // drain
    }
    expect(await stream.result).toMatchObject({ outcome: 'completed', output: { city: 'Oslo' } });
    expect((server.requests[0]!.body as { format: unknown }).format).toMatchObject(output.jsonSchema);
  });

  it("fails the turn with tool_choice_unsupported for toolChoice 'required', sending nothing", async () => {
    server = await createFakeOllamaServer({ replies: [{ text: 'never' }] });
    const model = createOllamaModel({ baseUrl: server.url, model: 'qwen3:8b' });
    const result = await createHarness({ model, tools: weather }).runTurn(createTurnInput({ toolChoice: 'required' }));
    expect(result.outcome).toBe('failed');
    expect(result.metadata?.error).toMatchObject({ code: 'tool_choice_unsupported', retryable: false });
    expect(server.requests).toHaveLength(0);
  });
});
