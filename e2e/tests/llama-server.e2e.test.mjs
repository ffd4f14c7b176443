// A real OpenAI-compatible server: llama.cpp's llama-server (built by e2e/llama-server/build.sh)
// serving a tiny qwen2 model with random weights, through the built harness's
// createOpenAICompatibleModel. The weights are random, so these tests check the protocol
// (streaming, usage, grammars, tool calls, errors, cancellation), never what the model says.
import { createServer, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHarness, turn } from '../helpers.mjs';
import { startLlamaServer } from '../llama-server/server.mjs';

let server;
let proxy;
let harnessPackage;

/**
 * A TCP proxy in front of the server that keeps every request's raw text and tells when the
 * harness's side of a connection closes (it then closes the server's side too).
 */
async function startProxy(port) {
  const connections = [];
  const sockets = new Set();
  const tcp = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    const record = { request: '', clientClosed: new Promise((resolve) => client.once('close', resolve)) };
    connections.push(record);
    sockets.add(client).add(upstream);
    client.on('data', (chunk) => {
      record.request += chunk.toString('utf8');
    });
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${tcp.address().port}`,
    connections,
    /** The JSON body of the request on connection `index`. */
    body: (index) => JSON.parse(connections[index].request.slice(connections[index].request.indexOf('\r\n\r\n') + 4)),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        tcp.close(() => resolve());
      }),
  };
}

beforeAll(async () => {
  harnessPackage = await loadHarness();
  server = await startLlamaServer();
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

/** A fresh proxy per test, so each test sees only its own requests. */
async function modelThroughProxy(options = {}) {
  await proxy?.close();
  proxy = await startProxy(server.port);
  return harnessPackage.createOpenAICompatibleModel({ baseUrl: `${proxy.url}/v1`, model: 'model.gguf', temperature: 0, retry: { maxRetries: 0 }, ...options });
}

afterAll(async () => {
  await proxy?.close();
});

const weatherTools = {
  listAvailable: () => [
    {
      name: 'get_weather',
      description: 'The weather of a city.',
      inputSchema: { type: 'object', properties: { city: { type: 'string', maxLength: 10 } }, required: ['city'], additionalProperties: false },
    },
  ],
  execute: async (call) => ({ callId: call.id, toolName: call.name, status: 'success', output: 'Sunny, 21 °C' }),
};

describe('llama-server (llama.cpp) as an OpenAI-compatible provider', () => {
  it('streams text deltas and reports usage when asked with stream_options.include_usage', async () => {
    const model = await modelThroughProxy({ maxTokens: 8 });
    const stream = harnessPackage.createHarness({ model }).streamTurn(turn('llama-stream', 'Say hello.'));
    const deltas = [];
    for await (const event of stream) if (event.type === 'text_delta') deltas.push(event.text);
    const result = await stream.result;
    expect(proxy.body(0)).toMatchObject({ stream: true, stream_options: { include_usage: true }, max_tokens: 8 });
    expect(result.usage.totalInputTokens).toBeGreaterThan(0);
    expect(result.usage.totalOutputTokens).toBeGreaterThan(0);
    expect(result.usage.totalOutputTokens).toBeLessThanOrEqual(8 * result.usage.modelCalls);
    if (result.outcome === 'completed') expect(deltas.join('')).toBe(result.assistantMessage.text);
    else expect(result.transcript.some((item) => item.type === 'invalid_output')).toBe(true);
  });

  it('answers a json_schema structured output under the server grammar, parsed and validated by the harness', async () => {
    const model = await modelThroughProxy({ maxTokens: 96 });
    const output = {
      jsonSchema: { type: 'object', properties: { name: { type: 'string', maxLength: 8 } }, required: ['name'], additionalProperties: false },
    };
    const result = await harnessPackage.createHarness({ model, output }).runTurn(turn('llama-json', 'Give me a JSON object with a name.'));
    expect(proxy.body(0).response_format).toMatchObject({ type: 'json_schema', json_schema: { schema: output.jsonSchema } });
    expect(result).toMatchObject({ outcome: 'completed' });
    expect(typeof result.output.name).toBe('string');
    expect(JSON.parse(result.assistantMessage.text)).toEqual(result.output);
  });

  it('sends tool_choice "required" and ends the step in a parsed tool call or a classified invalid output, never a silent answer', async () => {
    const model = await modelThroughProxy({ maxTokens: 24, timeoutMs: 150_000 });
    const harness = harnessPackage.createHarness({ model, tools: weatherTools, limits: { maxIterations: 1, maxConsecutiveInvalidModelOutputs: 0, maxElapsedMs: 150_000 } });
    const result = await harness.runTurn(turn('llama-tool', 'What is the weather in Paris? Call get_weather.', { toolChoice: 'required' }));
    expect(proxy.body(0)).toMatchObject({ tool_choice: 'required', tools: [{ type: 'function', function: { name: 'get_weather' } }] });
    const [first] = result.transcript;
    if (first.type === 'assistant_step') {
      expect(first).toMatchObject({ outputType: 'tool_request', calls: [{ name: 'get_weather' }] });
      expect(typeof first.calls[0].input).toBe('object');
    } else {
      expect(first).toMatchObject({ type: 'invalid_output' });
      expect(['empty_response', 'schema_mismatch', 'missing_message', 'provider_error', 'transient']).toContain(first.kind);
      expect(result.outcome).not.toBe('completed');
    }
  });

  it('a request beyond the context size fails as a non-retryable provider error after one request', async () => {
    const model = await modelThroughProxy({ maxTokens: 8, retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2 } });
    const long = Array.from({ length: 6000 }, (_, index) => `word${index}`).join(' ');
    const result = await harnessPackage.createHarness({ model }).runTurn(turn('llama-overflow', long));
    expect(result).toMatchObject({ outcome: 'failed', error: { retryable: false } });
    expect(result.error.message).toMatch(/context/i);
    expect(proxy.connections).toHaveLength(1);
  });

  it('cancelling mid-stream ends the turn cancelled, closes the connection and the server stops the task', async () => {
    const model = await modelThroughProxy({ maxTokens: 400 });
    const controller = new AbortController();
    const stream = harnessPackage.createHarness({ model }).streamTurn(turn('llama-cancel', 'Tell a long story.'), { signal: controller.signal });
    for await (const event of stream) if (event.type === 'text_delta') controller.abort();
    expect(await stream.result).toMatchObject({ outcome: 'deferred', stopReason: 'cancelled' });
    await proxy.connections[0].clientClosed;
    await server.logged(/stop: cancel task/);
  });
});
