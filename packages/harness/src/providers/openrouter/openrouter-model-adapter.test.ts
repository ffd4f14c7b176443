import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { HarnessModelOutput } from '../../core/types/model.js';
import { createFakeToolRegistry, createTurnInput, memoryTraceSink } from '../../testing/index.js';
import { createFakeOpenAICompatibleServer, type FakeModelServer, type FakeServerScript } from '../../testing/node/index.js';
import { createModelInput } from '../__fixtures__/create-model-input.js';
import { createOpenRouterModelAdapter, OpenRouterModelAdapter, type OpenRouterModelAdapterOptions } from './openrouter-model-adapter.js';

const CANARY = 'sk-or-v1-canary-7f3a9c1e5b2d4f60';
let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function adapterFor(replies: FakeServerScript[], options: OpenRouterModelAdapterOptions = {}) {
  server = await createFakeOpenAICompatibleServer({ replies });
  const model = createOpenRouterModelAdapter({ baseUrl: server.url, apiKey: CANARY, retry: { initialDelayMs: 1, maxDelayMs: 2 }, ...options });
  return { server, model };
}

describe('OpenRouterModelAdapter', () => {
  it('sends the key, attribution headers and the default model, and maps usage.cost to costUnits', async () => {
    const { server, model } = await adapterFor([{ text: 'Hi!', usage: { inputTokens: 10, outputTokens: 2, cost: 0.00042 } }], {
      appUrl: 'https://assistant.example.com',
      appName: 'Example Assistant',
    });
    const output = await model.nextStep(createModelInput());
    expect(output).toMatchObject({ type: 'final_answer', usage: { inputTokens: 10, outputTokens: 2, costUnits: 0.00042 }, metadata: { provider: 'openrouter' } });
    const request = server.requests[0]!;
    expect(request.headers.authorization).toBe(`Bearer ${CANARY}`);
    expect(request.headers['http-referer']).toBe('https://assistant.example.com');
    expect(request.headers['x-title']).toBe('Example Assistant');
    expect((request.body as { model: string }).model).toBe('openai/gpt-5-mini');
    expect(model.model).toBe('openai/gpt-5-mini');
  });

  it('reads an { env } key at call time from the env option (Workers bindings)', async () => {
    server = await createFakeOpenAICompatibleServer({ replies: [{ text: 'ok' }] });
    const env: Record<string, string | undefined> = {};
    const model = new OpenRouterModelAdapter({ baseUrl: server.url, apiKey: { env: 'OPENROUTER_API_KEY' }, env });
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: false });
    expect(server.requests).toHaveLength(0);
    env.OPENROUTER_API_KEY = 'bound-key-123456';
    expect(await model.nextStep(createModelInput())).toMatchObject({ type: 'final_answer' });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer bound-key-123456');
  });

  it('stops the turn on budget once usage.cost reaches budgetLimit', async () => {
    const { server, model } = await adapterFor([
      { toolCalls: [{ id: 'c1', name: 'lookup_weather', arguments: { city: 'Oslo' } }], usage: { cost: 0.02 } },
      { text: 'never asked' },
    ]);
    const tools = createFakeToolRegistry({ lookup_weather: () => 'Sunny' });
    const result = await createHarness({ model, tools, limits: { budgetLimit: 0.01 } }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'budget_reached' });
    expect(result.usage.totalCostUnits).toBe(0.02);
    expect(server.requests).toHaveLength(1);
  });

  it('never leaks the key, even when the server echoes it in errors, answers and streams', async () => {
    const echo = (status: number): FakeServerScript => (request) => ({
      type: 'http',
      status,
      body: { error: { message: `Rejected key ${request.headers.authorization ?? ''}`, code: status } },
    });
    const { model } = await adapterFor([
      echo(500),
      echo(502),
      echo(503),
      echo(401),
      (request) => ({ text: `Your key is ${request.headers.authorization ?? ''}` }),
      (request) => ({ type: 'http', status: 200, body: `not json ${request.headers.authorization ?? ''}` }),
    ]);
    const trace = memoryTraceSink();
    const result = await createHarness({ model, trace }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'provider_error', metadata: { httpStatus: 503 } });
    const outputs: HarnessModelOutput[] = [];
    for (let step = 0; step < 3; step += 1) outputs.push(await model.nextStep(createModelInput()));
    expect(outputs[0]).toMatchObject({ type: 'invalid', kind: 'provider_error', httpStatus: 401 });
    expect(outputs[1]).toMatchObject({ type: 'final_answer', text: 'Your key is Bearer [REDACTED]' });
    expect(outputs[2]).toMatchObject({ type: 'invalid', kind: 'provider_error' });
    const everything = JSON.stringify({ result, events: trace.events, outputs });
    expect(everything).not.toContain(CANARY);
    expect(everything).toContain('[REDACTED]');
    expect(JSON.stringify(model)).not.toContain(CANARY);
  });

  it('sends history and an image (by URL and inline) through the shared chat-completions path, and streams reasoning', async () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const { server, model } = await adapterFor([{ reasoning: 'Two images.', text: 'Both show a pixel.' }]);
    const result = await createHarness({ model }).runTurn(
      createTurnInput({
        history: [
          { role: 'user', text: 'Remember this one.', attachments: [{ id: 'first', type: 'image', url: 'https://example.com/first.png' }] },
          { role: 'assistant', text: 'Remembered.' },
        ],
        message: { id: 'm2', text: 'Same as this?', receivedAt: '2026-01-01T00:00:00.000Z', attachments: [{ id: 'second', type: 'image', data: png, mediaType: 'image/png' }] },
      }),
    );
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Both show a pixel.' } });
    const messages = (server.requests[0]!.body as { messages: { role: string; content: unknown }[] }).messages;
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Remember this one.' }, { type: 'image_url', image_url: { url: 'https://example.com/first.png' } }] },
      { role: 'assistant', content: 'Remembered.' },
      { role: 'user', content: [{ type: 'text', text: 'Same as this?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } }] },
    ]);
    expect(result.transcript[0]).toMatchObject({ type: 'assistant_step', reasoning: [{ provider: 'openai-compatible', text: 'Two images.' }] });
  });

  it('refuses a non-loopback http base URL', () => {
    expect(() => createOpenRouterModelAdapter({ baseUrl: 'http://openrouter.example.com/api/v1' })).toThrow(HarnessConfigError);
  });
});
