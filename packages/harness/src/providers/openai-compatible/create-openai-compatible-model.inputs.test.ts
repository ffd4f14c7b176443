import { afterEach, describe, expect, it } from 'vitest';
import type { HarnessModelInput } from '../../core/types/model.js';
import type { HarnessAttachment } from '../../shared/types/turn-input.js';
import { createFakeOpenAICompatibleServer, type FakeModelServer, type FakeServerScript } from '../../testing/node/index.js';
import { createModelInput, weatherTool } from '../__fixtures__/create-model-input.js';
import { createOpenAICompatibleModel } from './create-openai-compatible-model.js';
import type { OpenAICompatibleModelOptions } from './openai-compatible-model-options.js';
import { collectStreamParts as collect } from '../__fixtures__/collect-stream-parts.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(replies: FakeServerScript[], options: Partial<OpenAICompatibleModelOptions> = {}) {
  server = await createFakeOpenAICompatibleServer({ replies });
  const model = createOpenAICompatibleModel({ baseUrl: server.url, model: 'fake-model', retry: { maxRetries: 0 }, ...options });
  return { server, model };
}


type SentBody = { messages: { role: string; content: unknown; reasoning_details?: unknown }[]; [key: string]: unknown };
const bodyOf = (index = 0) => server!.requests[index]!.body as SentBody;

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const image = (overrides: Partial<HarnessAttachment> = {}): HarnessAttachment => ({ id: 'img-1', type: 'image', data: PNG, mediaType: 'image/png', ...overrides });

