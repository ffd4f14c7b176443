import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { acceptWebSocket, readTextFrames, sendTextFrame } from './websocket-frames.js';

/** One HTTP request the stand-in received. */
export interface StandInRequest {
  method: string;
  path: string;
  body: unknown;
}

/** A loopback stand-in of the Relaycast service, as much of it as broker 9.1.6 needs. */
export interface RelaycastStandIn {
  /** `http://127.0.0.1:<port>`: the broker's `RELAYCAST_BASE_URL`. */
  url: string;
  /** Every HTTP request, in order. */
  requests: StandInRequest[];
  /** Frames received on `/v1/node/ws`, parsed. */
  nodeFrames: unknown[];
  /** Makes `POST /v1/dm` answer with this HTTP status (e.g. 500) until reset with `undefined`. */
  failDirectMessages(status: number | undefined): void;
  /** Closes the server and every socket. */
  close(): Promise<void>;
}

function sendJson(response: ServerResponse, status: number, data: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ ok: status < 400, data }));
}

/** Answers `agent.register` frames of the broker's node socket; ignores the rest. */
function serveNodeSocket(socket: Duplex, frames: unknown[]) {
  readTextFrames(socket, (text) => {
    let frame: Record<string, unknown>;
    try {
      frame = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return;
    }
    frames.push(frame);
    if (frame['type'] !== 'agent.register') return;
    const inner = (frame['payload'] ?? frame['data'] ?? frame) as Record<string, unknown>;
    const name = typeof inner['name'] === 'string' ? inner['name'] : 'agent';
    sendTextFrame(socket, JSON.stringify({ type: 'reply', v: 1, id: frame['id'], ok: true, data: { agent_id: `agent-${name}`, token: `token-${name}`, name } }));
  });
}

/** Starts the stand-in on a free loopback port. */
export async function startRelaycastStandIn(): Promise<RelaycastStandIn> {
  const requests: StandInRequest[] = [];
  const nodeFrames: unknown[] = [];
  const sockets = new Set<Duplex>();
  let dmFailure: number | undefined;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = text;
    }
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const method = request.method ?? 'GET';
    requests.push({ method, path, body });
    const named = (body as { name?: unknown } | undefined)?.name;
    const name = typeof named === 'string' ? named : 'broker';
    if (method === 'POST' && path === '/v1/agents') {
      return sendJson(response, 201, { id: `agent-${name}`, name, workspace_id: 'ws-test', token: 'agent-token', status: 'online', created_at: new Date().toISOString() });
    }
    if (method === 'POST' && path.startsWith('/v1/channels')) {
      const channel = path.split('/')[3] ?? name;
      return sendJson(response, 200, { id: `channel-${channel}`, name: channel, workspace_id: 'ws-test', created_at: new Date().toISOString(), topic: null, is_archived: false });
    }
    if (method === 'POST' && path === '/v1/dm') {
      if (dmFailure !== undefined) return sendJson(response, dmFailure, { code: 'stand_in_failure', message: 'direct messages disabled by the test' });
      return sendJson(response, 200, { id: `dm-${requests.length}`, conversation_id: 'conversation-test' });
    }
    if (method === 'POST' && path === '/v1/agents/release') {
      return sendJson(response, 200, { name, released: true, deleted: false, reason: null });
    }
    return sendJson(response, 404, { code: 'not_found', message: `${method} ${path} is not part of the stand-in` });
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (request, socket: Duplex) => {
    if ((request.url ?? '').split('?')[0] !== '/v1/node/ws' || !acceptWebSocket(request, socket)) {
      socket.destroy();
      return;
    }
    serveNodeSocket(socket, nodeFrames);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    nodeFrames,
    failDirectMessages(status) {
      dmFailure = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
