import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import { createFakeToolRegistry, createTurnInput } from '../../testing/index.js';
import { createFakeOpenAICompatibleServer, type FakeModelServer, type FakeServerScript } from '../../testing/node/index.js';
import { collectStreamParts as collect } from '../__fixtures__/collect-stream-parts.js';
import { createModelInput, weatherTool } from '../__fixtures__/create-model-input.js';
import { createOpenAICompatibleModel } from './create-openai-compatible-model.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
/** A recording cut into pieces at places inside JSON strings and between events. */
const cut = (text: string) => [text.slice(0, 9), text.slice(9, 250), text.slice(250, 251), text.slice(251, 777), text.slice(777)];

async function setup(replies: FakeServerScript[]) {
  server = await createFakeOpenAICompatibleServer({ replies });
  return { server, model: createOpenAICompatibleModel({ baseUrl: server.url, model: 'magistral-medium-latest', apiKey: 'test-key-abcdef', retry: { maxRetries: 0 } }) };
}

const thinking = 'Okay, the user asks for 17 divided by 2. That is 8.5.';

describe('createOpenAICompatibleModel — content as an array of parts (Mistral reasoning models)', () => {
  it('streams thinking parts as reasoning_delta and text parts as text_delta, keeping the thinking as reasoning', async () => {
    const { model } = await setup([{ type: 'sse', chunks: cut(fixture('mistral-magistral-thinking.chunks.txt')) }]);
    const { deltas, reasoning, output } = await collect(model.streamStep(createModelInput()));
    expect(reasoning).toEqual(['Okay, the user asks for 17 divided', ' by 2. That is ', '8.5.']);
    expect(deltas).toEqual(['17 ÷ 2 = ', '**8.5**']);
    expect(output).toMatchObject({
      type: 'final_answer',
      text: '17 ÷ 2 = **8.5**',
      reasoning: [{ provider: 'openai-compatible', text: thinking }],
      usage: { inputTokens: 412, outputTokens: 59 },
      metadata: { finishReason: 'stop', responseModel: 'magistral-medium-2509' },
    });
    expect(output).not.toHaveProperty('notes');
  });

  it('reads thinking and text parts of a non-streamed message', async () => {
    const { model } = await setup([{ type: 'http', status: 200, body: JSON.parse(fixture('mistral-magistral-thinking.json')) }]);
    expect(await model.nextStep(createModelInput())).toMatchObject({
      type: 'final_answer',
      text: 'Dolphins are highly intelligent marine mammals known for their playful behavior.',
      reasoning: [{ provider: 'openai-compatible', text: expect.stringMatching(/^Okay, I know that dolphins/) }],
    });
  });

  it('runs a streamed tool turn whose step thinks first: the call runs, the reasoning streams and stays on the transcript', async () => {
    const { server, model } = await setup([{ type: 'sse', chunks: cut(fixture('mistral-thinking-tool-call.chunks.txt')) }, { text: 'Sunny in Oslo.' }]);
    const tools = createFakeToolRegistry({ lookup_weather: ({ city }) => `Sunny in ${String(city)}` });
    const stream = createHarness({ model, tools }).streamTurn(createTurnInput({ text: 'Weather in Oslo?' }));
    const reasoning: string[] = [];
    for await (const event of stream) if (event.type === 'reasoning_delta') reasoning.push(event.text);
    const result = await stream.result;
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Sunny in Oslo.' }, usage: { toolCalls: 1 } });
    expect(reasoning.join('')).toBe('The user wants the weather in Oslo; I should call lookup_weather.');
    expect(result.transcript.find((item) => item.type === 'assistant_step')).toMatchObject({
      outputType: 'tool_request',
      calls: [{ id: 'D681PevKs', name: 'lookup_weather', input: { city: 'Oslo' } }],
      reasoning: [{ provider: 'openai-compatible', text: 'The user wants the weather in Oslo; I should call lookup_weather.' }],
    });
    // Thinking is not sent back; the call and its result are.
    const messages = (server.requests[1]!.body as { messages: { role: string; content?: unknown }[] }).messages;
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(JSON.stringify(messages)).not.toContain('I should call');
  });

  it('skips parts of other kinds (a Mistral reference chunk, an unknown thinking part) with a note, streamed or not', async () => {
    const chunk = (content: unknown, finish: string | null = null) => `data: ${JSON.stringify({ id: 'x', choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;
    const content = [
      { type: 'thinking', thinking: [{ type: 'text', text: 'Looking it up.' }, { type: 'signature', signature: 'abc' }] },
      { type: 'reference', reference_ids: [1, 2] },
      { type: 'text', text: 'Oslo is sunny.' },
    ];
    const { model } = await setup([
      { type: 'sse', chunks: [chunk(content), chunk('', 'stop'), 'data: [DONE]\n\n'] },
      { type: 'http', status: 200, body: { choices: [{ message: { role: 'assistant', content }, finish_reason: 'stop' }] } },
    ]);
    const expected = {
      type: 'final_answer',
      text: 'Oslo is sunny.',
      reasoning: [{ text: 'Looking it up.' }],
      notes: ['Skipped a thinking part of type "signature".', 'Skipped a content part of type "reference".'],
    };
    expect((await collect(model.streamStep(createModelInput()))).output).toMatchObject(expected);
    expect(await model.nextStep(createModelInput())).toMatchObject(expected);
  });

  it('still refuses a text part whose text is not a string (the answer is what it needs)', async () => {
    const { model } = await setup([{ type: 'sse', chunks: [`data: ${JSON.stringify({ choices: [{ delta: { content: [{ type: 'text', text: { value: 'x' } }] } }] })}\n\n`] }]);
    expect((await collect(model.streamStep(createModelInput({ availableTools: [weatherTool] })))).output).toMatchObject({ type: 'invalid', kind: 'provider_error' });
  });
});
