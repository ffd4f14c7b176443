import type { IncomingMessage, RequestListener, Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import type { HarnessResult } from '../../core/types/result.js';
import { createTurnInput } from '../../testing/index.js';
import { createFakeOpenAICompatibleServer, type FakeModelServer, type FakeServerScript } from '../../testing/node/index.js';
import { createOpenAICompatibleModel } from '../openai-compatible/create-openai-compatible-model.js';
import { createNodeHttpFetch } from './node-http-fetch.js';
import { closeServer, loopbackServers } from '../../__fixtures__/loopback-servers.js';

const KEY = 'sk-node-http-Secret0123456789abcdef';
const fakeServers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(fakeServers.splice(0).map((server) => server.close()));
});
const loopback = loopbackServers();

async function fakeServer(replies: FakeServerScript[]): Promise<FakeModelServer> {
  const server = await createFakeOpenAICompatibleServer({ replies });
  fakeServers.push(server);
  return server;
}

async function rawServer(handler: RequestListener): Promise<{ server: Server; url: string }> {
  const { server, origin } = await loopback.serve(handler);
  return { server, url: `${origin}/v1` };
}

function harnessFor(baseUrl: string, extra: Partial<Parameters<typeof createOpenAICompatibleModel>[0]> = {}) {
  const model = createOpenAICompatibleModel({
    baseUrl,
    model: 'fake-model',
    apiKey: KEY,
    fetch: createNodeHttpFetch(),
    retry: { initialDelayMs: 1, maxDelayMs: 2 },
    ...extra,
  });
  return createHarness({ model });
}

function expectNoKey(result: HarnessResult): void {
  expect(JSON.stringify(result)).not.toContain(KEY);
  expect(JSON.stringify(result.error ?? null)).not.toContain(KEY);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}

const sse = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
const delta = (content: string) => sse({ id: 'c1', object: 'chat.completion.chunk', model: 'fake-model', choices: [{ index: 0, delta: { content } }] });

describe('createOpenAICompatibleModel with fetch: createNodeHttpFetch()', () => {
  it('runs a JSON turn, sending the real request body and the key only in the auth header', async () => {
    const server = await fakeServer([{ text: 'Six.', usage: { inputTokens: 7, outputTokens: 2 } }]);
    const result = await harnessFor(server.url).runTurn(createTurnInput({ text: 'What is 1 + 2 + 3?' }));
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Six.' } });
    expect(result.usage).toMatchObject({ totalInputTokens: 7, totalOutputTokens: 2, modelCalls: 1 });
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(request!.headers).toMatchObject({ authorization: `Bearer ${KEY}`, 'content-type': 'application/json' });
    expect(Number(request!.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(request!.body)));
    expect(request!.body).toMatchObject({ model: 'fake-model', messages: [{ role: 'system' }, { role: 'user', content: 'What is 1 + 2 + 3?' }] });
  });

  it('streams: the first delta reaches the caller while the server still holds the response open', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const { url } = await rawServer(async (request, response) => {
      const body = JSON.parse(await readBody(request)) as { stream?: boolean };
      expect(body.stream).toBe(true);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(delta('Hel'));
      await released;
      response.write(delta('lo!'));
      response.write(sse({ id: 'c1', object: 'chat.completion.chunk', model: 'fake-model', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }));
      response.end('data: [DONE]\n\n');
    });
    const stream = harnessFor(url).streamTurn(createTurnInput());
    const deltas: string[] = [];
    for await (const event of stream) {
      if (event.type !== 'text_delta') continue;
      deltas.push(event.text);
      if (deltas.length === 1) release();
    }
    expect(deltas).toEqual(['Hel', 'lo!']);
    expect(await stream.result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Hello!' } });
  });

  it('retries a 429 after its Retry-After', async () => {
    const server = await fakeServer([{ type: 'error', status: 429, message: 'slow down', retryAfter: 0 }, { text: 'Done.' }]);
    const result = await harnessFor(server.url).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Done.' } });
    expect(server.requests).toHaveLength(2);
  });

  it('does not follow a 302: a redirect error, and the Location gets no request', async () => {
    const elsewhere = await fakeServer([{ text: 'never asked' }]);
    const origin = await fakeServer([{ type: 'http', status: 302, headers: { location: `${elsewhere.url}/chat/completions` } }]);
    const result = await harnessFor(origin.url, { retry: { maxRetries: 2 } }).runTurn(createTurnInput());
    expect(result.outcome).toBe('failed');
    expect(result.error?.message).toContain('do not follow redirects');
    expect(JSON.stringify(result.error)).toContain('redirect');
    expect(origin.requests).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
    expectNoKey(result);
  });

  it('refuses a JSON body larger than maxResponseBytes', async () => {
    const server = await fakeServer([{ text: 'x'.repeat(5000) }]);
    const result = await harnessFor(server.url, { maxResponseBytes: 1024 }).runTurn(createTurnInput());
    expect(result.outcome).toBe('failed');
    expect(JSON.stringify(result.error)).toContain('response_too_large');
    expectNoKey(result);
  });

  it("closes the socket when the turn is aborted mid-stream (the server sees 'close')", async () => {
    let serverSawClose!: () => void;
    const closed = new Promise<void>((resolve) => (serverSawClose = resolve));
    const { url } = await rawServer(async (request, response) => {
      await readBody(request);
      response.socket?.once('close', () => serverSawClose());
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(delta('Partial'));
    });
    const controller = new AbortController();
    const stream = harnessFor(url).streamTurn(createTurnInput(), { signal: controller.signal });
    for await (const event of stream) if (event.type === 'text_delta') controller.abort();
    await closed;
    expect(await stream.result).toMatchObject({ outcome: 'deferred', stopReason: 'cancelled' });
  });

  it('reports a refused connection once, naming the host and ECONNREFUSED, without retrying', async () => {
    const { server, url } = await rawServer(() => undefined);
    await closeServer(server);
    const result = await harnessFor(url).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'provider_error', error: { code: 'network_error', retryable: false } });
    expect(result.error?.message).toContain(`Could not reach ${new URL(url).host}: the connection was refused (ECONNREFUSED)`);
    expect(result.traceSummary.iterationCount).toBe(1);
    expectNoKey(result);
  });

  it('keeps the key out of an error whose body echoes it', async () => {
    const server = await fakeServer([{ type: 'error', status: 401, message: `invalid key ${KEY}` }]);
    const result = await harnessFor(server.url).runTurn(createTurnInput());
    expect(result.outcome).toBe('failed');
    expect(result.error?.message).toContain('HTTP 401');
    expectNoKey(result);
  });
});
