import { afterEach, describe, expect, it } from 'vitest';
import type { HarnessModelInput } from '../../core/types/model.js';
import { createFakeAnthropicServer, type FakeModelServer, type FakeServerScript } from '../../testing/node/index.js';
import { createModelInput, weatherTool } from '../__fixtures__/create-model-input.js';
import type { AnthropicModelOptions } from './anthropic-model-options.js';
import { createAnthropicModel } from './create-anthropic-model.js';
import { collectStreamParts as collect } from '../__fixtures__/collect-stream-parts.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(replies: FakeServerScript[], options: Partial<AnthropicModelOptions> = {}) {
  server = await createFakeAnthropicServer({ replies });
  const model = createAnthropicModel({ apiKey: 'sk-ant-test-0123456789', model: 'claude-test', maxTokens: 512, baseUrl: server.url, retry: { maxRetries: 0 }, ...options });
  return { server, model };
}


type Body = { messages: { role: string; content: Record<string, unknown>[] }[]; tools?: { name: string }[]; tool_choice?: unknown; system?: string };
const bodyOf = (index: number) => server!.requests[index]!.body as Body;
const forecast = { name: 'forecast', jsonSchema: { type: 'object', properties: { summary: { type: 'string' }, high: { type: 'number' } }, required: ['summary'] } };

