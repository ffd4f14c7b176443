import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import { createFakeToolRegistry, createTurnInput, memoryTraceSink } from '../../testing/index.js';
import { createFakeOpenAIResponsesServer, type FakeModelServer, type FakeServerScript } from '../../testing/node/index.js';
import { collectStreamParts as collect } from '../__fixtures__/collect-stream-parts.js';
import { createModelInput, weatherTool } from '../__fixtures__/create-model-input.js';
import { createOpenAIResponsesModel } from './create-openai-responses-model.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const key = 'sk-responses-recordings-123456';
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
/** The recorded stream, cut at places that fall inside event names, JSON strings and the blank lines between events. */
function cutStream(text: string): string[] {
  const cuts = [5, 17, 300, 301, 1_999, 4_000, 4_001, 6_543, text.length - 3];
  const chunks: string[] = [];
  let start = 0;
  for (const cut of cuts) {
    chunks.push(text.slice(start, cut));
    start = cut;
  }
  chunks.push(text.slice(start));
  return chunks;
}

async function setup(replies: FakeServerScript[]) {
  server = await createFakeOpenAIResponsesServer({ replies });
  return { server, model: createOpenAIResponsesModel({ baseUrl: server.url, apiKey: key, model: 'gpt-5-mini', retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2 } }) };
}

describe('createOpenAIResponsesModel — output items and events it does not read', () => {
  it('reads the function call of a step that also ran a hosted tool search (object `arguments`), skipping the search items with notes', async () => {
    const { server, model } = await setup([{ type: 'sse', chunks: cutStream(fixture('tool-search-then-function-call.sse.txt')) }]);
    const { reasoning, output } = await collect(model.streamStep(createModelInput({ availableTools: [weatherTool] })));
    expect(reasoning.join('')).toBe("**Finding the weather tool**\n\nThe search found lookup_weather; I'll call it for Oslo.");
    expect(output).toMatchObject({
      type: 'tool_request',
      calls: [{ id: 'call_Hq3VnW8pXk2LmR7tYb1sZc9d', name: 'lookup_weather', input: { city: 'Oslo' } }],
      usage: { inputTokens: 1250, cachedInputTokens: 1024, outputTokens: 210, reasoningTokens: 128 },
      reasoning: [{ provider: 'openai-responses', id: 'rs_0c5e1f9a8b7d6e5f03', data: expect.stringMatching(/^gAAAAAB/) }],
      notes: [
        'Skipped output item 0 of type "tool_search_call", which the adapter does not read.',
        'Skipped output item 1 of type "tool_search_output", which the adapter does not read.',
      ],
    });
    expect(server.requests).toHaveLength(1);
  });

  it('reads the answer of a JSON response with a hosted web search item and citations', async () => {
    const { model } = await setup([{ type: 'http', status: 200, body: JSON.parse(fixture('web-search-answer.json')) }]);
    expect(await model.nextStep(createModelInput())).toMatchObject({
      type: 'final_answer',
      text: 'Oslo is sunny today, around 21 °C.',
      usage: { inputTokens: 8120, outputTokens: 45 },
      notes: ['Skipped output item 0 of type "web_search_call", which the adapter does not read.'],
    });
  });

  it('runs the tool of the recorded step under createHarness, traces the notes, and sends the reasoning and call back with their ids', async () => {
    const answer = { id: 'resp_2', status: 'completed', output: [{ id: 'msg_2', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Sunny in Oslo.', annotations: [] }] }] };
    const { server, model } = await setup([
      { type: 'sse', chunks: cutStream(fixture('tool-search-then-function-call.sse.txt')) },
      { type: 'http', status: 200, body: answer },
    ]);
    const trace = memoryTraceSink();
    const tools = createFakeToolRegistry({ lookup_weather: ({ city }) => `Sunny in ${String(city)}` });
    const stream = createHarness({ model, tools, trace }).streamTurn(createTurnInput({ text: 'Weather in Oslo?' }));
    for await (const event of stream) void event;
    expect(await stream.result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Sunny in Oslo.' }, usage: { toolCalls: 1 } });
    const finished = trace.events.filter((event) => event.type === 'model_step_finished');
    expect(finished[0]).toMatchObject({ notes: [expect.stringContaining('"tool_search_call"'), expect.stringContaining('"tool_search_output"')] });
    expect(finished[1]).not.toHaveProperty('notes');
    const input = (server.requests[1]!.body as { input: { type: string; id?: string }[] }).input;
    expect(input.slice(1).map((item) => [item.type, item.id])).toEqual([
      ['reasoning', 'rs_0c5e1f9a8b7d6e5f03'],
      ['function_call', 'fc_0c5e1f9a8b7d6e5f04'],
      ['function_call_output', undefined],
    ]);
  });

  it('skips a stream event of a type it does not know, whatever its fields, with one note', async () => {
    const event = (type: string, fields: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
    const message = { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Sunny.', annotations: [] }] };
    const { model } = await setup([
      {
        type: 'sse',
        chunks: [
          event('response.output_item.added', { output_index: 0, item: { ...message, content: [] } }),
          event('response.future_tool.delta', { output_index: 0, delta: { query: 'weather' } }),
          event('response.future_tool.delta', { output_index: 0, delta: [1, 2] }),
          event('response.output_text.delta', { output_index: 0, content_index: 0, delta: 'Sunny.' }),
          event('response.completed', { response: { id: 'resp_1', status: 'completed', output: [message] } }),
        ],
      },
    ]);
    const { deltas, output } = await collect(model.streamStep(createModelInput()));
    expect(deltas).toEqual(['Sunny.']);
    expect(output).toMatchObject({ type: 'final_answer', text: 'Sunny.', notes: ['Skipped stream events of type "response.future_tool.delta", which the adapter does not read.'] });
  });

  it('skips a content part of another kind inside a message, with a note', async () => {
    const body = {
      status: 'completed',
      output: [{ type: 'message', id: 'msg_1', content: [{ type: 'output_audio', data: { bytes: 1 } }, { type: 'output_text', text: 'Sunny.' }] }],
    };
    const { model } = await setup([{ type: 'http', status: 200, body }]);
    expect(await model.nextStep(createModelInput())).toMatchObject({
      type: 'final_answer',
      text: 'Sunny.',
      notes: ['Skipped a content part of type "output_audio" in output item 0.'],
    });
  });

  it('still fails the step when a field it needs has the wrong type, naming the field', async () => {
    const { model } = await setup([
      { type: 'sse', chunks: ['event: response.output_text.delta\ndata: {"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":{"text":"Sunny"}}\n\n'] },
      { type: 'http', status: 200, body: { status: 'completed', output: [{ type: 'function_call', call_id: 'call_1', name: 'lookup_weather', arguments: { city: 'Oslo' } }] } },
    ]);
    expect((await collect(model.streamStep(createModelInput()))).output).toMatchObject({ type: 'invalid', kind: 'provider_error', reason: expect.stringContaining('delta') });
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'invalid', kind: 'provider_error', reason: expect.stringContaining('output.0.arguments') });
  });

  it('never lets a secret through a note (an item type naming the key)', async () => {
    const { model } = await setup([{ type: 'http', status: 200, body: { status: 'completed', output: [{ type: key }, { type: 'message', content: [{ type: 'output_text', text: 'Hi.' }] }] } }]);
    const output = await model.nextStep(createModelInput());
    expect(output).toMatchObject({ type: 'final_answer', notes: [expect.stringContaining('Skipped output item 0')] });
    expect(JSON.stringify(output)).not.toContain(key);
  });
});
