import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeModelServer, FakeRecordedRequest, FakeServerReply, FakeServerScript } from '../fake-model-server-types.js';

/** How a protocol turns a reply into bytes. */
export type RenderedReply =
  | { kind: 'body'; status: number; headers: Record<string, string>; body: string }
  | { kind: 'stream'; status: number; headers: Record<string, string>; chunks: string[]; end: boolean }
  | { kind: 'hang' };

/** What a protocol plugs into the generic server. */
export interface FakeProtocol {
  /**
   * The POST path it answers, e.g. `/v1/chat/completions`, or a test of the path (query excluded)
   * for protocols whose path carries the model, such as Gemini's `/v1beta/models/{model}:generateContent`.
   */
  path: string | ((path: string) => boolean);
  /** How the path is named in the 404 message when `path` is a test. @default the path */
  pathLabel?: string;
  /**
   * The path of the base URL the server reports as `url` (what a client is configured with).
   * @default '/v1'
   */
  basePath?: string;
  /** Renders a reply for a request. */
  render(reply: FakeServerReply, request: FakeRecordedRequest, sequence: number): RenderedReply;
  /** The reply when nothing is scripted, or the path is wrong. */
  unscripted(message: string, status: number): FakeServerReply;
}

/** Starts a loopback HTTP server that answers `protocol.path` from a script and records requests. */
export async function startFakeHttpServer(protocol: FakeProtocol, initial: FakeServerScript[], listenPort = 0): Promise<FakeModelServer> {
  if (!Number.isInteger(listenPort) || listenPort < 0 || listenPort > 65_535) throw new RangeError('port must be a whole number from 0 to 65535.');
  const script: FakeServerScript[] = [...initial];
  const requests: FakeRecordedRequest[] = [];
  let sequence = 0;
  const server = createServer((incoming, response) => {
    void handle(incoming, response);
  });
  const handle = async (incoming: IncomingMessage, response: ServerResponse) => {
    let resolveClosed!: () => void;
    const closed = new Promise<void>((resolve) => {
      resolveClosed = resolve;
    });
    let aborted = false;
    response.on('error', () => undefined);
    response.on('close', () => {
      aborted = !response.writableFinished;
      resolveClosed();
    });
    const rawUrl = incoming.url ?? '/';
    const queryAt = rawUrl.indexOf('?');
    const path = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
    // Recorded as soon as the headers arrive, so a client that gives up early is still seen.
    const request: FakeRecordedRequest = {
      method: incoming.method ?? 'GET',
      path,
      search: queryAt === -1 ? '' : rawUrl.slice(queryAt),
      headers: Object.fromEntries(Object.entries(incoming.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')])),
      body: undefined,
      closed,
      abortedByClient: () => aborted,
    };
    requests.push(request);
    const raw = await readAll(incoming).catch(() => '');
    try {
      request.body = JSON.parse(raw);
    } catch {
      request.body = raw;
    }
    sequence += 1;
    let reply: FakeServerReply;
    const answers = typeof protocol.path === 'string' ? path === protocol.path : protocol.path(path);
    if (request.method !== 'POST' || !answers) {
      const label = protocol.pathLabel ?? (typeof protocol.path === 'string' ? protocol.path : 'its API path');
      reply = protocol.unscripted(`The fake server only answers POST ${label}.`, 404);
    } else {
      const next = script.shift();
      reply = next === undefined ? protocol.unscripted('The fake server has no scripted reply for this request.', 500) : typeof next === 'function' ? next(request) : next;
    }
    // A client that already went away still uses up its scripted reply; nothing is written.
    if (!response.destroyed) write(response, protocol.render(reply, request, sequence));
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listenPort, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${protocol.basePath ?? '/v1'}`,
    requests,
    enqueue: (...replies) => {
      script.push(...replies);
    },
    pending: () => script.length,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}

function write(response: ServerResponse, rendered: RenderedReply): void {
  if (rendered.kind === 'hang') return;
  if (rendered.kind === 'body') {
    response.writeHead(rendered.status, { 'content-length': String(Buffer.byteLength(rendered.body)), ...rendered.headers });
    response.end(rendered.body);
    return;
  }
  response.writeHead(rendered.status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...rendered.headers });
  response.flushHeaders();
  for (const chunk of rendered.chunks) response.write(chunk);
  if (rendered.end) response.end();
}

function readAll(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    incoming.on('data', (part: Buffer) => parts.push(part));
    incoming.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    incoming.on('error', reject);
  });
}

/** Splits text into pieces of `size` characters (at least one piece, possibly empty). */
export function splitText(text: string, size: number): string[] {
  const step = Math.max(1, size);
  const pieces: string[] = [];
  for (let index = 0; index < text.length; index += step) pieces.push(text.slice(index, index + step));
  return pieces;
}

/** Applies `truncateAfterEvents` / `stallAfterEvents` to rendered SSE events. */
export function streamReply(
  events: string[],
  reply: { truncateAfterEvents?: number; stallAfterEvents?: number; headers?: Record<string, string> },
): RenderedReply {
  const headers = reply.headers ?? {};
  if (reply.stallAfterEvents !== undefined) return { kind: 'stream', status: 200, headers, chunks: events.slice(0, reply.stallAfterEvents), end: false };
  if (reply.truncateAfterEvents !== undefined) return { kind: 'stream', status: 200, headers, chunks: events.slice(0, reply.truncateAfterEvents), end: true };
  return { kind: 'stream', status: 200, headers, chunks: events, end: true };
}

/** Renders the replies every protocol shares (`http`, `sse`, `hang`); `undefined` for the others. */
export function renderCommonReply(reply: FakeServerReply): RenderedReply | undefined {
  switch (reply.type) {
    case 'hang':
      return { kind: 'hang' };
    case 'http': {
      const body = typeof reply.body === 'string' ? reply.body : reply.body === undefined ? '' : JSON.stringify(reply.body);
      const contentType = typeof reply.body === 'string' ? 'text/plain' : 'application/json';
      return { kind: 'body', status: reply.status, headers: { 'content-type': contentType, ...reply.headers }, body };
    }
    case 'sse':
      return { kind: 'stream', status: reply.status ?? 200, headers: reply.headers ?? {}, chunks: reply.chunks, end: reply.end ?? true };
    default:
      return undefined;
  }
}