describe('chat completions — history and attachments', () => {
  it('replays history as role messages before the message, with images by URL and inline, and a PDF as a file part', async () => {
    const { model } = await setup([{ text: 'A cat and a dog.' }]);
    const output = await model.nextStep(
      createModelInput({
        history: [
          { role: 'user', text: 'Here is my cat.', attachments: [{ id: 'cat', type: 'image', url: 'https://example.com/cat.jpg' }] },
          { role: 'assistant', text: 'Nice cat!' },
        ],
        message: {
          id: 'm2',
          text: 'And my dog, plus the vet bill.',
          receivedAt: '2026-01-01T00:00:00.000Z',
          attachments: [image(), { id: 'bill', type: 'file', name: 'bill.pdf', data: 'JVBERi0xLjQK', mediaType: 'application/pdf' }],
        },
      }),
    );
    expect(output).toMatchObject({ type: 'final_answer', text: 'A cat and a dog.' });
    expect(bodyOf().messages).toEqual([
      { role: 'system', content: 'You are a weather assistant.' },
      { role: 'user', content: [{ type: 'text', text: 'Here is my cat.' }, { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } }] },
      { role: 'assistant', content: 'Nice cat!' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'And my dog, plus the vet bill.' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          { type: 'file', file: { filename: 'bill.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQK' } },
        ],
      },
    ]);
  });

  it('passes a data: URL image through and keeps plain string content without attachments', async () => {
    const { model } = await setup([{ text: 'ok' }]);
    const url = `data:image/png;base64,${PNG}`;
    await model.nextStep(createModelInput({ message: { id: 'm', text: '', receivedAt: 'x', attachments: [{ id: 'a', type: 'file', url }] } }));
    expect(bodyOf().messages[1]).toEqual({ role: 'user', content: [{ type: 'image_url', image_url: { url } }] });
    await server!.close();
    const plain = await setup([{ text: 'ok' }]);
    await plain.model.nextStep(createModelInput({ history: [{ role: 'user', text: 'Hi' }] }));
    expect(bodyOf().messages.slice(1)).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'user', content: 'What is the weather in Oslo?' },
    ]);
  });

  it.each<[string, Partial<HarnessModelInput>, RegExp]>([
    ['a file by URL', { message: { id: 'm', text: 'x', receivedAt: 'x', attachments: [{ id: 'doc', type: 'file', name: 'a.pdf', url: 'https://example.com/a.pdf' }] } }, /"doc" \(a\.pdf\).*not by URL/],
    ['an image by a non-http URL', { message: { id: 'm', text: 'x', receivedAt: 'x', attachments: [{ id: 'ftp', type: 'image', url: 'ftp://example.com/a.png' }] } }, /"ftp".*only http\(s\): and data: URLs/],
    ['an attachment without url or data', { message: { id: 'm', text: 'x', receivedAt: 'x', attachments: [{ id: 'empty', type: 'image' }] } }, /"empty"/],
    ['an attachment on an assistant history message', { history: [{ role: 'assistant', text: 'x', attachments: [image({ id: 'said' })] }] }, /"said".*assistant/],
    ['a file by URL in history', { history: [{ role: 'user', text: 'x', attachments: [{ id: '__proto__', type: 'file', url: 'https://example.com/x.docx' }] }] }, /"__proto__"/],
  ])('refuses %s before sending: invalid, attachments_unsupported, not retryable', async (_name, overrides, reason) => {
    const { server, model } = await setup([{ text: 'never' }]);
    const output = await model.nextStep(createModelInput(overrides));
    expect(output).toMatchObject({ type: 'invalid', kind: 'provider_error', code: 'attachments_unsupported', retryable: false });
    expect(output.type === 'invalid' && output.reason).toMatch(reason);
    expect(server.requests).toHaveLength(0);
  });

  it('counts a huge inline image against maxInputBytes before sending', async () => {
    const { server, model } = await setup([{ text: 'never' }], { maxInputBytes: 100_000 });
    const big = 'A'.repeat(200_000);
    const output = await model.nextStep(createModelInput({ message: { id: 'm', text: 'x', receivedAt: 'x', attachments: [image({ data: big })] } }));
    expect(output).toMatchObject({ type: 'invalid', kind: 'input_too_large', retryable: false, metadata: { maxInputBytes: 100_000 } });
    expect(server.requests).toHaveLength(0);
  });

  it('names a hostile attachment id as a filename without touching prototypes', async () => {
    const { model } = await setup([{ text: 'ok' }]);
    await model.nextStep(createModelInput({ message: { id: 'm', text: 'x', receivedAt: 'x', attachments: [{ id: '__proto__', type: 'file', data: 'JVBERi0=', mediaType: 'application/pdf' }] } }));
    expect(bodyOf().messages[1]!.content).toEqual([
      { type: 'text', text: 'x' },
      { type: 'file', file: { filename: '__proto__', file_data: 'data:application/pdf;base64,JVBERi0=' } },
    ]);
  });
});

