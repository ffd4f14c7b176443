// Through the REAL broker (9.1.6, offline against the loopback Relaycast stand-in): the
// orchestrator's AgentRelayExecutionAdapter in this process, the worker — the built
// `agent-assistant-worker` bin, or a deliberately bad raw worker — in a child process, as in
// production. Every case ends in a structured result and leaves no process, socket or timer.
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startBrokerRig, type BrokerRig } from '../agent-relay/__fixtures__/broker-rig.js';
import { RelayAdapter } from '../agent-relay/broker-client/relay-adapter.js';
import { createHarness } from '../core/create-harness.js';
import type { HarnessResult } from '../core/types/result.js';
import type { HarnessStreamEvent } from '../core/types/runtime.js';
import type { ExecutionResult } from '../execution/types.js';
import { backendContinuationFrom } from '../local/backend-continuation.js';
import { executionRequest, fixtureExecutable, turnInput } from '../local/__fixtures__/test-helpers.js';
import { AgentRelayExecutionAdapter } from '../agent-relay/execution-adapter/agent-relay-execution-adapter.js';
import { decodeExecutionResultMessage } from '../agent-relay/protocol/execution-result-message.js';
import { fullRequest, groupAlive, killGroups, processGroupOf, requestBody } from './__fixtures__/bridge-test-helpers.js';
import { startChild, WORKER_BIN, type Child } from './__fixtures__/worker-child.js';

const RAW_WORKER = fileURLToPath(new URL('./__fixtures__/raw-worker.mjs', import.meta.url));
/** Echoes the prompt; on HANG reports its pid through the FIFO (see hangStarted) and sleeps. */
const HANG_SCRIPT = 'prompt=$(cat); case "$prompt" in *HANG*) echo $$ > started.fifo; exec sleep 30;; *) printf "%s" "$prompt";; esac';

const adapters: AgentRelayExecutionAdapter[] = [];
const children: Child[] = [];
/** The process groups of the HANG runs. */
const groups: number[] = [];
let baseline: Map<string, number>;

/** Handles this process holds, by type (sockets, timers, child processes…). */
function activeResources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

function adapterFor(rig: BrokerRig, workerName: string, timeoutMs = 20_000): AgentRelayExecutionAdapter {
  const adapter = new AgentRelayExecutionAdapter({ cwd: rig.cwd, channelId: 'byoh', workerName, orchestratorName: 'chat', timeoutMs });
  adapters.push(adapter);
  return adapter;
}

async function startWorker(rig: BrokerRig, args: string[], env: Record<string, string> = {}): Promise<Child> {
  const child = startChild(WORKER_BIN, ['--cwd', rig.cwd, '--channel', 'byoh', ...args], { env: { ...rig.childEnv, ...env }, cwd: rig.cwd });
  children.push(child);
  const ready = await child.waitForLine(/ready on channel|exited/);
  expect(ready, child.stderr()).toMatch(/ready on channel byoh/);
  return child;
}

/**
 * A FIFO the HANG script writes its pid to; resolves, once it did, with the process group of the
 * run (led by the worker's orphan guard, not by the script), checked alive at that point.
 */
function hangStarted(rig: BrokerRig): Promise<number> {
  const fifo = join(rig.cwd, 'started.fifo');
  execFileSync('mkfifo', ['-m', '600', fifo]);
  return readFile(fifo, 'utf8').then((text) => {
    execFileSync('rm', ['-f', fifo]);
    const group = processGroupOf(Number(text.trim()));
    groups.push(group);
    expect(groupAlive(group), `the run's process group ${group} is not running`).toBe(true);
    return group;
  });
}

beforeAll(() => {
  vi.stubEnv('AGENT_RELAY_STATE_DIR', undefined as unknown as string);
  baseline = activeResources();
});

afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.shutdown()));
});

afterAll(async () => {
  const exits = await Promise.all(children.splice(0).map((child) => child.stop()));
  const survivors = groups.filter(groupAlive);
  killGroups(groups);
  expect(survivors, 'process groups that outlived their run').toEqual([]);
  vi.unstubAllEnvs();
  expect(exits.every((exit) => exit.code !== null || exit.signal !== null)).toBe(true);
  const after = activeResources();
  for (const type of ['TCPSocketWrap', 'TCPWrap', 'PipeWrap', 'ProcessWrap', 'Timeout']) {
    expect(after.get(type) ?? 0, `${type} handles left`).toBeLessThanOrEqual(baseline.get(type) ?? 0);
  }
});

