import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RelayInboundMessage } from '../protocol/relay-transport.js';
import { startFakeBroker, type FakeBroker } from '../__fixtures__/fake-broker.js';
import { RelayAdapter } from './relay-adapter.js';

// Event handling of RelayAdapter against a fake broker whose /ws frames the test writes.

let broker: FakeBroker;
let relay: RelayAdapter;

beforeEach(async () => {
  broker = await startFakeBroker();
  relay = new RelayAdapter({ baseUrl: broker.baseUrl, apiKey: 'br_fake' });
  await relay.start();
  await broker.client();
});

afterEach(async () => {
  await relay.shutdown();
  await broker.close();
});

const inbound = (id: string, target: string, body: string) => ({ kind: 'relay_inbound', event_id: id, from: 'sender', target, body, thread_id: 'thread-1', workspace_id: 'ws' });

describe('RelayAdapter event stream', () => {
  it('delivers each event id once, only to the target, and skips malformed and foreign events', async () => {
    const forA: RelayInboundMessage[] = [];
    const forProto: RelayInboundMessage[] = [];
    relay.subscribe('a', (message) => forA.push(message));
    relay.subscribe('__proto__', (message) => forProto.push(message));
    relay.subscribe('a', () => {
      throw new Error('a faulty listener does not stop the others');
    });
    const last = new Promise<void>((resolve) => relay.subscribe('last', () => resolve()));

    broker.emit(inbound('e1', 'a', 'one'));
    broker.emit(inbound('e1', 'a', 'one again (a replay)'));
    broker.emit(inbound('e2', 'b', 'for somebody else'));
    broker.emit({ kind: 'relay_inbound', event_id: 'e3', target: 'a' }); // no body, no sender
    broker.emit({ kind: 'agent_spawned', name: 'a' });
    broker.emit('not json at all');
    broker.emit({ ...inbound('e4', '__proto__', 'hostile name'), thread_id: null });
    broker.emit(inbound('e5', 'last', 'end'));
    await last;

    expect(forA).toEqual([{ id: 'e1', from: 'sender', target: 'a', threadId: 'thread-1', text: 'one' }]);
    expect(forProto).toEqual([{ id: 'e4', from: 'sender', target: '__proto__', text: 'hostile name' }]);
    expect(relay.stats()).toEqual({ delivered: 3, duplicates: 1, malformed: 1 });
  });

  it('sends with the sender, target, thread and workspace the broker expects', async () => {
    const scoped = new RelayAdapter({ baseUrl: broker.baseUrl, apiKey: 'br_fake', workspaceId: 'ws-7' });
    try {
      await scoped.send({ from: 'me', to: 'you', text: 'hi', threadId: 't-9', channelId: 'ignored-by-the-broker-api' });
    } finally {
      await scoped.shutdown();
    }
    expect(broker.sent).toEqual([expect.objectContaining({ from: 'me', to: 'you', text: 'hi', threadId: 't-9', workspaceId: 'ws-7' })]);
  });
});
