// One turn of `createOpenAICompatibleModel` through a loopback proxy, with the one pairing the docs
// promise: a `ProxyAgent` dispatcher and the `fetch` of the same undici. Starts a tiny proxy
// (CONNECT tunnels and absolute-form HTTP forwarding, whichever undici uses for an `http:` target)
// and a fake OpenAI-compatible server, both on 127.0.0.1, and prints one JSON line:
// { node, undici, outcome, text, proxied, serverRequests }. Run by a vitest test with the built
// package and by the consumer check with the packed one, under every Node it covers.
import { createServer, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { createRequire } from 'node:module';
import { createHarness, createOpenAICompatibleModel } from '@agent-assistant/harness';
import { createFakeOpenAICompatibleServer } from '@agent-assistant/harness/testing/node';
import { fetch, ProxyAgent } from 'undici';

const undiciVersion = createRequire(import.meta.url)('undici/package.json').version;
const LOOPBACK = '127.0.0.1';
/** What the proxy was asked for, in order: `CONNECT host:port` or `METHOD absolute-url`. */
const proxied = [];

const proxy = createServer((request, response) => {
  proxied.push(`${request.method} ${request.url}`);
  const target = URL.canParse(request.url) ? new URL(request.url) : undefined;
  if (target === undefined || target.hostname !== LOOPBACK) {
    response.writeHead(403).end();
    return;
  }
  const upstream = httpRequest(
    { host: LOOPBACK, port: target.port, path: `${target.pathname}${target.search}`, method: request.method, headers: request.headers },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    },
  );
  upstream.on('error', () => response.destroy());
  request.pipe(upstream);
});
proxy.on('connect', (request, socket, head) => {
  proxied.push(`CONNECT ${request.url}`);
  const match = /^127\.0\.0\.1:(\d{1,5})$/.exec(request.url ?? '');
  if (match === null) {
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    return;
  }
  const upstream = connect(Number(match[1]), LOOPBACK, () => {
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
  });
  upstream.on('error', () => socket.destroy());
  socket.on('error', () => upstream.destroy());
});
await new Promise((resolve) => proxy.listen(0, LOOPBACK, resolve));
const server = await createFakeOpenAICompatibleServer({ replies: [{ text: 'Through the proxy.' }] });

const dispatcher = new ProxyAgent(`http://${LOOPBACK}:${proxy.address().port}`);
const harness = createHarness({
  model: createOpenAICompatibleModel({ baseUrl: server.url, apiKey: 'test-key', model: 'test-model', fetch, dispatcher }),
  tools: { listAvailable: () => [], execute: async (call) => ({ callId: call.id, toolName: call.name, status: 'failure' }) },
});
const result = await harness.runTurn({
  assistantId: 'proxy-check',
  turnId: 'turn-1',
  instructions: { systemPrompt: 'Answer briefly.' },
  message: { id: 'm1', text: 'Hello?', receivedAt: new Date().toISOString() },
});
process.stdout.write(
  `${JSON.stringify({
    node: process.version,
    undici: undiciVersion,
    outcome: result.outcome,
    text: result.assistantMessage?.text,
    error: result.error?.message,
    proxied,
    serverRequests: server.requests.length,
  })}\n`,
);
await dispatcher.close();
await server.close();
proxy.closeAllConnections();
proxy.close();