describe('worker bridge in a child process, bash runner', () => {
  let rig: BrokerRig;
  let worker: Child;

  beforeAll(async () => {
    rig = await startBrokerRig();
    worker = await startWorker(rig, ['--cli', 'bash', '--worker-name', 'bash-worker', '--script', HANG_SCRIPT, '--concurrency', '4']);
  });

  afterAll(async () => {
    const exit = await worker.stop();
    expect(exit.code, worker.stderr()).toBe(0);
    expect(worker.lines.at(-1)).toBe('[agent-assistant-worker] stopped');
    await rig.stop();
  });

  it('completes a turn: the whole prompt comes back as the answer, with relay and worker metadata', async () => {
    const result = await adapterFor(rig, 'bash-worker').execute(fullRequest('MESSAGE: hello'));
    expect(result).toMatchObject({ backendId: 'agent-relay', status: 'completed' });
    for (const part of ['SYSTEM: be brief.', 'DEVELOPER: answer in English.', 'CONTEXT: the build is red.', 'STRUCTURED-repo', 'MESSAGE: hello']) {
      expect(result.output?.text).toContain(part);
    }
    expect(JSON.stringify(result.metadata)).toContain('"worker":{"name":"bash-worker","runner":"bash"}');
    expect(await worker.waitForLine(/turn turn-1 from chat: completed/)).toBeTruthy();
  });

  it('runs createHarness({ backend: adapter }) end to end', async () => {
    const harness = createHarness({ backend: adapterFor(rig, 'bash-worker') });
    const result = await harness.runTurn(turnInput('harness says hi', { turnId: 'harness-turn' }));
    expect(result.outcome).toBe('completed');
    expect(result.assistantMessage?.text).toContain('harness says hi');
  });

  it('gives each of 20 concurrent turns its own reply', async () => {
    const adapter = adapterFor(rig, 'bash-worker');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => adapter.execute(executionRequest(`turn number ${index}`, { turnId: `concurrent-${index}` }))),
    );
    results.forEach((result, index) => {
      expect(result.status).toBe('completed');
      expect(result.output?.text).toContain(`turn number ${index}`);
      expect(result.output?.text).not.toMatch(new RegExp(`turn number (?!${index}\\b)\\d+`));
    });
  });

  it('times out as failed / timeout, retryable; the cancel that follows kills the CLI', async () => {
    const started = hangStarted(rig);
    const pending = adapterFor(rig, 'bash-worker', 1500).execute(executionRequest('HANG please', { turnId: 'timeout-turn' }));
    const group = await started;
    const result = await pending;
    expect(result).toMatchObject({ status: 'failed', error: { code: 'timeout', retryable: true } });
    expect(await worker.waitForLine(/turn timeout-turn from chat: failed/)).toMatch(/failed \((timeout|backend_execution_error)\)/);
    expect(groupAlive(group)).toBe(false);
  });

  it('cancel mid-run (the turn is aborted) kills the CLI', async () => {
    const started = hangStarted(rig);
    const controller = new AbortController();
    const pending = adapterFor(rig, 'bash-worker').execute(executionRequest('HANG please', { turnId: 'cancel-turn' }), { signal: controller.signal });
    const group = await started;
    controller.abort();
    expect(await pending).toMatchObject({ status: 'failed', error: { retryable: true } });
    expect(await worker.waitForLine(/request .* cancelled by chat \(cancelled\)/)).toBeTruthy();
    expect(await worker.waitForLine(/turn cancel-turn from chat: failed/)).toBeTruthy();
    expect(groupAlive(group)).toBe(false);
  });

  it('runs a request delivered twice only once', async () => {
    const relay = new RelayAdapter({ cwd: rig.cwd });
    await relay.start();
    try {
      const replies: string[] = [];
      const first = requestBody(fullRequest('first', { turnId: 'dup-1' }));
      const last = requestBody(fullRequest('last', { turnId: 'dup-2' }));
      let lastArrived: () => void = () => undefined;
      let firstArrived: () => void = () => undefined;
      const lastReply = new Promise<void>((resolve) => (lastArrived = resolve));
      const firstReply = new Promise<void>((resolve) => (firstArrived = resolve));
      const stop = relay.subscribe('dup-chat', (message) => {
        const decoded = decodeExecutionResultMessage(message.text);
        if (!decoded.ok) return;
        replies.push(decoded.message.requestId ?? '');
        if (decoded.message.requestId === last.requestId) lastArrived();
        if (decoded.message.requestId === first.requestId) firstArrived();
      });
      for (const body of [first, first, last]) await relay.send({ from: 'dup-chat', to: 'bash-worker', text: body.text, threadId: 'dup' });
      await worker.waitForLine(/ignored a message from dup-chat: duplicate/);
      // The duplicate was dropped on arrival (the line above): one run, one log line, one reply for it.
      // The two requests may finish in either order, and a log line can precede its reply's delivery:
      // wait for both replies before counting.
      await Promise.all([firstReply, lastReply, worker.waitForLine(/turn dup-1 from dup-chat: completed/)]);
      stop();
      expect(worker.lines.filter((line) => line.includes('turn dup-1 from dup-chat'))).toHaveLength(1);
      expect(replies.filter((id) => id === first.requestId)).toHaveLength(1);
    } finally {
      await relay.shutdown();
    }
  });
});

