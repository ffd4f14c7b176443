import { afterEach, describe, expect, it } from 'vitest';
import type { HarnessModelAdapter, HarnessModelInput, HarnessModelOutput, HarnessModelStreamPart } from '../core/types/model.js';
import type { HarnessToolChoice } from '../shared/types/turn-input.js';
import { createFakeGeminiServer, createFakeOpenAIResponsesServer, type FakeModelServer, type FakeServerScript } from '../testing/node/index.js';
import { createModelInput, weatherTool } from './__fixtures__/create-model-input.js';
import { createGeminiModel } from './gemini/create-gemini-model.js';
import type { GeminiModelOptions } from './gemini/gemini-model-options.js';
import { createOpenAIResponsesModel } from './openai-responses/create-openai-responses-model.js';
import type { OpenAIResponsesModelOptions } from './openai-responses/openai-responses-model-options.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PDF = 'JVBERi0xLjQKJcOkw7zDtsOfCg==';
const receivedAt = '2026-01-01T00:00:00.000Z';
const answerSchema = { type: 'object', properties: { city: { type: 'string' }, sunny: { type: 'boolean' } }, required: ['city', 'sunny'] };
const output = { name: 'weather_answer', description: 'The weather.', jsonSchema: answerSchema };
const searchTool = { name: 'search', description: 'Searches.', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } };

async function responses(replies: FakeServerScript[], options: Partial<OpenAIResponsesModelOptions> = {}) {
  server = await createFakeOpenAIResponsesServer({ replies });
  return { server, model: createOpenAIResponsesModel({ baseUrl: server.url, apiKey: 'sk-test-inputs', model: 'gpt-5-mini', ...options }) };
}

async function gemini(replies: FakeServerScript[], options: Partial<GeminiModelOptions> = {}) {
  server = await createFakeGeminiServer({ replies });
  return { server, model: createGeminiModel({ baseUrl: server.url, apiKey: 'gemini-test-inputs', model: 'gemini-2.5-flash', ...options }) };
}

async function collect(model: HarnessModelAdapter, input: HarnessModelInput) {
  const parts: HarnessModelStreamPart[] = [];
  for await (const part of model.streamStep!(input)) parts.push(part);
  const outputs = parts.flatMap((part) => (part.type === 'output' ? [part.output] : []));
  expect(outputs).toHaveLength(1);
  return {
    text: parts.flatMap((part) => (part.type === 'text_delta' ? [part.text] : [])),
    reasoning: parts.flatMap((part) => (part.type === 'reasoning_delta' ? [part.text] : [])),
    output: outputs[0]!,
  };
}

/** The input with history and a message carrying an image by URL, an inline image, an inline file and a file by URL. */
function withAttachments(): HarnessModelInput {
  return createModelInput({
    history: [
      { role: 'user', text: 'Remember this chart.', attachments: [{ id: 'chart', type: 'image', url: 'https://example.com/chart.png', mediaType: 'image/png' }] },
      { role: 'assistant', text: 'Noted: rain on Monday.' },
    ],
    message: {
      id: 'm1',
      text: 'And these?',
      receivedAt,
      attachments: [
        { id: 'photo', type: 'image', data: PNG, mediaType: 'image/png' },
        { id: '__proto__', type: 'file', name: '__proto__', data: PDF, mediaType: 'application/pdf' },
        { id: 'remote', type: 'file', url: 'https://example.com/report.pdf', mediaType: 'application/pdf' },
      ],
    },
  });
}

function sentBody(at = 0): Record<string, unknown> {
  return server!.requests[at]!.body as Record<string, unknown>;
}

