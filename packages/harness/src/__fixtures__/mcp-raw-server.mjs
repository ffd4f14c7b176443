// A real MCP server (the SDK's low-level `Server`) whose answers the test writes raw, past the
// SDK's own types: for tool lists with malformed entries, huge lists and servers echoing headers.
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** A low-level SDK server answering `tools/list` and `tools/call` from `script`. */
export function createRawServer(script) {
  const server = new Server({ name: 'raw-test-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (request, extra) => {
    const cursor = request.params?.cursor;
    return script.listTools(typeof cursor === 'string' ? cursor : undefined, extra.requestInfo?.headers ?? {});
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const result = await script.callTool?.(request.params.name, request.params.arguments, extra.requestInfo?.headers ?? {});
    return result ?? { content: [] };
  });
  return server;
}

/**
 * A streamable-HTTP handler for loopback tests: one SDK transport and a fresh server (from
 * `makeServer`) per MCP session; `options.intercept` may answer a posted message instead.
 */
export function mcpHttpHandler(makeServer, options = {}) {
  const transports = new Map();
  return (request, response) => {
    void readBody(request).then(async (text) => {
      const message = text === '' ? undefined : JSON.parse(text);
      const answer = message === undefined ? undefined : options.intercept?.(message, request);
      if (answer !== undefined) {
        response.writeHead(answer.status, { 'content-type': 'text/plain' });
        response.end(answer.body);
        return;
      }
      const sessionId = request.headers['mcp-session-id'];
      let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
      if (transport === undefined) {
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => {
            transports.set(id, created);
          },
        });
        transport = created;
        await makeServer().connect(created);
      }
      await transport.handleRequest(request, response, message);
    });
  };
}

/**
 * A `fetch` that answers from a fresh stateless SDK server per request (no socket): the
 * registry's streamable-HTTP client speaks the real protocol to it. `options.intercept` may
 * answer a posted message instead.
 */
export function mcpFetch(makeServer, options = {}) {
  return async (input, init) => {
    const request = new Request(input, init);
    const text = request.method === 'POST' ? await request.clone().text() : '';
    const message = text === '' ? undefined : JSON.parse(text);
    const answer = message === undefined ? undefined : options.intercept?.(message, Object.fromEntries(request.headers));
    if (answer !== undefined) return new Response(answer.body, { status: answer.status, headers: { 'content-type': 'text/plain' } });
    if (request.method !== 'POST') return new Response(null, { status: 405 });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await makeServer().connect(transport);
    return transport.handleRequest(request);
  };
}

function readBody(request) {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}
