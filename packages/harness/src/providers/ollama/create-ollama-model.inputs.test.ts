import { afterEach, describe, expect, it } from 'vitest';
import type { HarnessModelInput } from '../../core/types/model.js';
import { createFakeOllamaServer, type FakeModelServer, type FakeServerScript } from '../../testing/node/index.js';
import { createModelInput, weatherTool } from '../__fixtures__/create-model-input.js';
import { createOllamaModel } from './create-ollama-model.js';
import type { OllamaModelOptions } from './ollama-model-options.js';
import { collectStreamParts as collect } from '../__fixtures__/collect-stream-parts.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(replies: FakeServerScript[], options: Partial<OllamaModelOptions> = {}) {
  server = await createFakeOllamaServer({ replies });
  const model = createOllamaModel({ baseUrl: server.url, model: 'qwen3:8b', retry: { maxRetries: 0 }, ...options });
  return { server, model };
}


type SentBody = { messages: Record<string, unknown>[]; [key: string]: unknown };
const bodyOf = (index = 0) => server!.requests[index]!.body as SentBody;
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const message = (attachments: NonNullable<HarnessModelInput['message']['attachments']>) => ({ id: 'm', text: 'Look.', receivedAt: 'x', attachments });

describe('Ollama — history and images', () => {
  it('replays history before the message, with inline and data: URL images as base64 in images', async () => {
    const { model } = await setup([{ text: 'Two pixels.' }]);
    await model.nextStep(
      createModelInput({
        history: [
          { role: 'user', text: 'First picture.', attachments: [{ id: 'a', type: 'image', url: `data:image/png;base64,${PNG}` }] },
          { role: 'assistant', text: 'Got it.' },
        ],
        message: message([{ id: 'b', type: 'image', data: PNG, mediaType: 'image/png' }]),
      }),
    );
    expect(bodyOf().messages).toEqual([
      { role: 'system', content: 'You are a weather assistant.' },
      { role: 'user', content: 'First picture.', images: [PNG] },
      { role: 'assistant', content: 'Got it.' },
      { role: 'user', content: 'Look.', images: [PNG] },
    ]);
  });

  it.each<[string, Partial<HarnessModelInput>, RegExp]>([
    ['an image by URL', { message: message([{ id: 'remote', type: 'image', url: 'https://example.com/a.png' }]) }, /"remote".*not by URL/],
    ['a PDF', { message: message([{ id: 'doc', type: 'file', name: 'a.pdf', data: 'JVBERi0=', mediaType: 'application/pdf' }]) }, /"doc" \(a\.pdf\).*images only/],
    ['an attachment on an assistant message', { history: [{ role: 'assistant', text: 'x', attachments: [{ id: '__proto__', type: 'image', data: PNG, mediaType: 'image/png' }] }] }, /"__proto__".*assistant/],
  ])('refuses %s before sending (attachments_unsupported)', async (_name, overrides, reason) => {
    const { server, model } = await setup([{ text: 'never' }]);
    const output = await model.nextStep(createModelInput(overrides));
    expect(output).toMatchObject({ type: 'invalid', kind: 'provider_error', code: 'attachments_unsupported', retryable: false });
    expect(output.type === 'invalid' && output.reason).toMatch(reason);
    expect(server.requests).toHaveLength(0);
  });

  it('counts a huge inline image against maxInputBytes before sending', async () => {
    const { server, model } = await setup([{ text: 'never' }], { maxInputBytes: 50_000 });
    const output = await model.nextStep(createModelInput({ message: message([{ id: 'big', type: 'image', data: 'A'.repeat(80_000), mediaType: 'image/png' }]) }));
    expect(output).toMatchObject({ type: 'invalid', kind: 'input_too_large', retryable: false });
    expect(server.requests).toHaveLength(0);
  });
});

describe('Ollama — structured output, tool choice, thinking', () => {
  const jsonSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

  it('sends the schema as format (over an extraBody format) and returns the JSON text, JSON and streamed', async () => {
    const { model } = await setup([{ text: '{"city":"Oslo"}' }, { text: '{"city":"Bergen"}' }], { extraBody: { format: 'json' } });
    expect(await model.nextStep(createModelInput({ output: { name: 'report', jsonSchema } }))).toMatchObject({ type: 'final_answer', text: '{"city":"Oslo"}' });
    expect(bodyOf().format).toEqual(jsonSchema);
    const streamed = await collect(model.streamStep(createModelInput({ output: { name: 'report', jsonSchema } })));
    expect(streamed.output).toMatchObject({ type: 'final_answer', text: '{"city":"Bergen"}' });
    expect(bodyOf(1).format).toEqual(jsonSchema);
  });

  it("maps 'auto' (and none given) to the tools, 'none' to no tools", async () => {
    const { model } = await setup([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    await model.nextStep(createModelInput({ availableTools: [weatherTool] }));
    await model.nextStep(createModelInput({ availableTools: [weatherTool], toolChoice: 'auto' }));
    await model.nextStep(createModelInput({ availableTools: [weatherTool], toolChoice: 'none' }));
    expect(bodyOf(0).tools).toHaveLength(1);
    expect(bodyOf(1).tools).toHaveLength(1);
    expect(bodyOf(2)).not.toHaveProperty('tools');
    expect(bodyOf(2)).not.toHaveProperty('tool_choice');
  });

  it.each<HarnessModelInput['toolChoice']>(['required', { name: 'lookup_weather' }, { name: 'missing' }])('refuses tool choice %j before sending', async (toolChoice) => {
    const { server, model } = await setup([{ text: 'never' }]);
    const output = await model.nextStep(createModelInput({ availableTools: [weatherTool], toolChoice }));
    expect(output).toMatchObject({ type: 'invalid', kind: 'provider_error', code: 'tool_choice_unsupported', retryable: false });
    expect(server.requests).toHaveLength(0);
  });

  it('streams message.thinking as reasoning deltas and keeps it in output.reasoning, never in the text', async () => {
    const { model } = await setup([{ reasoning: 'Let me think.', text: 'Sunny.', deltaSize: 5 }, { reasoning: 'Quietly.', text: 'Done.' }]);
    const { deltas, reasoning, output } = await collect(model.streamStep(createModelInput()));
    expect(reasoning).toEqual(['Let m', 'e thi', 'nk.']);
    expect(deltas.join('')).toBe('Sunny.');
    expect(output).toMatchObject({ type: 'final_answer', text: 'Sunny.', reasoning: [{ provider: 'ollama', text: 'Let me think.' }] });
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'final_answer', text: 'Done.', reasoning: [{ provider: 'ollama', text: 'Quietly.' }] });
  });

  it('does not replay thinking in the next tool step', async () => {
    const { model } = await setup([{ text: 'ok' }]);
    await model.nextStep(
      createModelInput({
        availableTools: [weatherTool],
        transcript: [
          { type: 'assistant_step', iteration: 1, outputType: 'tool_request', calls: [{ id: 'c1', name: 'lookup_weather', input: { city: 'Oslo' } }], reasoning: [{ provider: 'ollama', text: 'hmm' }] },
          { type: 'tool_result', iteration: 1, result: { callId: 'c1', toolName: 'lookup_weather', status: 'success', output: 'Sunny' } },
        ],
      }),
    );
    expect(bodyOf().messages[2]).toEqual({ role: 'assistant', content: '', tool_calls: [{ id: 'c1', function: { name: 'lookup_weather', arguments: { city: 'Oslo' } } }] });
  });
});
