import { describe, expect, it } from 'vitest';
import { JsonRpcPeer, JsonRpcPeerError, JsonRpcRemoteError, type JsonRpcIncomingRequest } from './json-rpc-peer.js';

function peer(options: { jsonrpcField?: boolean; maxPendingRequests?: number; maxIncomingRequests?: number } = {}) {
  const sent: Record<string, unknown>[] = [];
  const requests: JsonRpcIncomingRequest[] = [];
  const notifications: [string, unknown][] = [];
  const errors: string[] = [];
  const rpc = new JsonRpcPeer({
    send: (line) => {
      sent.push(JSON.parse(line) as Record<string, unknown>);
      return true;
    },
    onRequest: (request) => requests.push(request),
    onNotification: (method, params) => notifications.push([method, params]),
    onProtocolError: (message) => errors.push(message),
    ...options,
  });
  return { rpc, sent, requests, notifications, errors };
}

describe('JsonRpcPeer', () => {
  it('numbers requests from 0 and resolves each with its own answer', async () => {
    const { rpc, sent } = peer();
    const first = rpc.request('initialize', { protocolVersion: 1 });
    const second = rpc.request('session/new', { cwd: '/tmp' });
    expect(sent).toEqual([
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } },
      { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/tmp' } },
    ]);
    rpc.receive('{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s"}}');
    rpc.receive('{"jsonrpc":"2.0","id":0,"error":{"code":-32602,"message":"bad"}}');
    await expect(second).resolves.toEqual({ sessionId: 's' });
    const error = await first.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JsonRpcRemoteError);
    expect(error).toMatchObject({ code: 'HARNESS_ERR_JSON_RPC_REMOTE', rpcCode: -32602, message: 'bad' });
  });

  it('takes a request with id 0 from the other side and answers it once', () => {
    const { rpc, sent, requests } = peer();
    rpc.receive('{"jsonrpc":"2.0","id":0,"method":"session/request_permission","params":{"a":1}}');
    expect(requests).toEqual([{ id: 0, method: 'session/request_permission', params: { a: 1 } }]);
    expect(rpc.openIncomingRequests()).toHaveLength(1);
    expect(rpc.respond(0, { outcome: { outcome: 'selected', optionId: 'proceed_once' } })).toBe(true);
    expect(rpc.respond(0, {})).toBe(false);
    expect(rpc.respond('0', {})).toBe(false);
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 0, result: { outcome: { outcome: 'selected', optionId: 'proceed_once' } } }]);
  });

  it('keeps string and number ids apart, and a "__proto__" id is just an id', () => {
    const { rpc, requests } = peer();
    rpc.receive('{"id":"__proto__","method":"m"}');
    rpc.receive('{"id":"0","method":"m"}');
    rpc.receive('{"id":0,"method":"m"}');
    expect(requests.map((request) => request.id)).toEqual(['__proto__', '0', 0]);
    expect(rpc.respondError('__proto__', -1, 'no')).toBe(true);
    expect(rpc.openIncomingRequests()).toHaveLength(2);
  });

  it('delivers notifications and omits the jsonrpc field when told to (codex)', () => {
    const { rpc, sent, notifications } = peer({ jsonrpcField: false });
    rpc.receive('{"method":"turn/started","params":{"turn":{"id":"t"}}}');
    rpc.notify('initialized');
    expect(notifications).toEqual([['turn/started', { turn: { id: 't' } }]]);
    expect(sent).toEqual([{ method: 'initialized' }]);
  });

  it('reports hostile or broken lines instead of throwing', () => {
    const { rpc, errors, requests, notifications } = peer();
    for (const line of ['not json', '[1,2]', '{"jsonrpc":"1.0","method":"x"}', '{"id":1.5,"method":"x"}', '{"id":7,"result":1}', '{"result":1}', '{"id":{},"method":"x"}', 'null']) {
      rpc.receive(line);
    }
    expect(errors).toHaveLength(8);
    expect(requests).toEqual([]);
    expect(notifications).toEqual([]);
  });

  it('refuses a duplicate open id and too many open incoming requests with error answers', () => {
    const { rpc, sent, requests } = peer({ maxIncomingRequests: 1 });
    rpc.receive('{"id":0,"method":"a"}');
    rpc.receive('{"id":0,"method":"b"}');
    rpc.receive('{"id":1,"method":"c"}');
    expect(requests).toHaveLength(1);
    expect(sent.map((message) => (message['error'] as { code: number }).code)).toEqual([-32600, -32000]);
  });

  it('bounds pending requests, rejects them all when closed, and refuses new ones', async () => {
    const { rpc } = peer({ maxPendingRequests: 2 });
    const a = rpc.request('a', undefined);
    const b = rpc.request('b', undefined);
    await expect(rpc.request('c', undefined)).rejects.toMatchObject({ reason: 'too_many_pending' });
    rpc.close('The engine exited (code 1).');
    await expect(a).rejects.toBeInstanceOf(JsonRpcPeerError);
    await expect(b).rejects.toMatchObject({ reason: 'closed', message: 'The engine exited (code 1).' });
    await expect(rpc.request('d', undefined)).rejects.toMatchObject({ reason: 'closed' });
    expect(rpc.notify('x')).toBe(false);
  });

  it('rejects an aborted request and a request that cannot be written', async () => {
    const controller = new AbortController();
    const { rpc, errors } = peer();
    const pending = rpc.request('slow', {}, controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ reason: 'aborted' });
    rpc.receive('{"jsonrpc":"2.0","id":0,"result":{}}');
    expect(errors).toHaveLength(1);
    const closed = new JsonRpcPeer({ send: () => false, onRequest: () => undefined, onNotification: () => undefined });
    await expect(closed.request('x', {})).rejects.toMatchObject({ reason: 'write_failed' });
  });

  it('survives listeners that throw', () => {
    const errors: string[] = [];
    const rpc = new JsonRpcPeer({
      send: () => true,
      onRequest: () => {
        throw new Error('boom');
      },
      onNotification: () => {
        throw new Error('bang');
      },
      onProtocolError: (message) => errors.push(message),
    });
    rpc.receive('{"id":0,"method":"m"}');
    rpc.receive('{"method":"n"}');
    expect(errors).toEqual(['A listener failed: boom', 'A listener failed: bang']);
  });
});
