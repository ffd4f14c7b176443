import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import { createFakeToolRegistry, createTurnInput } from '../../testing/index.js';
import { createFakeOpenAICompatibleServer, type FakeModelServer, type FakeServerScript } from '../../testing/node/index.js';
import { createOpenAICompatibleModel } from './create-openai-compatible-model.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function modelFor(replies: FakeServerScript[]) {
  server = await createFakeOpenAICompatibleServer({ replies });
  return { server, model: createOpenAICompatibleModel({ baseUrl: server.url, model: 'fake-model', retry: { maxRetries: 0 } }) };
}

type SentMessage = { role: string; content: unknown; reasoning_details?: unknown; tool_calls?: unknown[] };
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const weather = createFakeToolRegistry({ lookup_weather: ({ city }) => `Sunny in ${String(city)}` });

describe('chat completions under createHarness — issue 13 inputs', () => {
  it('sends history and an inline image as real messages', async () => {
    const { server, model } = await modelFor([{ text: 'That is a small PNG.' }]);
    const result = await createHarness({ model }).runTurn(
      createTurnInput({
        text: 'What is in this picture?',
        history: [
          { role: 'user', text: 'I will send you a picture.' },
          { role: 'assistant', text: 'Sure, send it.' },
        ],
        message: {
          id: 'm1',
          text: 'What is in this picture?',
          receivedAt: '2026-01-01T00:00:00.000Z',
          attachments: [{ id: 'pic', type: 'image', name: 'pixel.png', data: PNG, mediaType: 'image/png' }],
        },
      }),
    );
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'That is a small PNG.' } });
    const messages = (server.requests[0]!.body as { messages: SentMessage[] }).messages;
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(messages[1]!.content).toBe('I will send you a picture.');
    expect(messages[2]!.content).toBe('Sure, send it.');
    expect(messages[3]!.content).toEqual([
      { type: 'text', text: 'What is in this picture?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
    ]);
  });

  it('fails the turn with attachments_unsupported for a file by URL, sending nothing', async () => {
    const { server, model } = await modelFor([{ text: 'never' }]);
    const result = await createHarness({ model }).runTurn(
      createTurnInput({
        message: { id: 'm1', text: 'Summarise', receivedAt: '2026-01-01T00:00:00.000Z', attachments: [{ id: 'doc-1', type: 'file', name: 'report.pdf', url: 'https://example.com/report.pdf' }] },
      }),
    );
    expect(result.outcome).toBe('failed');
    expect(result.metadata?.error).toMatchObject({ code: 'attachments_unsupported', retryable: false });
    expect(result.metadata?.error?.message).toContain('"doc-1" (report.pdf)');
    expect(server.requests).toHaveLength(0);
  });

  it('streams reasoning deltas apart from the text, and replays reasoning_details in the tool loop', async () => {
    const { server, model } = await modelFor([
      { reasoning: 'I should look it up.', toolCalls: [{ id: 'call_1', name: 'lookup_weather', arguments: { city: 'Oslo' } }] },
      { reasoning: 'Now answer.', text: 'Sunny in Oslo.' },
    ]);
    const stream = createHarness({ model, tools: weather }).streamTurn(createTurnInput({ text: 'Weather in Oslo?', toolChoice: 'required' }));
    const reasoning: string[] = [];
    const text: string[] = [];
    for await (const event of stream) {
      if (event.type === 'reasoning_delta') reasoning.push(event.text);
      else if (event.type === 'text_delta') text.push(event.text);
    }
    const result = await stream.result;
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Sunny in Oslo.' } });
    expect(reasoning.join('')).toBe('I should look it up.Now answer.');
    expect(text.join('')).toBe('Sunny in Oslo.');
    expect((server.requests[0]!.body as { tool_choice: unknown }).tool_choice).toBe('required');
    const second = (server.requests[1]!.body as { messages: SentMessage[] }).messages;
    expect(second.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(second[2]).toMatchObject({
      reasoning_details: [{ type: 'reasoning.text', text: 'I should look it up.', signature: 'sig_fake_1', index: 0 }],
      tool_calls: [{ id: 'call_1' }],
    });
  });

  it('asks for a structured answer natively and completes with the parsed value', async () => {
    const { server, model } = await modelFor([{ text: '{"city":"Oslo","celsius":21}' }]);
    const output = {
      jsonSchema: { type: 'object', properties: { city: { type: 'string' }, celsius: { type: 'number' } }, required: ['city', 'celsius'] },
    };
    const result = await createHarness({ model, output }).runTurn(createTurnInput({ text: 'Weather in Oslo as JSON' }));
    expect(result).toMatchObject({ outcome: 'completed', output: { city: 'Oslo', celsius: 21 } });
    const body = server.requests[0]!.body as { response_format: { type: string; json_schema: { name: string; schema: unknown } } };
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema.schema).toMatchObject(output.jsonSchema);
  });
});
