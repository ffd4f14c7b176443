// The real `claude` CLI behind the worker bridge: the built `agent-assistant-worker` runs in a
// child process against the real Agent Relay broker (offline, loopback Relaycast stand-in), and
// the orchestrator's AgentRelayExecutionAdapter runs here under createHarness. The CLI talks to
// the loopback fake Anthropic server.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrokerRig } from '../../packages/harness/src/agent-relay/__fixtures__/broker-rig.ts';
import { cli, harnessDist, isolatedEnv, turn, useCliTestContext, userTexts } from '../helpers.mjs';

const context = useCliTestContext('claude-bridge');
let rig;
let worker;
const lines = [];
const waiters = [];

/** Resolves with the first line of the worker's output (already printed or later) matching `pattern`. */
function workerLine(pattern) {
  const seen = lines.find((line) => pattern.test(line));
  if (seen !== undefined) return Promise.resolve(seen);
  return new Promise((resolve) => waiters.push({ pattern, resolve }));
}

beforeAll(async () => {
  delete process.env.AGENT_RELAY_STATE_DIR;
  rig = await startBrokerRig();
  // The worker's CLI gets the fake server and key through the Claude preset's allow-list (ANTHROPIC_*, CLAUDE_*).
  const env = isolatedEnv(join(rig.cwd, '.home'), {
    ANTHROPIC_BASE_URL: context.server.url,
    ANTHROPIC_API_KEY: 'sk-ant-fake-e2e',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  });
  worker = spawn(
    process.execPath,
    [join(harnessDist, 'agent-assistant-worker.js'), '--cli', 'claude', '--command', cli('claude'), '--cwd', rig.cwd, '--channel', 'e2e', '--worker-name', 'claude-worker', '--timeout-ms', '60000'],
    { env, cwd: rig.cwd, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let partial = '';
  worker.stdout.on('data', (chunk) => {
    partial += chunk;
    const parts = partial.split('\n');
    partial = parts.pop();
    for (const line of parts) {
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (!waiter.pattern.test(line)) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  worker.stderr.on('data', (chunk) => lines.push(`stderr: ${chunk}`));
  await workerLine(/ready on channel e2e/);
});

afterAll(async () => {
  const exited = new Promise((resolve) => worker.once('close', (code, signal) => resolve({ code, signal })));
  worker.kill('SIGTERM');
  expect(await exited).toEqual({ code: 0, signal: null });
  await rig.stop();
});

const adapter = (timeoutMs = 120_000) =>
  new context.harness.AgentRelayExecutionAdapter({ cwd: rig.cwd, channelId: 'e2e', workerName: 'claude-worker', orchestratorName: 'e2e-chat', timeoutMs });

describe('Claude Code CLI 2.1.332 (real) behind the worker bridge, through the real broker', () => {
  it('completes a harness turn; the reply carries usage and the Claude session, and a follow-up resumes it', async () => {
    const backend = adapter();
    const harness = context.harness.createHarness({ backend, limits: { maxElapsedMs: 120_000 } });
    const first = await harness.runTurn(turn('bridge-1', 'remember the word PINEAPPLE'));
    expect(first).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
    expect(first.usage).toMatchObject({ totalInputTokens: 12, totalOutputTokens: 5 });
    const continuation = context.harness.backendContinuationFrom(first);
    expect(continuation).toMatchObject({ kind: 'claude-code.session', continuationId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(JSON.stringify(context.server.requests[0].body.system)).toContain('Answer briefly.');

    const second = await harness.runTurn(turn('bridge-2', 'which word?', { metadata: { backendContinuation: continuation } }));
    expect(second).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
    const last = context.server.requests.at(-1);
    expect(JSON.stringify(last.body.messages)).toContain('remember the word PINEAPPLE');
    expect(userTexts(last).at(-1)).toBe('which word?');
    expect(await workerLine(/turn bridge-2 from e2e-chat: completed/)).toBeTruthy();
    await backend.shutdown();
  });

  it('a model call that hangs: the turn times out, the cancel stops the CLI, the worker logs it', async () => {
    const backend = adapter(8_000);
    const result = await backend.execute({ ...turn('bridge-3', 'FAKE_HANG please'), threadId: 'bridge-3' });
    expect(result).toMatchObject({ status: 'failed', error: { code: 'timeout', retryable: true } });
    expect(await workerLine(/turn bridge-3 from e2e-chat: failed/)).toBeTruthy();
    await backend.shutdown();
  });
});
