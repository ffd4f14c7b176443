import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import type { HarnessStreamEvent } from '../../core/types/runtime.js';
import { createFakeToolRegistry, createTurnInput, memoryTraceSink } from '../../testing/index.js';
import { createFakeOpenAICompatibleServer, type FakeModelServer, type FakeServerScript } from '../../testing/node/index.js';
import { createOpenAICompatibleModel } from './create-openai-compatible-model.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function modelFor(replies: FakeServerScript[]) {
  server = await createFakeOpenAICompatibleServer({ replies });
  return { server, model: createOpenAICompatibleModel({ baseUrl: server.url, model: 'fake-model', retry: { initialDelayMs: 1, maxDelayMs: 2 } }) };
}

const weather = createFakeToolRegistry({
  lookup_weather: ({ city }) =>
    city === 'Atlantis' ? { status: 'error', error: { code: 'not_found', message: 'No such city.', retryable: true } } : `Sunny in ${String(city)}`,
});

describe('OpenAI-compatible model under createHarness', () => {
  it('runs a tool round trip and replays the conversation correctly', async () => {
    const { server, model } = await modelFor([
      {
        text: 'Checking both.',
        toolCalls: [
          { id: 'c1', name: 'lookup_weather', arguments: { city: 'Oslo' } },
          { id: 'c2', name: 'lookup_weather', arguments: { city: 'Atlantis' } },
        ],
        usage: { inputTokens: 50, outputTokens: 10 },
      },
      { text: 'Oslo is sunny; Atlantis was not found.', usage: { inputTokens: 80, outputTokens: 12 } },
    ]);
    const trace = memoryTraceSink();
    const result = await createHarness({ model, tools: weather, trace }).runTurn(createTurnInput({ text: 'Weather in Oslo and Atlantis?' }));
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Oslo is sunny; Atlantis was not found.' } });
    expect(result.usage).toMatchObject({ totalInputTokens: 130, totalOutputTokens: 22, modelCalls: 2, toolCalls: 2 });
    const second = server.requests[1]!.body as { messages: { role: string; content: unknown; tool_calls?: unknown[] }[] };
    expect(second.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool']);
    expect(second.messages[1]!.content).toBe('Weather in Oslo and Atlantis?');
    expect(second.messages[2]).toMatchObject({
      content: 'Checking both.',
      tool_calls: [{ function: { arguments: '{"city":"Oslo"}' } }, { function: { arguments: '{"city":"Atlantis"}' } }],
    });
    expect(second.messages[3]).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'Sunny in Oslo' });
    expect(JSON.parse(second.messages[4]!.content as string)).toMatchObject({ error: { code: 'not_found' } });
  });

  it('streams text deltas through streamTurn', async () => {
    const { model } = await modelFor([{ text: 'Streaming works fine.', deltaSize: 6 }]);
    const stream = createHarness({ model }).streamTurn(createTurnInput());
    const deltas: string[] = [];
    for await (const event of stream) if (event.type === 'text_delta') deltas.push(event.text);
    expect(deltas).toEqual(['Stream', 'ing wo', 'rks fi', 'ne.']);
    expect((await stream.result).assistantMessage?.text).toBe('Streaming works fine.');
  });

  it('repeats a truncated stream once as a new step and never replays the failure as speech', async () => {
    const { server, model } = await modelFor([{ text: 'Cut off here', truncateAfterEvents: 3 }, { text: 'Complete answer.' }]);
    const stream = createHarness({ model }).streamTurn(createTurnInput());
    for await (const _event of stream) {
      // drain
    }
    const result = await stream.result;
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Complete answer.' } });
    expect(result.transcript[0]).toMatchObject({ type: 'invalid_output', kind: 'transient', code: 'stream_truncated' });
    const second = server.requests[1]!.body as { messages: { role: string }[] };
    expect(second.messages.map((message) => message.role)).toEqual(['system', 'user']);
  });

  it('repeats a truncated stream only once', async () => {
    const { server, model } = await modelFor([
      { text: 'Cut off here', truncateAfterEvents: 3 },
      { text: 'Cut off again', truncateAfterEvents: 3 },
      { text: 'never asked for' },
    ]);
    const stream = createHarness({ model }).streamTurn(createTurnInput());
    for await (const _event of stream) {
      // drain
    }
    const result = await stream.result;
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'provider_error', error: { code: 'stream_truncated', retryable: true } });
    expect(server.requests).toHaveLength(2);
  });

  it('ends the turn on a non-retryable 401 without asking again', async () => {
    const { server, model } = await modelFor([{ type: 'error', status: 401, message: 'Invalid key' }]);
    const result = await createHarness({ model }).runTurn(createTurnInput());
    expect(result).toMatchObject({
      outcome: 'failed',
      stopReason: 'provider_error',
      metadata: { httpStatus: 401 },
      error: { code: 'authentication_failed', retryable: false, providerCode: 'fake_error' },
    });
    expect(server.requests).toHaveLength(1);
  });

  it('aborts a hanging request when the turn runs out of time', async () => {
    const { server, model } = await modelFor([{ type: 'hang' }]);
    const result = await createHarness({ model, limits: { maxElapsedMs: 300 } }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'timeout_reached' });
    await server.requests[0]!.closed;
    expect(server.requests[0]!.abortedByClient()).toBe(true);
  });

  it('never starts a Retry-After wait that would outlive the turn: the step fails at once, retryable', async () => {
    const { server, model } = await modelFor([{ type: 'error', status: 503, retryAfter: 20 }, { text: 'too late' }]);
    const result = await createHarness({ model, limits: { maxElapsedMs: 5_000 } }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'provider_error', error: { code: 'provider_unavailable', retryable: true } });
    expect(result.traceSummary.elapsedMs).toBeLessThan(5_000);
    expect(server.requests).toHaveLength(1);
  });

  it('cancels mid-stream: the turn ends cancelled and the server sees the connection close', async () => {
    const { server, model } = await modelFor([{ text: 'This will stall after a few words', stallAfterEvents: 4 }]);
    const controller = new AbortController();
    const stream = createHarness({ model }).streamTurn(createTurnInput(), { signal: controller.signal });
    const events: HarnessStreamEvent[] = [];
    for await (const event of stream) {
      events.push(event);
      if (event.type === 'text_delta') controller.abort();
    }
    expect(await stream.result).toMatchObject({ outcome: 'deferred', stopReason: 'cancelled' });
    await server.requests[0]!.closed;
    expect(server.requests[0]!.abortedByClient()).toBe(true);
  });
});