describe('worker bridge in a child process, a fixture CLI (fake Claude Code)', () => {
  let rig: BrokerRig;
  let worker: Child;

  beforeAll(async () => {
    rig = await startBrokerRig();
    const claude = fixtureExecutable(rig.cwd, 'fake-claude', 'fake-claude.mjs');
    worker = await startWorker(rig, ['--cli', 'claude', '--worker-name', 'claude-worker', '--command', claude, '--model', 'sonnet']);
  });

  afterAll(async () => {
    expect((await worker.stop()).code, worker.stderr()).toBe(0);
    await rig.stop();
  });

  it('completes a turn with the CLI usage and its session as the continuation', async () => {
    const result = await adapterFor(rig, 'claude-worker').execute(executionRequest('ping', { turnId: 'claude-1' }));
    expect(result).toMatchObject({ status: 'completed', output: { text: 'PONG from fake (message 1)' }, continuation: { kind: 'claude-code.session' } });
    expect(result.usage?.inputTokens).toBeGreaterThan(0);
  });

  it('streams the CLI’s live events through the broker ahead of the result (streamTurn)', async () => {
    const harness = createHarness({ backend: adapterFor(rig, 'claude-worker') });
    const live: HarnessStreamEvent[] = [];
    let result: HarnessResult | undefined;
    for await (const event of harness.streamTurn(turnInput('FAKE_TOOL check the build', { turnId: 'stream-1' }))) {
      if (event.type === 'result') result = event.result;
      else if (event.type === 'text_delta' || event.type === 'tool_activity') live.push(event);
    }
    expect(result?.outcome).toBe('completed');
    expect(live.findIndex((event) => event.type === 'tool_activity' && event.name === 'Bash')).toBeGreaterThanOrEqual(0);
    expect(live.flatMap((event) => (event.type === 'text_delta' ? [event.text] : [])).join('')).toBe(result?.assistantMessage?.text);
    const relay = (result?.metadata?.['backendMetadata'] as { relay?: { events?: { messages: number; gaps: number } } } | undefined)?.relay;
    expect(relay?.events?.messages).toBeGreaterThanOrEqual(1);
    expect(relay?.events?.gaps).toBe(0);
  });

  it('resumes the worker session: request.continuation and metadata.backendContinuation both reach the CLI', async () => {
    const adapter = adapterFor(rig, 'claude-worker');
    const first: ExecutionResult = await adapter.execute(executionRequest('first', { turnId: 'session-1' }));
    const second = await adapter.execute(executionRequest('second', { turnId: 'session-2', continuation: first.continuation! }));
    expect(second).toMatchObject({ status: 'completed', output: { text: 'PONG from fake (message 2)' } });
    expect(second.continuation?.continuationId).toBe(first.continuation?.continuationId);

    const harness = createHarness({ backend: adapter });
    const opening = await harness.runTurn(turnInput('open', { turnId: 'harness-session-1' }));
    const backendContinuation = backendContinuationFrom(opening);
    expect(backendContinuation?.kind).toBe('claude-code.session');
    const followUp = await harness.runTurn(turnInput('follow up', { turnId: 'harness-session-2', metadata: { backendContinuation } }));
    expect(followUp.assistantMessage?.text).toBe('PONG from fake (message 2)');
  });
});

