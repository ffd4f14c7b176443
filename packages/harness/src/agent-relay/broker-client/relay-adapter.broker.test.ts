import { Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { RelayInboundMessage } from '../protocol/relay-transport.js';
import { startBrokerRig, type BrokerRig } from '../__fixtures__/broker-rig.js';
import { RelayConnectionError } from './errors/relay-connection-error.js';
import { RelayAdapter } from './relay-adapter.js';

let rig: BrokerRig | undefined;
const adapters: RelayAdapter[] = [];

beforeEach(async () => {
  vi.stubEnv('AGENT_RELAY_STATE_DIR', undefined as unknown as string);
  rig = await startBrokerRig();
});

afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.shutdown()));
  await rig?.stop();
  rig = undefined;
  vi.unstubAllEnvs();
});

function adapter(options: ConstructorParameters<typeof RelayAdapter>[0] = {}): RelayAdapter {
  const created = new RelayAdapter({ cwd: rig!.cwd, ...options });
  adapters.push(created);
  return created;
}

function next(relay: RelayAdapter, name: string): Promise<RelayInboundMessage> {
  return new Promise((resolve) => {
    const stop = relay.subscribe(name, (message) => {
      stop();
      resolve(message);
    });
  });
}

describe('RelayAdapter through the real broker', () => {
  it('finds the broker from {cwd}/.agentworkforce/relay/connection.json and carries messages between two clients', async () => {
    const orchestrator = adapter();
    const worker = adapter();
    await Promise.all([orchestrator.start(), worker.start()]);
    expect(orchestrator.connection).toEqual({ baseUrl: rig!.baseUrl, source: rig!.connectionPath });

    const atWorker = next(worker, 'worker');
    await orchestrator.send({ from: 'chat', to: 'worker', text: 'ping', threadId: 'thread-1' });
    expect(await atWorker).toMatchObject({ from: 'chat', target: 'worker', text: 'ping', threadId: 'thread-1' });

    const atChat = next(orchestrator, 'chat');
    await worker.send({ from: 'worker', to: 'chat', text: 'pong', threadId: 'thread-1' });
    expect(await atChat).toMatchObject({ from: 'worker', target: 'chat', text: 'pong', threadId: 'thread-1' });
    expect(rig!.standIn.requests.filter((request) => request.path === '/v1/dm')).toHaveLength(2);
  });

  it('leaves no socket or timer behind after shutdown while the broker keeps running', async () => {
    const port = Number(new URL(rig!.baseUrl).port);
    // Sockets of this process connected to the broker (the stand-in's own server sockets are the rig's).
    const brokerSockets = () =>
      (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().filter((handle) => handle instanceof Socket && handle.remotePort === port).length;
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const timersBefore = timers();
    const relay = adapter();
    await relay.start();
    const echoed = next(relay, 'me');
    await relay.send({ from: 'me', to: 'me', text: 'hello' });
    await echoed;
    expect(brokerSockets()).toBeGreaterThan(0);
    await relay.shutdown();
    // A socket closes on the next turns of the event loop, not synchronously.
    await vi.waitFor(() => expect(brokerSockets()).toBe(0), { timeout: 1_000 });
    expect(timers()).toBeLessThanOrEqual(timersBefore);
  });

  it('delivers to a subscriber only the messages addressed to its name', async () => {
    const relay = adapter();
    await relay.start();
    const forA: string[] = [];
    const stopA = relay.subscribe('a', (message) => forA.push(message.text));
    const atB = next(relay, 'b');
    await relay.send({ from: 'x', to: 'a', text: 'one' });
    await relay.send({ from: 'x', to: 'c', text: 'not for anyone here' });
    await relay.send({ from: 'x', to: 'b', text: 'two' });
    expect((await atB).text).toBe('two');
    stopA();
    expect(forA).toEqual(['one']);
  });

  it('uses explicit baseUrl and apiKey, and fails clearly with a wrong key', async () => {
    const relay = adapter({ cwd: '/nonexistent', baseUrl: rig!.baseUrl, apiKey: rig!.apiKey });
    await relay.start();
    expect(relay.connection?.source).toBe('options');
    const wrong = adapter({ baseUrl: rig!.baseUrl, apiKey: 'br_wrong' });
    await wrong.start().catch(() => undefined);
    await expect(wrong.send({ from: 'a', to: 'b', text: 'x' })).rejects.toSatisfy((error: unknown) => RelayConnectionError.isInstance(error) && !String(error).includes('br_wrong'));
  });

  it('lists the paths it tried when no broker is found', async () => {
    const relay = adapter({ cwd: `${rig!.cwd}/elsewhere`, stateDir: `${rig!.cwd}/no-state` });
    const error = await relay.start().catch((caught: unknown) => caught);
    expect(HarnessConfigError.isInstance(error)).toBe(true);
    expect(String((error as Error).message)).toContain(`${rig!.cwd}/no-state/connection.json (not found)`);
    expect(String((error as Error).message)).toContain(`${rig!.cwd}/elsewhere/.agentworkforce/relay/connection.json (not found)`);
    expect(String((error as Error).message)).toContain(`${rig!.cwd}/elsewhere/.agent-relay/connection.json (not found)`);
  });

  it('reconnects its event stream after a broker restart and keeps delivering', async () => {
    const relay = adapter();
    await relay.start();
    const before = next(relay, 'a');
    await relay.send({ from: 'x', to: 'a', text: 'before' });
    expect((await before).text).toBe('before');
    await rig!.restartBroker();
    // The client reconnects on its own (every 2 s). Until then a new broker's events cannot reach
    // it, so probe until one arrives; then a message sent afterwards must arrive too.
    const probes: string[] = [];
    const stopProbes = relay.subscribe('probe', (message) => probes.push(message.text));
    await vi.waitFor(
      async () => {
        await relay.send({ from: 'x', to: 'probe', text: 'probe' });
        expect(probes.length).toBeGreaterThan(0);
      },
      { timeout: 10_000, interval: 200 },
    );
    stopProbes();
    const after = next(relay, 'a');
    await relay.send({ from: 'x', to: 'a', text: 'after' });
    expect((await after).text).toBe('after');
  });

  it('reports a dead broker to connection watchers and on shutdown', async () => {
    const relay = adapter({ healthCheckIntervalMs: 50 });
    await relay.start();
    const lost = new Promise<Error>((resolve) => relay.watchConnection(resolve));
    await rig!.killBroker();
    expect(RelayConnectionError.isInstance(await lost)).toBe(true);
    const onShutdown = new Promise<Error>((resolve) => relay.watchConnection(resolve));
    await relay.shutdown();
    expect((await onShutdown).message).toContain('shut down');
  });

  it('fails a send with RelayConnectionError once the broker is gone', async () => {
    const relay = adapter();
    await relay.start();
    await rig!.killBroker();
    await expect(relay.send({ from: 'a', to: 'b', text: 'x' })).rejects.toSatisfy(RelayConnectionError.isInstance);
  });
});
