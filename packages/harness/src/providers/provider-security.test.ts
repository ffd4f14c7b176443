import { createServer, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import type { HarnessModelOutput } from '../core/types/model.js';
import { createFakeToolRegistry, createTurnInput, memoryTraceSink } from '../testing/index.js';
import {
  createFakeAnthropicServer,
  createFakeOpenAICompatibleServer,
  type FakeModelServer,
  type FakeServerScript,
} from '../testing/node/index.js';
import { createModelInput, weatherTool } from './__fixtures__/create-model-input.js';
import { escapeAll, findSecret } from './__fixtures__/find-secret.js';
import { createAnthropicModel } from './anthropic/create-anthropic-model.js';
import { createOpenAICompatibleModel } from './openai-compatible/create-openai-compatible-model.js';
import { OpenRouterExecutionAdapter } from './openrouter/openrouter-execution-adapter.js';
import { collectStreamParts as collect } from './__fixtures__/collect-stream-parts.js';
import { loopbackServers } from '../__fixtures__/loopback-servers.js';

const KEY = 'sk-test-Secret0123456789abcdefXYZ';
const HEADER_SECRET = 'custom-header-secret-7f3a9c1e5b';
const noRetry = { maxRetries: 0 };

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
const loopback = loopbackServers();

async function openAIServer(replies: FakeServerScript[] = []) {
  const server = await createFakeOpenAICompatibleServer({ replies });
  servers.push(server);
  return server;
}

async function anthropicServer(replies: FakeServerScript[] = []) {
  const server = await createFakeAnthropicServer({ replies });
  servers.push(server);
  return server;
}


function openAIModel(baseUrl: string, extra: Record<string, unknown> = {}) {
  return createOpenAICompatibleModel({
    baseUrl,
    model: 'fake-model',
    apiKey: KEY,
    headers: { 'x-custom-token': HEADER_SECRET },
    retry: noRetry,
    ...extra,
  });
}

describe('class 5: model calls never follow redirects', () => {
  it.each([301, 302, 303, 307, 308])('OpenAI-compatible: a cross-origin %i is a provider error and the other origin sees nothing', async (status) => {
    const elsewhere = await openAIServer([{ text: 'should never be asked' }]);
    const origin = await openAIServer([{ type: 'http', status, headers: { location: `${elsewhere.url}/chat/completions` } }]);
    const output = await openAIModel(origin.url).nextStep(createModelInput());
    expect(output).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: false, httpStatus: status });
    expect(output.metadata?.error).toMatchObject({ failure: 'redirect', statusCode: status });
    expect(output.type === 'invalid' && output.reason).toContain('do not follow redirects');
    expect(origin.requests).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('Anthropic: x-api-key and a custom secret header never reach the redirect target, also when streaming', async () => {
    const elsewhere = await anthropicServer([{ text: 'no' }, { text: 'no' }]);
    const redirect: FakeServerScript = { type: 'http', status: 307, headers: { location: `${elsewhere.url}/messages` } };
    const origin = await anthropicServer([redirect, redirect]);
    const model = createAnthropicModel({
      baseUrl: origin.url,
      model: 'claude-test',
      maxTokens: 100,
      apiKey: KEY,
      headers: { 'x-custom-token': HEADER_SECRET },
      retry: noRetry,
    });
    const json = await model.nextStep(createModelInput());
    const streamed = await collect(model.streamStep(createModelInput()));
    for (const output of [json, streamed.output]) {
      expect(output).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: false, metadata: { error: { failure: 'redirect' } } });
    }
    expect(origin.requests.map((request) => request.headers['x-api-key'])).toEqual([KEY, KEY]);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('OpenRouter execution adapter: a redirect is a failed, non-retryable result', async () => {
    const elsewhere = await openAIServer([{ text: 'no' }]);
    const origin = await openAIServer([{ type: 'http', status: 307, headers: { location: `${elsewhere.url}/chat/completions` } }]);
    const adapter = new OpenRouterExecutionAdapter({ baseUrl: origin.url, apiKey: KEY, retry: noRetry });
    const result = await adapter.execute({
      assistantId: 'a',
      turnId: 't',
      message: { id: 'm', text: 'hi', receivedAt: '2026-01-01T00:00:00.000Z' },
      instructions: { systemPrompt: '' },
    });
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: false, metadata: { failure: 'redirect', httpStatus: 307 } } });
    expect(elsewhere.requests).toHaveLength(0);
  });
});

