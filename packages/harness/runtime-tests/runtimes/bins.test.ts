// The built bins under Bun and Deno: `agent-assistant --version`, a `run` turn against the loopback
// fake model (workspace tools over the Node VFS), a pause in one runtime resumed in the other (and
// refused the second time), and `agent-assistant-worker` answering a turn through the real broker;
// in every runtime with processes, the worker killed mid-run leaves no CLI behind (the orphan guard).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrokerRig, type BrokerRig } from '../../src/agent-relay/__fixtures__/broker-rig.js';
import { AgentRelayExecutionAdapter } from '../../src/agent-relay/execution-adapter/agent-relay-execution-adapter.js';
import { binPath, cliEnv } from '../../src/cli/__fixtures__/cli-process.js';
import { cleanupTempDirs, isAlive, tempDir } from '../../src/local/__fixtures__/test-helpers.js';
import { createFakeOpenAICompatibleServer } from '../../src/testing/node/create-fake-openai-compatible-server.js';
import type { FakeModelServer, FakeServerScript } from '../../src/testing/node/fake-model-server-types.js';
import { fullRequest } from '../../src/worker-bridge/__fixtures__/bridge-test-helpers.js';
import { startChild, WORKER_BIN } from '../../src/worker-bridge/__fixtures__/worker-child.js';
import { recordWhenFinished, writeMatrix } from './matrix.js';
import { runScript, SCRIPT_RUNTIMES, type ScriptRuntime } from './runtimes.js';

const SECRET = 'bins-continuation-secret-0123456789';
const VERSION = (JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { version: string }).version;
const BIN_RUNTIMES = SCRIPT_RUNTIMES.filter((runtime) => runtime.name === 'bun' || runtime.name === 'deno');

let home: string;
let workspace: string;
let profiles: string;
let server: FakeModelServer;
let rig: BrokerRig;

const toolThenAnswer = (answer: string): FakeServerScript[] => [
  { toolCalls: [{ id: 'call_1', name: 'workspace_read', arguments: { path: 'README.md' } }], usage: { inputTokens: 210, outputTokens: 18 } },
  { text: answer, deltaSize: 5, usage: { inputTokens: 260, outputTokens: 21 } },
];

/** Polls on each turn of the event loop until `pid` is dead (a process that is not our child leaves no event to wait on), up to 10 s. */
async function waitForDeath(pid: number): Promise<boolean> {
  const end = Date.now() + 10_000;
  while (isAlive(pid) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
  return !isAlive(pid);
}

function cli(runtime: ScriptRuntime, args: string[], extraEnv: Record<string, string> = {}) {
  return runScript(runtime, binPath, args, { cwd: home, env: cliEnv(home, extraEnv) });
}
const runLocal = (...args: string[]) => ['run', '--profiles', profiles, '--profile', 'local', '--workspace', workspace, ...args];

beforeAll(async () => {
  home = tempDir('runtimes-bins-');
  workspace = join(home, 'ws');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'README.md'), 'hello from the workspace\n');
  server = await createFakeOpenAICompatibleServer();
  profiles = join(home, 'profiles.json');
  writeFileSync(
    profiles,
    JSON.stringify({ profiles: [{ id: 'local', provider: 'fake', protocol: 'openai-chat', model: 'fake-model', endpoint: server.url, authMode: 'none' }] }),
  );
  rig = await startBrokerRig();
}, 60_000);

afterAll(async () => {
  await rig?.stop();
  await server?.close();
  cleanupTempDirs();
  console.log(writeMatrix('bins', SCRIPT_RUNTIMES.map((runtime) => runtime.name), new Map()));
});