describe('OpenAI Responses — history, attachments, structured output, tool choice, reasoning', () => {
  it('sends history as role messages before the message, and attachments as input_image / input_file parts', async () => {
    const { model } = await responses([{ text: 'Both show rain.' }]);
    expect(await model.nextStep(withAttachments())).toMatchObject({ type: 'final_answer', text: 'Both show rain.' });
    expect(sentBody().input).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'Remember this chart.' },
          { type: 'input_image', image_url: 'https://example.com/chart.png', detail: 'auto' },
        ],
      },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Noted: rain on Monday.' }] },
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'And these?' },
          { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
          { type: 'input_file', filename: '__proto__', file_data: `data:application/pdf;base64,${PDF}` },
          { type: 'input_file', file_url: 'https://example.com/report.pdf' },
        ],
      },
    ]);
  });

  it('refuses an attachment on an assistant history message before sending (attachments_unsupported, not retryable)', async () => {
    const { server, model } = await responses([{ text: 'never' }]);
    const input = createModelInput({ history: [{ role: 'assistant', text: 'Here.', attachments: [{ id: 'drawn', type: 'image', url: 'https://example.com/d.png' }] }] });
    expect(await model.nextStep(input)).toMatchObject({ type: 'invalid', kind: 'provider_error', code: 'attachments_unsupported', retryable: false });
    expect((await collect(model, input)).output).toMatchObject({ type: 'invalid', code: 'attachments_unsupported' });
    expect(server.requests).toHaveLength(0);
  });

  it('counts a huge inline image against maxInputBytes and sends nothing', async () => {
    const { server, model } = await responses([{ text: 'never' }], { maxInputBytes: 64 * 1024 });
    const input = createModelInput({ message: { id: 'm1', text: 'Look.', receivedAt, attachments: [{ id: 'big', type: 'image', data: 'A'.repeat(200_000), mediaType: 'image/png' }] } });
    expect(await model.nextStep(input)).toMatchObject({ type: 'invalid', kind: 'input_too_large', retryable: false });
    expect(server.requests).toHaveLength(0);
  });

  it('asks for structured output with text.format json_schema (keeping other extraBody.text fields), JSON and streamed', async () => {
    const json = '{"city":"Oslo","sunny":true}';
    const { model } = await responses([{ text: json }, { text: json, deltaSize: 5 }], { extraBody: { text: { verbosity: 'low', format: { type: 'text' } } } });
    expect(await model.nextStep(createModelInput({ output }))).toEqual(expect.objectContaining({ type: 'final_answer', text: json }));
    expect(sentBody().text).toEqual({ verbosity: 'low', format: { type: 'json_schema', name: 'weather_answer', description: 'The weather.', schema: answerSchema } });
    const streamed = await collect(model, createModelInput({ output }));
    expect(streamed.text.join('')).toBe(json);
    expect(streamed.output).toMatchObject({ type: 'final_answer', text: json });
    expect(sentBody(1)).toMatchObject({ stream: true, text: { format: { type: 'json_schema', name: 'weather_answer' } } });
  });

  it.each<[HarnessToolChoice, unknown]>([
    ['auto', 'auto'],
    ['none', 'none'],
    ['required', 'required'],
    [{ name: 'search' }, { type: 'function', name: 'search' }],
  ])('maps toolChoice %j to tool_choice', async (toolChoice, wire) => {
    const { model } = await responses([{ text: 'ok' }]);
    await model.nextStep(createModelInput({ availableTools: [weatherTool, searchTool], toolChoice }));
    expect(sentBody().tool_choice).toEqual(wire);
  });

  it('sends no tool_choice without tools, and refuses a tool choice naming a tool not offered (tool_choice_unsupported)', async () => {
    const { server, model } = await responses([{ text: 'ok' }]);
    await model.nextStep(createModelInput({ toolChoice: 'required' }));
    expect(sentBody().tool_choice).toBeUndefined();
    const refused = await model.nextStep(createModelInput({ availableTools: [weatherTool], toolChoice: { name: '__proto__' } }));
    expect(refused).toMatchObject({ type: 'invalid', kind: 'provider_error', code: 'tool_choice_unsupported', retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('streams reasoning summaries as reasoning_delta (never as text) with reasoning tokens, and keeps the items for replay', async () => {
    const { model } = await responses([{ reasoning: 'Rain is likely.', text: 'Bring an umbrella.', deltaSize: 5, usage: { inputTokens: 10, outputTokens: 30, reasoningTokens: 20 } }], {
      reasoningEffort: 'low',
    });
    const streamed = await collect(model, createModelInput());
    expect(streamed.reasoning).toEqual(['Rain ', 'is li', 'kely.']);
    expect(streamed.text.join('')).toBe('Bring an umbrella.');
    expect(streamed.output).toMatchObject({
      type: 'final_answer',
      usage: { reasoningTokens: 20 },
      reasoning: [{ provider: 'openai-responses', id: 'rs_fake_1', text: 'Rain is likely.', data: 'gAAAAB_fake_1', signature: JSON.stringify([{ type: 'message', id: 'msg_fake_1' }]) }],
    });
  });
});

describe('Gemini — history, attachments, structured output, tool choice, reasoning', () => {
  it('sends history as user / model contents before the message, and attachments as fileData / inlineData parts', async () => {
    const { model } = await gemini([{ text: 'Both show rain.' }]);
    expect(await model.nextStep(withAttachments())).toMatchObject({ type: 'final_answer', text: 'Both show rain.' });
    expect(sentBody().contents).toEqual([
      { role: 'user', parts: [{ text: 'Remember this chart.' }, { fileData: { mimeType: 'image/png', fileUri: 'https://example.com/chart.png' } }] },
      { role: 'model', parts: [{ text: 'Noted: rain on Monday.' }] },
      {
        role: 'user',
        parts: [
          { text: 'And these?' },
          { inlineData: { mimeType: 'image/png', data: PNG } },
          { inlineData: { mimeType: 'application/pdf', data: PDF } },
          { fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/report.pdf' } },
        ],
      },
    ]);
  });

  it('refuses a URL attachment without a media type before sending (attachments_unsupported, not retryable)', async () => {
    const { server, model } = await gemini([{ text: 'never' }]);
    const input = createModelInput({ message: { id: 'm1', text: 'Read it.', receivedAt, attachments: [{ id: 'doc', type: 'file', url: 'https://example.com/doc' }] } });
    const refused = await model.nextStep(input);
    expect(refused).toMatchObject({ type: 'invalid', kind: 'provider_error', code: 'attachments_unsupported', retryable: false });
    expect(refused.type === 'invalid' && refused.reason).toContain('"doc"');
    expect((await collect(model, input)).output).toMatchObject({ type: 'invalid', code: 'attachments_unsupported' });
    expect(server.requests).toHaveLength(0);
  });

  it('counts a huge inline image against maxInputBytes and sends nothing', async () => {
    const { server, model } = await gemini([{ text: 'never' }], { maxInputBytes: 64 * 1024 });
    const input = createModelInput({ message: { id: 'm1', text: 'Look.', receivedAt, attachments: [{ id: 'big', type: 'image', data: 'A'.repeat(200_000), mediaType: 'image/png' }] } });
    expect(await model.nextStep(input)).toMatchObject({ type: 'invalid', kind: 'input_too_large', retryable: false });
    expect(server.requests).toHaveLength(0);
  });

  it('asks for structured output with responseMimeType + responseJsonSchema (a configured responseSchema gives way), JSON and streamed', async () => {
    const json = '{"city":"Oslo","sunny":true}';
    const { model } = await gemini([{ text: json }, { text: json, deltaSize: 5 }], {
      temperature: 0.2,
      generationConfig: { responseSchema: { type: 'STRING' }, responseMimeType: 'text/plain', topP: 0.9 },
    });
    expect(await model.nextStep(createModelInput({ output }))).toEqual(expect.objectContaining({ type: 'final_answer', text: json }));
    expect(sentBody().generationConfig).toEqual({ topP: 0.9, temperature: 0.2, responseMimeType: 'application/json', responseJsonSchema: answerSchema });
    const streamed = await collect(model, createModelInput({ output }));
    expect(streamed.text.join('')).toBe(json);
    expect(streamed.output).toMatchObject({ type: 'final_answer', text: json });
    expect(sentBody(1).generationConfig).toMatchObject({ responseMimeType: 'application/json', responseJsonSchema: answerSchema });
  });

  it('in a step with tools asks for the schema in systemInstruction (Gemini 2.5 refuses JSON with function calling), natively with structuredOutputWithTools', async () => {
    const { server, model } = await gemini([{ text: '{"city":"Oslo","sunny":true}' }]);
    const withTools = createModelInput({ output, availableTools: [weatherTool] });
    expect(await model.nextStep(withTools)).toMatchObject({ type: 'final_answer' });
    const body = sentBody() as { generationConfig?: unknown; systemInstruction: { parts: { text: string }[] } };
    expect(body.generationConfig).toBeUndefined();
    expect(body.systemInstruction.parts.at(-1)!.text).toBe(
      `When you give your final answer (calling no tool), answer with only a JSON value, no other text, that matches the JSON Schema "weather_answer" (The weather.): ${JSON.stringify(answerSchema)}`,
    );
    const gemini3 = createGeminiModel({ baseUrl: server.url, apiKey: 'gemini-test-inputs', model: 'gemini-3-flash', structuredOutputWithTools: true });
    server.enqueue({ text: '{"city":"Oslo","sunny":true}' });
    expect(await gemini3.nextStep(withTools)).toMatchObject({ type: 'final_answer' });
    expect(sentBody(1).generationConfig).toEqual({ responseMimeType: 'application/json', responseJsonSchema: answerSchema });
    expect(JSON.stringify(sentBody(1).systemInstruction)).not.toContain('JSON Schema');
    expect(() => createGeminiModel({ apiKey: 'k', model: 'm', structuredOutputWithTools: 'yes' as never })).toThrow(expect.objectContaining({ field: 'structuredOutputWithTools' }));
  });

  it.each<[HarnessToolChoice, unknown]>([
    ['auto', { mode: 'AUTO' }],
    ['none', { mode: 'NONE' }],
    ['required', { mode: 'ANY' }],
    [{ name: 'search' }, { mode: 'ANY', allowedFunctionNames: ['search'] }],
  ])('maps toolChoice %j to toolConfig.functionCallingConfig', async (toolChoice, wire) => {
    const { model } = await gemini([{ text: 'ok' }]);
    await model.nextStep(createModelInput({ availableTools: [weatherTool, searchTool], toolChoice }));
    expect(sentBody().toolConfig).toEqual({ functionCallingConfig: wire });
  });

  it('sends no toolConfig without a tool choice or without tools, and refuses a tool choice naming a tool not offered', async () => {
    const { server, model } = await gemini([{ text: 'ok' }, { text: 'ok' }]);
    await model.nextStep(createModelInput({ availableTools: [weatherTool] }));
    await model.nextStep(createModelInput({ toolChoice: 'required' }));
    expect(sentBody(0).toolConfig).toBeUndefined();
    expect(sentBody(1).toolConfig).toBeUndefined();
    const refused = await model.nextStep(createModelInput({ availableTools: [weatherTool], toolChoice: { name: 'constructor' } }));
    expect(refused).toMatchObject({ type: 'invalid', kind: 'provider_error', code: 'tool_choice_unsupported', retryable: false });
    expect(server.requests).toHaveLength(2);
  });

  it('streams thought parts as reasoning_delta (never as text) with thinking tokens, and keeps the text signature for replay', async () => {
    const { server, model } = await gemini([
      { reasoning: 'Rain is likely.', text: 'Bring an umbrella.', deltaSize: 5, usage: { inputTokens: 10, outputTokens: 30, reasoningTokens: 20 } },
      { text: 'You are welcome.' },
    ]);
    const streamed = await collect(model, createModelInput());
    expect(streamed.reasoning).toEqual(['Rain ', 'is li', 'kely.']);
    expect(streamed.text.join('')).toBe('Bring an umbrella.');
    expect(streamed.output).toMatchObject({
      type: 'final_answer',
      usage: { reasoningTokens: 20 },
      reasoning: [
        { provider: 'gemini', text: 'Rain is likely.' },
        { provider: 'gemini', id: 'text', signature: 'dGV4dF9zaWdf1' },
      ],
    });
    // A later step replays the answer with its signature on the text part (as a clarification would be).
    const answer = streamed.output as Extract<HarnessModelOutput, { type: 'final_answer' }>;
    await model.nextStep(
      createModelInput({
        transcript: [
          { type: 'assistant_step', iteration: 1, outputType: 'clarification', text: answer.text, reasoning: answer.reasoning! },
          { type: 'clarification_answer', iteration: 1, answer: 'Thanks.' },
        ],
      }),
    );
    expect((server.requests[1]!.body as { contents: unknown[] }).contents.slice(1)).toEqual([
      { role: 'model', parts: [{ text: 'Bring an umbrella.', thoughtSignature: 'dGV4dF9zaWdf1' }] },
      { role: 'user', parts: [{ text: 'Thanks.' }] },
    ]);
  });
});

describe.each([
  { name: 'OpenAI Responses', start: (replies: FakeServerScript[]) => responses(replies, { apiKey: 'sk-reasoning-secret-0123456789', reasoningEffort: 'low' }) },
  { name: 'Gemini', start: (replies: FakeServerScript[]) => gemini(replies, { apiKey: 'sk-reasoning-secret-0123456789' }) },
])('$name — secrets in reasoning', ({ start }) => {
  it('never shows the key in reasoning deltas or reasoning parts, streamed or not', async () => {
    const secret = 'sk-reasoning-secret-0123456789';
    const reply = { reasoning: `The key is ${secret}, keep it.`, text: 'Done.', deltaSize: 3 };
    const { model } = await start([reply, reply]);
    const streamed = await collect(model, createModelInput());
    expect(streamed.reasoning.join('')).toContain('The key is');
    expect(streamed.reasoning.join('')).not.toContain(secret);
    expect(JSON.stringify(streamed.output)).not.toContain(secret);
    const json = await model.nextStep(createModelInput());
    expect(json.reasoning?.[0]?.text).toContain('keep it.');
    expect(JSON.stringify(json)).not.toContain(secret);
  });
});

describe.each([
  { name: 'OpenAI Responses', start: (replies: FakeServerScript[]) => responses(replies) },
  { name: 'Gemini', start: (replies: FakeServerScript[]) => gemini(replies) },
])('$name — attachment addresses', ({ start }) => {
  it('refuses an attachment address that is not http(s) or data: before sending', async () => {
    const { server, model } = await start([{ text: 'never' }]);
    const input = createModelInput({ message: { id: 'm1', text: 'Look.', receivedAt, attachments: [{ id: 'ftp', type: 'image', url: 'ftp://example.test/cat.png', mediaType: 'image/png' }] } });
    expect(await model.nextStep(input)).toMatchObject({ type: 'invalid', kind: 'provider_error', code: 'attachments_unsupported', retryable: false });
    expect(server.requests).toHaveLength(0);
  });
});