describe('Anthropic history and attachments', () => {
  it('sends history as user/assistant messages before the message, with images by URL and inline and a PDF document', async () => {
    const { model } = await setup([{ text: 'A cat, then a report.' }]);
    await model.nextStep(
      createModelInput({
        history: [
          { role: 'user', text: 'What is this?', attachments: [{ id: 'cat', type: 'image', url: 'https://example.test/cat.jpg' }] },
          { role: 'assistant', text: 'A cat.' },
        ],
        message: {
          id: 'm2',
          text: 'And these?',
          receivedAt: '2026-01-01T00:00:00.000Z',
          attachments: [
            { id: 'dot', type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
            { id: 'report', type: 'file', name: 'report.pdf', url: 'data:application/pdf;base64,JVBERi0xLjQ=' },
          ],
        },
      }),
    );
    expect(bodyOf(0).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'url', url: 'https://example.test/cat.jpg' } },
          { type: 'text', text: 'What is this?' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'A cat.' }] },
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQ=' }, title: 'report.pdf' },
          { type: 'text', text: 'And these?' },
        ],
      },
    ]);
  });

  it('sends nothing for an attachment it cannot take, ending the step non-retryable attachments_unsupported, also when streaming', async () => {
    const { server, model } = await setup([]);
    const input = createModelInput({
      message: { id: 'm', text: 'Read this', receivedAt: '2026-01-01T00:00:00.000Z', attachments: [{ id: '__proto__', type: 'file', name: '__proto__', data: 'UEsDBA==', mediaType: 'application/zip' }] },
    });
    const expected = { type: 'invalid', kind: 'provider_error', code: 'attachments_unsupported', retryable: false, reason: expect.stringContaining('"__proto__" (__proto__)') };
    expect(await model.nextStep(input)).toMatchObject(expected);
    expect((await collect(model.streamStep(input))).output).toMatchObject(expected);
    expect(server.requests).toHaveLength(0);
  });

  it('counts a huge inline image against maxInputBytes before any call', async () => {
    const { server, model } = await setup([], { maxInputBytes: 64 * 1024 });
    const data = 'A'.repeat(200 * 1024);
    const output = await model.nextStep(
      createModelInput({ message: { id: 'm', text: 'Look', receivedAt: '2026-01-01T00:00:00.000Z', attachments: [{ id: 'big', type: 'image', data, mediaType: 'image/png' }] } }),
    );
    expect(output).toMatchObject({ type: 'invalid', kind: 'input_too_large', retryable: false });
    expect(output.type === 'invalid' && output.reason).toMatch(/would be \d{6} bytes, more than maxInputBytes \(65536\)/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('Anthropic tool choice', () => {
  it.each<[HarnessModelInput['toolChoice'], unknown]>([
    ['auto', { type: 'auto' }],
    ['required', { type: 'any' }],
    ['none', { type: 'none' }],
    [{ name: 'lookup_weather' }, { type: 'tool', name: 'lookup_weather' }],
  ])('sends %j as tool_choice %j', async (toolChoice, expected) => {
    const { model } = await setup([{ text: 'ok' }]);
    await model.nextStep(createModelInput({ availableTools: [weatherTool], toolChoice }));
    expect(bodyOf(0)).toMatchObject({ tools: [{ name: 'lookup_weather' }], tool_choice: expected });
  });

  it('sends no tool choice without tools, and refuses an unknown tool or a forced choice with thinking, sending nothing', async () => {
    const { server, model } = await setup([{ text: 'ok' }]);
    await model.nextStep(createModelInput({ toolChoice: 'none' }));
    expect(bodyOf(0)).not.toHaveProperty('tool_choice');
    expect(bodyOf(0)).not.toHaveProperty('tools');
    expect(await model.nextStep(createModelInput({ availableTools: [weatherTool], toolChoice: { name: 'delete_all' } }))).toMatchObject({
      type: 'invalid',
      code: 'tool_choice_unsupported',
      retryable: false,
    });
    const thinking = createAnthropicModel({ apiKey: 'sk-ant-test-0123456789', model: 'claude-test', maxTokens: 2048, baseUrl: server.url, extraBody: { thinking: { type: 'enabled', budget_tokens: 1024 } } });
    expect(await thinking.nextStep(createModelInput({ availableTools: [weatherTool], toolChoice: 'required' }))).toMatchObject({ code: 'tool_choice_unsupported' });
    expect(server.requests).toHaveLength(1);
  });
});

describe('Anthropic structured output through an answer tool', () => {
  it('forces the answer tool and maps its input to a final answer with value (JSON)', async () => {
    const { model } = await setup([{ toolCalls: [{ id: 'toolu_out', name: 'forecast', arguments: { summary: 'Sunny', high: 21 } }] }]);
    const output = await model.nextStep(createModelInput({ output: { ...forecast, description: 'The forecast.' } }));
    expect(output).toMatchObject({
      type: 'final_answer',
      text: '{"summary":"Sunny","high":21}',
      value: { summary: 'Sunny', high: 21 },
      metadata: { finishReason: 'stop', rawFinishReason: 'tool_use' },
    });
    expect(bodyOf(0)).toMatchObject({
      tools: [{ name: 'forecast', description: 'Give your final answer by calling this tool: its input is the answer. The forecast.', input_schema: forecast.jsonSchema }],
      tool_choice: { type: 'tool', name: 'forecast' },
    });
  });

  it('streams the answer tool into a final answer, and asks for any tool when real tools are offered', async () => {
    const { model } = await setup([{ text: 'Here.', toolCalls: [{ id: 'toolu_out', name: 'forecast', arguments: { summary: 'Rain' } }], deltaSize: 3 }]);
    const { deltas, output } = await collect(model.streamStep(createModelInput({ availableTools: [weatherTool], output: forecast })));
    expect(output).toMatchObject({ type: 'final_answer', text: '{"summary":"Rain"}', value: { summary: 'Rain' } });
    expect(deltas.join('')).toBe('Here.');
    expect(bodyOf(0)).toMatchObject({ tools: [{ name: 'lookup_weather' }, { name: 'forecast' }], tool_choice: { type: 'any' }, stream: true });
  });

  it('runs other tools first when the model calls them with the answer tool', async () => {
    const { model } = await setup([
      {
        toolCalls: [
          { id: 'toolu_w', name: 'lookup_weather', arguments: { city: 'Oslo' } },
          { id: 'toolu_out', name: 'forecast', arguments: { summary: 'guess' } },
        ],
      },
    ]);
    expect(await model.nextStep(createModelInput({ availableTools: [weatherTool], output: forecast }))).toMatchObject({
      type: 'tool_request',
      calls: [{ id: 'toolu_w', name: 'lookup_weather', input: { city: 'Oslo' } }],
    });
  });

  it('with thinking enabled offers the answer tool with auto and tells the model in system', async () => {
    const { model } = await setup([{ reasoning: 'Answer.', toolCalls: [{ name: 'forecast', arguments: { summary: 'Fog' } }] }], {
      maxTokens: 4096,
      extraBody: { thinking: { type: 'enabled', budget_tokens: 1024 } },
    });
    expect(await model.nextStep(createModelInput({ output: forecast }))).toMatchObject({ type: 'final_answer', value: { summary: 'Fog' }, reasoning: [{ provider: 'anthropic', text: 'Answer.' }] });
    expect(bodyOf(0)).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tool_choice: { type: 'auto' },
      system: 'You are a weather assistant.\n\nWhen you have the final answer, give it by calling the tool "forecast" with the answer as its input; do not answer in plain text.',
    });
  });

  it('refuses an answer tool named like a real tool, sending nothing', async () => {
    const { server, model } = await setup([]);
    expect(await model.nextStep(createModelInput({ availableTools: [weatherTool], output: { ...forecast, name: 'lookup_weather' } }))).toMatchObject({
      type: 'invalid',
      code: 'output_unsupported',
      retryable: false,
    });
    expect(server.requests).toHaveLength(0);
  });
});
