import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { acceptWebSocket, readTextFrames, sendTextFrame } from './websocket-frames.js';

/**
 * A loopback server speaking the broker's client protocol (`GET /health`, `POST /api/send`, the
 * `/ws` event stream), whose events the test writes itself: duplicates, malformed events,
 * foreign kinds — what the real broker does only under failures.
 */
export interface FakeBroker {
  baseUrl: string;
  /** Bodies of `POST /api/send`, parsed. */
  sent: unknown[];
  /** Resolves when the next event-stream client has connected (or at once if one is connected). */
  client(): Promise<void>;
  /** Sends one frame to every event-stream client: an event object, or raw text. */
  emit(event: Record<string, unknown> | string): void;
  close(): Promise<void>;
}

/** Starts a fake broker on a free loopback port. */
export async function startFakeBroker(): Promise<FakeBroker> {
  const sent: unknown[] = [];
  const clients = new Set<Duplex>();
  const sockets = new Set<Duplex>();
  const waiting: (() => void)[] = [];
  let seq = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = (request.url ?? '/').split('?')[0];
      response.setHeader('content-type', 'application/json');
      if (request.method === 'GET' && path === '/health') return response.end(JSON.stringify({ status: 'ok', service: 'fake-broker' }));
      if (request.method === 'POST' && path === '/api/send') {
        sent.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        return response.end(JSON.stringify({ event_id: `fake_${sent.length}`, success: true }));
      }
      response.statusCode = 404;
      response.end(JSON.stringify({ code: 'not_found', message: 'not part of the fake broker' }));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (request, socket: Duplex) => {
    if ((request.url ?? '').split('?')[0] !== '/ws' || !acceptWebSocket(request, socket)) {
      socket.destroy();
      return;
    }
    clients.add(socket);
    socket.once('close', () => clients.delete(socket));
    readTextFrames(socket, () => undefined);
    for (const resolve of waiting.splice(0)) resolve();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    sent,
    client: () => (clients.size > 0 ? Promise.resolve() : new Promise((resolve) => waiting.push(resolve))),
    emit(event) {
      const text = typeof event === 'string' ? event : JSON.stringify({ seq: ++seq, ...event });
      for (const client of clients) sendTextFrame(client, text);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
