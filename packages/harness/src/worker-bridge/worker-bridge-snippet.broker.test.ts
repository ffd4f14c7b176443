// examples/byoh-worker: its index.mjs, and the documented bridge snippet (readme-snippet.ts,
// verbatim in the docs and the package README), each run as its own Node process against the
// built package and the real broker (the snippet with a fake `claude` first on PATH); the
// orchestrator's adapter runs here.
import { mkdir, readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startBrokerRig, type BrokerRig } from '../agent-relay/__fixtures__/broker-rig.js';
import { executionRequest, fixtureExecutable } from '../local/__fixtures__/test-helpers.js';
import { AgentRelayExecutionAdapter } from '../agent-relay/execution-adapter/agent-relay-execution-adapter.js';
import { startChild, type Child } from './__fixtures__/worker-child.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const snippetPath = `${root}examples/byoh-worker/readme-snippet.ts`;
const cache = `${root}node_modules/.cache/agent-assistant-tests`;
const compiled = `${cache}/byoh-worker-readme-snippet-${process.pid}.mjs`;

let rig: BrokerRig;
let child: Child | undefined;
let adapter: AgentRelayExecutionAdapter | undefined;

beforeEach(async () => {
  vi.stubEnv('AGENT_RELAY_STATE_DIR', undefined as unknown as string);
  rig = await startBrokerRig();
});

afterEach(async () => {
  await adapter?.shutdown();
  await child?.stop();
  await rig.stop();
  await rm(compiled, { force: true });
  vi.unstubAllEnvs();
});

describe('examples/byoh-worker', () => {
  it('serves a turn through the real broker with the bash runner, and stops on SIGTERM', async () => {
    child = startChild(`${root}examples/byoh-worker/index.mjs`, [], { env: { ...rig.childEnv, BYOH_CLI: 'bash' }, cwd: rig.cwd });
    expect(await child.waitForLine(/is working on channel|exited/), child.stderr()).toMatch(/specialist-worker is working on channel specialists with bash/);
    adapter = new AgentRelayExecutionAdapter({ cwd: rig.cwd, channelId: 'specialists', workerName: 'specialist-worker', orchestratorName: 'chat' });
    const result = await adapter.execute(executionRequest('ping'));
    expect(result).toMatchObject({ status: 'completed', output: { text: expect.stringMatching(/^worker \S+ got \d+ bytes of prompt$/) } });
    expect(await child.waitForLine(/turn-local from chat: completed/)).toBeTruthy();
    expect(await child.stop(), child.stderr()).toEqual({ code: 0, signal: null });
  });
});

describe('worker bridge snippet', () => {
  it('is verbatim in docs/worker-bridge.md and the package README (with the adapter snippet, run by agent-relay-snippet.broker.test.ts)', async () => {
    const snippet = await readFile(snippetPath, 'utf8');
    const readme = await readFile(`${root}packages/harness/README.md`, 'utf8');
    expect(await readFile(`${root}docs/worker-bridge.md`, 'utf8')).toContain(snippet);
    expect(readme).toContain(snippet);
    expect(readme).toContain(await readFile(`${root}examples/agent-relay/readme-snippet.ts`, 'utf8'));
  });

  it('runs as written: serves a turn with `claude` from PATH, and stops on SIGTERM', async () => {
    await mkdir(cache, { recursive: true });
    await build({ entryPoints: [snippetPath], outfile: compiled, format: 'esm', platform: 'node', logLevel: 'silent' });
    const bin = `${rig.cwd}/bin`;
    await mkdir(bin);
    fixtureExecutable(bin, 'claude', 'fake-claude.mjs');
    child = startChild(compiled, [], { env: { ...rig.childEnv, PATH: `${bin}:${rig.childEnv['PATH']}` }, cwd: rig.cwd });
    expect(await child.waitForLine(/worker ready|exited/), child.stderr()).toBe('worker ready');
    adapter = new AgentRelayExecutionAdapter({ cwd: rig.cwd, channelId: 'specialists', workerName: 'specialist-worker', orchestratorName: 'chat' });
    const result = await adapter.execute(executionRequest('ping'));
    expect(result).toMatchObject({ status: 'completed', output: { text: 'PONG from fake (message 1)' }, continuation: { kind: 'claude-code.session' } });
    const exit = await child.stop();
    expect(exit, child.stderr()).toEqual({ code: 0, signal: null });
  });
});
