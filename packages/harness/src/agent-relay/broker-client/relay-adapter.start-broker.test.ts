import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RelayInboundMessage } from '../protocol/relay-transport.js';
import { brokerBinaryPath } from '../__fixtures__/broker-rig.js';
import { startRelaycastStandIn, type RelaycastStandIn } from '../__fixtures__/relaycast-stand-in.js';
import { RelayAdapter } from './relay-adapter.js';

let cwd: string;
let standIn: RelaycastStandIn;

beforeEach(async () => {
  // HarnessDriverClient.spawn merges this process's environment into the broker's: keep relay variables out.
  for (const name of Object.keys(process.env)) {
    if (name.startsWith('RELAY_') || name.startsWith('AGENT_RELAY_')) vi.stubEnv(name, undefined as unknown as string);
  }
  cwd = await mkdtemp(join(tmpdir(), 'relay-start-broker-'));
  standIn = await startRelaycastStandIn();
});

afterEach(async () => {
  await standIn.close();
  await rm(cwd, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

describe('RelayAdapter with startBroker', () => {
  it('starts a broker when none is found, carries messages, and stops it on shutdown', async () => {
    const relay = new RelayAdapter({
      cwd,
      startBroker: {
        binaryPath: brokerBinaryPath()!,
        env: { HOME: cwd, RELAYCAST_BASE_URL: standIn.url, RELAY_NODE_TOKEN: 'node-token-test', AGENT_RELAY_TELEMETRY_DISABLED: '1', AGENT_RELAY_NO_DEBUG_FILES: '1', AGENT_RELAY_BROKER_LOG: 'off', AGENT_RELAY_WORKSPACE_KEY: 'rk_live_fake' },
      },
    });
    try {
      await relay.start();
      expect(relay.connection).toMatchObject({ source: 'started', baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
      const received = new Promise<RelayInboundMessage>((resolve) => relay.subscribe('me', resolve));
      await relay.send({ from: 'me', to: 'me', text: 'hello', threadId: 't' });
      expect(await received).toMatchObject({ from: 'me', text: 'hello', threadId: 't' });
      const baseUrl = relay.connection!.baseUrl;
      await relay.shutdown();
      await expect(fetch(`${baseUrl}/health`)).rejects.toThrow();
    } finally {
      await relay.shutdown();
    }
  });
});
