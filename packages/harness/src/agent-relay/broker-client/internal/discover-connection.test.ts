import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HarnessConfigError } from '../../../core/errors/harness-config-error.js';
import { discoverRelayConnection } from './discover-connection.js';
import { loadRelayNodeModules, type RelayNodeModules } from './relay-node-modules.js';

let root: string;
let node: RelayNodeModules;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'relay-discovery-'));
  const loaded = await loadRelayNodeModules();
  // The test's own view of the environment: no ambient AGENT_RELAY_STATE_DIR.
  node = { ...loaded, env: {} };
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function writeConnection(directory: string, content: unknown) {
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, 'connection.json'), typeof content === 'string' ? content : JSON.stringify(content));
}

const live = { url: 'http://127.0.0.1:4001', api_key: 'br_live', pid: process.pid, port: 4001 };

describe('discoverRelayConnection', () => {
  it('prefers explicit baseUrl and apiKey', async () => {
    await expect(discoverRelayConnection(node, { cwd: root, baseUrl: 'http://127.0.0.1:9/', apiKey: 'k' })).resolves.toEqual({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', source: 'options' });
    await expect(discoverRelayConnection(node, { baseUrl: 'file:///etc/passwd' })).rejects.toSatisfy(HarnessConfigError.isInstance);
    await expect(discoverRelayConnection(node, { baseUrl: 'http://user:secret@127.0.0.1:9' })).rejects.toThrow(/without credentials/);
  });

  it('reads $AGENT_RELAY_STATE_DIR first, then the project file, then the legacy file', async () => {
    await writeConnection(join(root, 'legacy', '.agent-relay'), { ...live, url: 'http://127.0.0.1:4003' });
    expect((await discoverRelayConnection(node, { cwd: join(root, 'legacy') })).baseUrl).toBe('http://127.0.0.1:4003');

    await writeConnection(join(root, 'legacy', '.agentworkforce', 'relay'), { ...live, url: 'http://127.0.0.1:4002' });
    expect((await discoverRelayConnection(node, { cwd: join(root, 'legacy') })).baseUrl).toBe('http://127.0.0.1:4002');

    await writeConnection(join(root, 'state'), live);
    const fromEnv = await discoverRelayConnection({ ...node, env: { AGENT_RELAY_STATE_DIR: join(root, 'state') } }, { cwd: join(root, 'legacy') });
    expect(fromEnv).toEqual({ baseUrl: 'http://127.0.0.1:4001', apiKey: 'br_live', source: join(root, 'state', 'connection.json') });
  });

  it('accepts a legacy file with only a port and skips stale, corrupt and foreign files', async () => {
    await writeConnection(join(root, 'state'), { ...live, pid: 2 ** 30 });
    await writeConnection(join(root, 'p', '.agentworkforce', 'relay'), '{not json');
    await writeConnection(join(root, 'p', '.agent-relay'), { port: 4555, apiKey: 'br_legacy' });
    const found = await discoverRelayConnection(node, { cwd: join(root, 'p'), stateDir: join(root, 'state') });
    expect(found).toEqual({ baseUrl: 'http://127.0.0.1:4555', apiKey: 'br_legacy', source: join(root, 'p', '.agent-relay', 'connection.json') });
  });

  it('lists every path tried, with the reason, and never the api key', async () => {
    await writeConnection(join(root, 'state'), { ...live, pid: 2 ** 30, api_key: 'br_do_not_print' });
    await writeConnection(join(root, 'p', '.agent-relay'), ['not', 'an', 'object']);
    const error = (await discoverRelayConnection(node, { cwd: join(root, 'p'), stateDir: join(root, 'state') }).catch((caught: unknown) => caught)) as HarnessConfigError;
    expect(HarnessConfigError.isInstance(error)).toBe(true);
    expect(error.field).toBe('cwd');
    expect(error.message).toContain(`${join(root, 'state', 'connection.json')} (stale (broker pid ${2 ** 30} is not running))`);
    expect(error.message).toContain(`${join(root, 'p', '.agentworkforce', 'relay', 'connection.json')} (not found)`);
    expect(error.message).toContain(`${join(root, 'p', '.agent-relay', 'connection.json')} (not a connection file)`);
    expect(error.message).toContain('startBroker');
    expect(error.message).not.toContain('br_do_not_print');
  });
});