describe.each(BIN_RUNTIMES)('the built bins under $name', (runtime) => {
  const other = BIN_RUNTIMES.find((candidate) => candidate !== runtime)!;

  it('agent-assistant --version', async (context) => {
    recordWhenFinished(context, 'scenario', 'CLI --version', runtime.name);
    const result = await cli(runtime, ['--version']);
    expect(result).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
  });

  it('agent-assistant run: a workspace_read turn against the loopback model', async (context) => {
    recordWhenFinished(context, 'scenario', 'CLI run (workspace tools, loopback model)', runtime.name);
    server.enqueue(...toolThenAnswer('The README says hello.'));
    const result = await cli(runtime, runLocal('--prompt', 'What does the README say?'));
    expect(result.stderr).toMatch(/^completed \(answer_finalized\) · 2 steps · 1 tool call · 470 in \/ 39 out tokens · \d+\.\d s\n$/);
    expect(result).toMatchObject({ code: 0, stdout: 'The README says hello.\n' });
    expect(JSON.stringify(server.requests.at(-1)!.body)).toContain('hello from the workspace');
    expect(server.pending()).toBe(0);
  });

  it(`agent-assistant run pauses here, resume in ${other.name} completes it, a second resume here is refused`, async (context) => {
    recordWhenFinished(context, 'scenario', 'CLI pause → resume in the other runtime → second resume refused', runtime.name);
    const file = join(home, `paused-in-${runtime.name}.json`);
    const env = { AGENT_ASSISTANT_CONTINUATION_SECRET: SECRET };
    server.enqueue(toolThenAnswer('')[0]!);
    const paused = await cli(runtime, runLocal('--prompt', 'Read the README', '--require-approval', 'workspace_read', '--continuation-out', file), env);
    expect(paused.code, paused.stderr).toBe(3);
    server.enqueue(toolThenAnswer('Approved and read.')[1]!);
    const resumed = await cli(other, ['resume', '--continuation', file, '--approve', 'call_1'], env);
    expect(resumed, resumed.stderr).toMatchObject({ code: 0, stdout: 'Approved and read.\n' });
    const again = await cli(runtime, ['resume', '--continuation', file, '--approve', 'call_1'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already resumed');
  });

  it('agent-assistant-worker answers a turn through the real broker and stops on SIGTERM', async (context) => {
    recordWhenFinished(context, 'scenario', 'worker bridge bin (real broker, bash runner)', runtime.name);
    const workerName = `${runtime.name}-worker`;
    const worker = startChild(WORKER_BIN, ['--cwd', rig.cwd, '--channel', 'byoh', '--cli', 'bash', '--worker-name', workerName], {
      env: { ...rig.childEnv, ...runtime.env },
      cwd: rig.cwd,
      runtime,
    });
    const adapter = new AgentRelayExecutionAdapter({ cwd: rig.cwd, channelId: 'byoh', workerName, orchestratorName: 'chat', timeoutMs: 30_000 });
    try {
      expect(await worker.waitForLine(/ready on channel|exited/), worker.stderr()).toMatch(/ready on channel byoh/);
      const result = await adapter.execute(fullRequest(`MESSAGE: hello from ${runtime.name}`));
      expect(result, `${JSON.stringify(result.error)}\n${worker.lines.join("\n")}\n${worker.stderr()}`).toMatchObject({ backendId: 'agent-relay', status: 'completed' });
      expect(result.output?.text).toContain(`MESSAGE: hello from ${runtime.name}`);
      expect(JSON.stringify(result.metadata)).toContain(`"worker":{"name":"${workerName}","runner":"bash"}`);
    } finally {
      await adapter.shutdown();
      const exit = await worker.stop();
      expect(exit.code, worker.stderr()).toBe(0);
      expect(worker.lines.at(-1)).toBe('[agent-assistant-worker] stopped');
    }
  });
});

describe.each(SCRIPT_RUNTIMES)('the worker bridge bin under $name', (runtime) => {
  it('agent-assistant-worker killed with SIGKILL mid-run: the orphan guard stops its CLI', async (context) => {
    recordWhenFinished(context, 'scenario', 'worker bridge killed mid-run: no orphaned CLI', runtime.name);
    const workerName = `${runtime.name}-doomed`;
    const fifo = join(rig.cwd, `started-${runtime.name}.fifo`);
    execFileSync('mkfifo', ['-m', '600', fifo]);
    const worker = startChild(WORKER_BIN, ['--cwd', rig.cwd, '--channel', 'byoh', '--cli', 'bash', '--worker-name', workerName, '--script', `echo $$ > '${fifo}'; exec sleep 30`], {
      env: { ...rig.childEnv, ...runtime.env },
      cwd: rig.cwd,
      runtime,
    });
    const adapter = new AgentRelayExecutionAdapter({ cwd: rig.cwd, channelId: 'byoh', workerName, orchestratorName: 'chat', timeoutMs: 2_000 });
    let sleeper: number | undefined;
    try {
      expect(await worker.waitForLine(/ready on channel|exited/), worker.stderr()).toMatch(/ready on channel byoh/);
      const started = readFile(fifo, 'utf8');
      const pending = adapter.execute(fullRequest('HANG please'));
      sleeper = Number((await started).trim());
      worker.process.kill('SIGKILL');
      expect((await worker.exited).signal).toBe('SIGKILL');
      expect(await pending).toMatchObject({ status: 'failed', error: { code: 'timeout', retryable: true } });
      expect(await waitForDeath(sleeper), `the CLI (pid ${sleeper}) outlived its killed worker`).toBe(true);
    } finally {
      await adapter.shutdown();
      if (sleeper !== undefined && isAlive(sleeper)) process.kill(sleeper, 'SIGKILL');
    }
  });
});
