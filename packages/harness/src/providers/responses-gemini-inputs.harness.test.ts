import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import type { HarnessModelAdapter } from '../core/types/model.js';
import type { HarnessAttachment } from '../shared/types/turn-input.js';
import { createFakeToolRegistry, createTurnInput } from '../testing/index.js';
import { createFakeGeminiServer, createFakeOpenAIResponsesServer, type FakeModelServer, type FakeServerScript } from '../testing/node/index.js';
import { createGeminiModel } from './gemini/create-gemini-model.js';
import { createOpenAIResponsesModel } from './openai-responses/create-openai-responses-model.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const weather = createFakeToolRegistry({ lookup_weather: ({ city }) => `Sunny in ${String(city)}` });
const receivedAt = '2026-01-01T00:00:00.000Z';
type Body = Record<string, unknown>;

const protocols = [
  {
    name: 'OpenAI Responses',
    start: (replies: FakeServerScript[]) => createFakeOpenAIResponsesServer({ replies }),
    model: (url: string): HarnessModelAdapter => createOpenAIResponsesModel({ baseUrl: url, apiKey: 'sk-test-harness', model: 'gpt-5-mini', reasoningEffort: 'low' }),
    /** An attachment this protocol cannot take, and where it goes. */
    unsupported: { history: [{ role: 'assistant' as const, text: 'Drawn.', attachments: [{ id: 'drawing', type: 'image', url: 'https://example.com/d.png' }] }] },
    unsupportedId: 'drawing',
    /** The reasoning the second request sent back with the replayed tool step. */
    replayed: (body: Body) => (body.input as Record<string, unknown>[]).filter((item) => item.type === 'reasoning'),
    expectedReplay: [{ type: 'reasoning', id: 'rs_fake_1', summary: [{ type: 'summary_text', text: 'Need the tool.' }], encrypted_content: 'gAAAAB_fake_1' }],
    toolChoice: (body: Body) => body.tool_choice,
    forced: { type: 'function', name: 'lookup_weather' },
  },
  {
    name: 'Gemini',
    start: (replies: FakeServerScript[]) => createFakeGeminiServer({ replies }),
    model: (url: string): HarnessModelAdapter => createGeminiModel({ baseUrl: url, apiKey: 'gemini-test-harness', model: 'gemini-2.5-flash' }),
    unsupported: { message: { id: 'm1', text: 'Read it.', receivedAt, attachments: [{ id: 'doc', type: 'file', url: 'https://example.com/doc' } satisfies HarnessAttachment] } },
    unsupportedId: 'doc',
    replayed: (body: Body) => (body.contents as { parts: { thoughtSignature?: string }[] }[])[1]!.parts.flatMap((part) => (part.thoughtSignature === undefined ? [] : [part.thoughtSignature])),
    expectedReplay: ['c2lnX2Zha2Vf1'],
    toolChoice: (body: Body) => body.toolConfig,
    forced: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['lookup_weather'] } },
  },
];

describe.each(protocols)('$name under createHarness — issue 13 inputs', (protocol) => {
  it('fails the turn with attachments_unsupported for an attachment it cannot take, sending nothing', async () => {
    server = await protocol.start([{ text: 'never' }]);
    const result = await createHarness({ model: protocol.model(server.url) }).runTurn(createTurnInput(protocol.unsupported));
    expect(result.outcome).toBe('failed');
    expect(result.metadata?.error).toMatchObject({ code: 'attachments_unsupported', retryable: false, message: expect.stringContaining(`"${protocol.unsupportedId}"`) });
    expect(server.requests).toHaveLength(0);
  });

  it('streams reasoning as reasoning_delta through a tool loop and replays it with the tool step', async () => {
    server = await protocol.start([
      { reasoning: 'Need the tool.', toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }], usage: { inputTokens: 10, outputTokens: 20, reasoningTokens: 12 } },
      { text: 'Sunny in Oslo.' },
    ]);
    const stream = createHarness({ model: protocol.model(server.url), tools: weather }).streamTurn(createTurnInput({ text: 'Weather in Oslo?' }));
    const reasoning: string[] = [];
    const text: string[] = [];
    for await (const event of stream) {
      if (event.type === 'reasoning_delta') reasoning.push(event.text);
      else if (event.type === 'text_delta') text.push(event.text);
    }
    const result = await stream.result;
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Sunny in Oslo.' }, usage: { totalReasoningTokens: 12 } });
    expect(reasoning.join('')).toBe('Need the tool.');
    expect(text.join('')).toBe('Sunny in Oslo.');
    expect(protocol.replayed(server.requests[1]!.body as Body)).toEqual(protocol.expectedReplay);
  });

  it('returns the structured answer as result.output, asked natively', async () => {
    server = await protocol.start([{ text: '{"city":"Oslo","sunny":true}' }]);
    const schema = { jsonSchema: { type: 'object', properties: { city: { type: 'string' }, sunny: { type: 'boolean' } }, required: ['city', 'sunny'] } };
    const result = await createHarness({ model: protocol.model(server.url), output: schema }).runTurn(createTurnInput({ text: 'Weather in Oslo?' }));
    expect(result).toMatchObject({ outcome: 'completed', output: { city: 'Oslo', sunny: true } });
    expect(JSON.stringify(server.requests[0]!.body)).toContain('"sunny":{"type":"boolean"}');
  });

  it('forces a tool on the first step only through prepareStep', async () => {
    server = await protocol.start([{ toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }] }, { text: 'Sunny in Oslo.' }]);
    const harness = createHarness({
      model: protocol.model(server.url),
      tools: weather,
      hooks: { prepareStep: (state) => (state.iteration === 1 ? { toolChoice: { name: 'lookup_weather' } } : undefined) },
    });
    expect(await harness.runTurn(createTurnInput())).toMatchObject({ outcome: 'completed' });
    expect(protocol.toolChoice(server.requests[0]!.body as Body)).toEqual(protocol.forced);
    const second = protocol.toolChoice(server.requests[1]!.body as Body);
    expect(second === undefined || second === 'auto').toBe(true);
  });
});