describe('chat completions — structured output and tool choice', () => {
  const output = { name: 'weather_report', description: 'The report.', jsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

  it('asks with response_format json_schema (no strict) and returns the JSON text, JSON and streamed', async () => {
    const { model } = await setup([{ text: '{"city":"Oslo"}' }, { text: '{"city":"Bergen"}', deltaSize: 5 }], { extraBody: { response_format: { type: 'json_object' } } });
    expect(await model.nextStep(createModelInput({ output }))).toMatchObject({ type: 'final_answer', text: '{"city":"Oslo"}' });
    expect(bodyOf().response_format).toEqual({ type: 'json_schema', json_schema: { name: 'weather_report', schema: output.jsonSchema, description: 'The report.' } });
    const streamed = await collect(model.streamStep(createModelInput({ output: { name: 'r', jsonSchema: output.jsonSchema } })));
    expect(streamed.deltas.join('')).toBe('{"city":"Bergen"}');
    expect(streamed.output).toMatchObject({ type: 'final_answer', text: '{"city":"Bergen"}' });
    expect(bodyOf(1).response_format).toEqual({ type: 'json_schema', json_schema: { name: 'r', schema: output.jsonSchema } });
  });

  it('keeps extraBody.response_format when the turn has no output schema', async () => {
    const { model } = await setup([{ text: '{}' }], { extraBody: { response_format: { type: 'json_object' } } });
    await model.nextStep(createModelInput());
    expect(bodyOf().response_format).toEqual({ type: 'json_object' });
  });

  it.each<[HarnessModelInput['toolChoice'], unknown]>([
    [undefined, 'auto'],
    ['auto', 'auto'],
    ['none', 'none'],
    ['required', 'required'],
    [{ name: 'lookup_weather' }, { type: 'function', function: { name: 'lookup_weather' } }],
  ])('maps tool choice %j to tool_choice %j', async (toolChoice, sent) => {
    const { model } = await setup([{ text: 'ok' }]);
    await model.nextStep(createModelInput({ availableTools: [weatherTool], toolChoice }));
    expect(bodyOf().tool_choice).toEqual(sent);
    expect(bodyOf().tools).toHaveLength(1);
  });

  it("with namedToolChoice 'required' sends a named choice as 'required' over that tool alone, for servers that read only string choices (llama.cpp)", async () => {
    const otherTool = { name: 'lookup_time', inputSchema: { type: 'object', properties: {} } };
    const { model } = await setup([{ toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }] }, { text: 'ok', deltaSize: 1 }, { text: 'ok' }], { namedToolChoice: 'required' });
    const tools = [otherTool, weatherTool];
    expect(await model.nextStep(createModelInput({ availableTools: tools, toolChoice: { name: 'lookup_weather' } }))).toMatchObject({ type: 'tool_request' });
    expect(bodyOf().tool_choice).toBe('required');
    expect((bodyOf().tools as { function: { name: string } }[]).map((tool) => tool.function.name)).toEqual(['lookup_weather']);
    await collect(model.streamStep(createModelInput({ availableTools: tools, toolChoice: { name: 'lookup_weather' } })));
    expect(bodyOf(1)).toMatchObject({ stream: true, tool_choice: 'required', tools: [{ function: { name: 'lookup_weather' } }] });
    // Other choices are sent as they are, with every tool.
    await model.nextStep(createModelInput({ availableTools: tools, toolChoice: 'required' }));
    expect(bodyOf(2)).toMatchObject({ tool_choice: 'required' });
    expect(bodyOf(2).tools).toHaveLength(2);
    expect(() => createOpenAICompatibleModel({ baseUrl: server!.url, model: 'm', namedToolChoice: 'object' as never })).toThrow(/namedToolChoice/);
  });

  it('sends no tool choice without tools, and refuses a named tool that is not offered', async () => {
    const { server, model } = await setup([{ text: 'ok' }, { text: 'never' }]);
    await model.nextStep(createModelInput({ toolChoice: 'required' }));
    expect(bodyOf()).not.toHaveProperty('tool_choice');
    expect(bodyOf()).not.toHaveProperty('tools');
    for (const toolChoice of [{ name: 'missing' }, { name: '__proto__' }] as const) {
      const refused = await model.nextStep(createModelInput({ availableTools: [weatherTool], toolChoice }));
      expect(refused).toMatchObject({ type: 'invalid', kind: 'provider_error', code: 'tool_choice_unsupported', retryable: false });
    }
    expect(server.requests).toHaveLength(1);
  });
});