describe('class 6: secrets are redacted after decoding, across deltas and in tool arguments', () => {
  it('a key written with \\uXXXX escapes in an error body is not in the message, the excerpt or the provider code', async () => {
    const body = `{"error":{"message":"Invalid key ${escapeAll(KEY)} (header ${escapeAll(HEADER_SECRET, true)})","code":"${escapeAll(KEY)}"}}`;
    const server = await openAIServer([{ type: 'http', status: 401, body }]);
    const output = await openAIModel(server.url).nextStep(createModelInput());
    expect(output).toMatchObject({ type: 'invalid', httpStatus: 401 });
    expect(JSON.stringify(output)).toContain('[REDACTED]');
    expect(findSecret(output, KEY)).toEqual([]);
    expect(findSecret(output, HEADER_SECRET)).toEqual([]);
  });

  it('a key split across stream deltas never reassembles in the concatenated text_delta events', async () => {
    for (const deltaSize of [1, 2, 3, 5, 7, 11]) {
      const server = await openAIServer([{ text: `Your key is ${KEY}, and the header is ${HEADER_SECRET}. Done.`, deltaSize }]);
      const { deltas, output } = await collect(openAIModel(server.url).streamStep(createModelInput()));
      expect(deltas.join('')).toBe('Your key is [REDACTED], and the header is [REDACTED]. Done.');
      expect(output).toMatchObject({ type: 'final_answer', text: 'Your key is [REDACTED], and the header is [REDACTED]. Done.' });
    }
  });

  it('Anthropic text deltas are redacted across boundaries too', async () => {
    const server = await anthropicServer([{ text: `key=${KEY}!`, deltaSize: 3 }]);
    const model = createAnthropicModel({ baseUrl: server.url, model: 'claude-test', maxTokens: 100, apiKey: KEY, retry: noRetry });
    const { deltas } = await collect(model.streamStep(createModelInput()));
    expect(deltas.join('')).toBe('key=[REDACTED]!');
  });

  it('a key echoed into tool-call arguments (plain, escaped or as a key) reaches neither the tool, its result nor the trace', async () => {
    const server = await openAIServer([
      {
        toolCalls: [
          { id: 'c1', name: 'lookup_weather', arguments: { city: `Oslo ${KEY}`, [HEADER_SECRET]: 1 } },
          { id: 'c2', name: 'lookup_weather', arguments: `{"city":"${escapeAll(KEY)}"}` },
          { id: `id-${KEY}`, name: 'lookup_weather', arguments: { city: 'Bergen' } },
        ],
        deltaSize: 5,
      },
      { text: 'Done.' },
    ]);
    const tools = createFakeToolRegistry({ lookup_weather: (input) => `Weather for ${JSON.stringify(input)}` });
    const trace = memoryTraceSink();
    const harness = createHarness({ model: openAIModel(server.url), tools, trace });
    const stream = harness.streamTurn(createTurnInput({ text: 'Weather?' }));
    const events: unknown[] = [];
    for await (const event of stream) events.push(event);
    const result = await stream.result;
    expect(result.outcome).toBe('completed');
    expect(tools.calls.map((call) => call.input)).toEqual([{ city: 'Oslo [REDACTED]', '[REDACTED]': 1 }, { city: '[REDACTED]' }, { city: 'Bergen' }]);
    expect(tools.calls[2]!.id).toMatch(/^call_/);
    for (const secret of [KEY, HEADER_SECRET]) {
      expect(findSecret(result, secret)).toEqual([]);
      expect(findSecret(trace.events, secret)).toEqual([]);
      expect(findSecret(events, secret)).toEqual([]);
      expect(findSecret(server.requests[1]!.body, secret)).toEqual([]);
    }
  });

  it('Anthropic tool_use input holding the key (JSON and streamed) is redacted', async () => {
    const reply = { toolCalls: [{ id: 'toolu_1', name: 'lookup_weather', arguments: { city: KEY } }], deltaSize: 4 };
    const server = await anthropicServer([reply, reply]);
    const model = createAnthropicModel({ baseUrl: server.url, model: 'claude-test', maxTokens: 100, apiKey: KEY, retry: noRetry });
    const input = createModelInput({ availableTools: [weatherTool] });
    const json = await model.nextStep(input);
    const streamed = (await collect(model.streamStep(input))).output;
    for (const output of [json, streamed]) {
      expect(output).toMatchObject({ type: 'tool_request', calls: [{ id: 'toolu_1', input: { city: '[REDACTED]' } }] });
    }
  });
});

/** A loopback SSE server that sends 1 MiB events for as long as the client reads. */
async function floodServer(): Promise<{ url: string; bytesSent: () => number; closed: Promise<void> }> {
  let sent = 0;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  const event = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'x'.repeat(1024 * 1024) }, finish_reason: null }] })}\n\n`;
  const pump = (response: ServerResponse) => {
    while (!response.destroyed) {
      sent += event.length;
      if (!response.write(event)) {
        response.once('drain', () => pump(response));
        return;
      }
    }
  };
  const server = createServer((request, response) => {
    request.resume();
    response.on('close', resolveClosed);
    response.on('error', () => undefined);
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    pump(response);
  });
  const { origin } = await loopback.listen(server);
  return { url: `${origin}/v1`, bytesSent: () => sent, closed };
}

describe('class 7: a streamed response has a total byte cap', () => {
  it('an endless flood of 1 MiB events ends as a non-retryable provider error and the connection is closed', async () => {
    const flood = await floodServer();
    const model = openAIModel(flood.url, { maxStreamBytes: 4 * 1024 * 1024 });
    let deltaChars = 0;
    let output: HarnessModelOutput | undefined;
    for await (const part of model.streamStep(createModelInput())) {
      if (part.type === 'text_delta') deltaChars += part.text.length;
      else if (part.type === 'output') output = part.output;
    }
    expect(output).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: false, metadata: { error: { failure: 'response_too_large' } } });
    expect(deltaChars).toBeLessThanOrEqual(4 * 1024 * 1024);
    await flood.closed;
  });

  it('the cap also ends a streamTurn with a structured failure', async () => {
    const flood = await floodServer();
    const harness = createHarness({ model: openAIModel(flood.url, { maxStreamBytes: 2 * 1024 * 1024 }) });
    const stream = harness.streamTurn(createTurnInput());
    for await (const _event of stream) {
      // drain
    }
    const result = await stream.result;
    expect(result.outcome).toBe('failed');
    expect(result.transcript.at(-1)).toMatchObject({ type: 'invalid_output', kind: 'provider_error' });
    await flood.closed;
  });
});