describe('workers that break the protocol (raw worker in a child process)', () => {
  let rig: BrokerRig;
  let raw: Child;

  beforeAll(async () => {
    rig = await startBrokerRig();
    raw = startChild(RAW_WORKER, [rig.cwd, 'raw-worker'], { env: rig.childEnv, cwd: rig.cwd });
    children.push(raw);
    expect(await raw.waitForLine(/^ready$|exited/), raw.stderr()).toBe('ready');
  });

  afterAll(async () => {
    expect((await raw.stop()).code, raw.stderr()).toBe(0);
    await rig.stop();
  });

  it('ignores a malformed reply and counts it, then times out', async () => {
    const result = await adapterFor(rig, 'raw-worker', 1500).execute(executionRequest('MALFORMED', { turnId: 'raw-malformed' }));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'timeout', retryable: true } });
    expect(JSON.stringify(result.metadata)).toMatch(/"malformed":1/);
  });

  it('accepts shorthand success', async () => {
    const result = await adapterFor(rig, 'raw-worker', 5000).execute(executionRequest('SHORTHAND_OK', { turnId: 'raw-shorthand_ok' }));
    expect(result).toMatchObject({ status: 'completed', output: { text: 'shorthand answer' } });
  });

  it('ends the wait at once on a shorthand failure', async () => {
    const result = await adapterFor(rig, 'raw-worker', 60_000).execute(executionRequest('SHORTHAND_FAIL', { turnId: 'raw-shorthand_fail' }));
    expect(result.status).toBe('failed');
    expect(result.error?.code).not.toBe('timeout');
    expect(result.error?.message).toContain('the worker broke');
  });

  it('ignores a reply from the wrong sender', async () => {
    const result = await adapterFor(rig, 'raw-worker', 1500).execute(executionRequest('WRONG_SENDER', { turnId: 'raw-wrong_sender' }));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'timeout' } });
    expect(result.output).toBeUndefined();
  });

  it('takes a reply delivered twice only once', async () => {
    const adapter = adapterFor(rig, 'raw-worker');
    const result = await adapter.execute(executionRequest('DUPLICATE', { turnId: 'raw-duplicate' }));
    expect(result).toMatchObject({ status: 'completed', output: { text: 'once' } });
  });
});

describe('failures of the processes themselves', () => {
  let rig: BrokerRig | undefined;

  afterEach(async () => {
    await rig?.stop();
    rig = undefined;
  });

  it('the bridge process killed mid-run: the turn times out and the CLI does not survive', async () => {
    rig = await startBrokerRig();
    const worker = await startWorker(rig, ['--cli', 'bash', '--worker-name', 'doomed', '--script', HANG_SCRIPT]);
    const started = hangStarted(rig);
    const pending = adapterFor(rig, 'doomed', 2000).execute(executionRequest('HANG please'));
    const group = await started;
    worker.process.kill('SIGKILL');
    expect((await worker.exited).signal).toBe('SIGKILL');
    expect(await pending).toMatchObject({ status: 'failed', error: { code: 'timeout', retryable: true } });
    await waitUntil(() => !groupAlive(group));
    expect(groupAlive(group)).toBe(false);
  });

  it('the broker killed mid-turn: the turn fails retryable; the worker stops cleanly', async () => {
    rig = await startBrokerRig();
    const worker = await startWorker(rig, ['--cli', 'bash', '--worker-name', 'orphaned', '--script', HANG_SCRIPT]);
    const started = hangStarted(rig);
    const pending = adapterFor(rig, 'orphaned', 2000).execute(executionRequest('HANG please'));
    const group = await started;
    await rig.killBroker();
    expect(await pending).toMatchObject({ status: 'failed', error: { retryable: true } });
    worker.process.kill('SIGTERM');
    await worker.waitForLine(/SIGTERM: stopping/);
    worker.process.kill('SIGTERM');
    expect((await worker.exited).code, worker.stderr()).toBe(0);
    expect(groupAlive(group)).toBe(false);
  });
});

/** Polls `condition` on each turn of the event loop (a dead process leaves no event to wait on), up to 10 s. */
async function waitUntil(condition: () => boolean): Promise<void> {
  const end = Date.now() + 10_000;
  while (!condition() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
}