describe('chat completions — reasoning', () => {
  it('streams OpenRouter reasoning as reasoning deltas and keeps reasoning_details for replay', async () => {
    const { model } = await setup([{ reasoning: 'Check the weather tool.', text: 'Sunny.', deltaSize: 8 }]);
    const { deltas, reasoning, output } = await collect(model.streamStep(createModelInput()));
    expect(reasoning.join('')).toBe('Check the weather tool.');
    expect(deltas.join('')).toBe('Sunny.');
    expect(output).toMatchObject({ type: 'final_answer', text: 'Sunny.' });
    expect(output.reasoning).toHaveLength(1);
    const part = output.reasoning![0]!;
    expect(part).toMatchObject({ provider: 'openai-compatible', text: 'Check the weather tool.' });
    expect(JSON.parse(part.data!)).toEqual([{ type: 'reasoning.text', text: 'Check the weather tool.', signature: 'sig_fake_1', format: 'anthropic-claude-v1', index: 0 }]);
  });

  it('reads non-streamed reasoning (OpenRouter) and DeepSeek reasoning_content, never into the text', async () => {
    const deepSeek: FakeServerScript = {
      type: 'http',
      status: 200,
      body: { id: 'd1', choices: [{ message: { role: 'assistant', content: 'Four.', reasoning_content: '2+2 is 4.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 9, completion_tokens_details: { reasoning_tokens: 6 } } },
    };
    const { model } = await setup([{ reasoning: 'Thinking hard.', text: 'Done.' }, deepSeek]);
    const openRouter = await model.nextStep(createModelInput());
    expect(openRouter).toMatchObject({ type: 'final_answer', text: 'Done.', reasoning: [{ provider: 'openai-compatible', text: 'Thinking hard.' }] });
    const answer = await model.nextStep(createModelInput());
    expect(answer).toMatchObject({ type: 'final_answer', text: 'Four.', usage: { reasoningTokens: 6 }, reasoning: [{ provider: 'openai-compatible', text: '2+2 is 4.' }] });
    expect(answer.reasoning![0]!.data).toBeUndefined();
  });

  it('streams DeepSeek delta.reasoning_content as reasoning deltas', async () => {
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => `data: ${JSON.stringify({ id: 'd', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const { model } = await setup([{ type: 'sse', chunks: [chunk({ role: 'assistant', reasoning_content: 'Hmm, ' }), chunk({ reasoning_content: 'four.' }), chunk({ content: '4' }), chunk({}, 'stop'), 'data: [DONE]\n\n'] }]);
    const { deltas, reasoning, output } = await collect(model.streamStep(createModelInput()));
    expect(reasoning).toEqual(['Hmm, ', 'four.']);
    expect(deltas).toEqual(['4']);
    expect(output).toMatchObject({ type: 'final_answer', text: '4', reasoning: [{ provider: 'openai-compatible', text: 'Hmm, four.' }] });
  });

  it('replays reasoning_details on the tool step in the next request; plain reasoning and other providers are not sent back', async () => {
    const { model } = await setup([{ reasoning: 'Use the tool.', toolCalls: [{ id: 'call_1', name: 'lookup_weather', arguments: { city: 'Oslo' } }] }, { text: 'Sunny.' }]);
    const first = await model.nextStep(createModelInput({ availableTools: [weatherTool] }));
    expect(first.type).toBe('tool_request');
    const calls = first.type === 'tool_request' ? first.calls : [];
    await model.nextStep(
      createModelInput({
        availableTools: [weatherTool],
        transcript: [
          { type: 'assistant_step', iteration: 1, outputType: 'final_answer', text: 'Earlier.', reasoning: [{ provider: 'openai-compatible', text: 'plain' }, { provider: 'anthropic', text: 't', signature: 's' }] },
          { type: 'assistant_step', iteration: 1, outputType: 'tool_request', calls, ...(first.reasoning === undefined ? {} : { reasoning: first.reasoning }) },
          { type: 'tool_result', iteration: 1, result: { callId: 'call_1', toolName: 'lookup_weather', status: 'success', output: 'Sunny' } },
        ],
      }),
    );
    const messages = bodyOf(1).messages;
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'assistant', 'tool']);
    expect(messages[2]).toEqual({ role: 'assistant', content: 'Earlier.' });
    expect(messages[3]).toMatchObject({
      role: 'assistant',
      content: null,
      reasoning_details: [{ type: 'reasoning.text', text: 'Use the tool.', signature: 'sig_fake_1', format: 'anthropic-claude-v1', index: 0 }],
      tool_calls: [{ id: 'call_1' }],
    });
  });
});
