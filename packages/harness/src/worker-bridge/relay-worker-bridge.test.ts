// The worker bridge over the in-memory relay, with real processes (bash and the fake CLIs of the
// local backends): replies, prompts, sessions, limits, cancels, duplicates and hostile input.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import type { ExecutionResult } from '../execution/types.js';
import { cleanupTempDirs, executionRequest, fixtureExecutable, tempDir, turnInput } from '../local/__fixtures__/test-helpers.js';
import { AgentRelayExecutionAdapter } from '../agent-relay/execution-adapter/agent-relay-execution-adapter.js';
import { decodeExecutionResultMessage } from '../agent-relay/protocol/execution-result-message.js';
import { encodeExecutionCancelMessage } from '../agent-relay/protocol/execution-cancel-message.js';
import { createFakeExecutionAdapter } from '../testing/fake-execution-adapter.js';
import { createMemoryRelay, type MemoryRelay } from '../testing/memory-relay.js';
import { createBashCliRunner } from './bash-cli-runner.js';
import type { CliRunner } from './cli-runner.js';
import { createClaudeCliRunner } from './cli-runners.js';
import { eventLog } from './__fixtures__/bridge-events.js';
import { fullRequest, groupAlive, killGroups, requestBody, watchedSpawn } from './__fixtures__/bridge-test-helpers.js';
import { createRelayWorkerBridge } from './relay-worker-bridge.js';
import type { RelayWorkerBridge, RelayWorkerBridgeConfig } from './relay-worker-bridge-options.js';

const bridges: RelayWorkerBridge[] = [];
const spawned: number[] = [];

afterEach(async () => {
  await Promise.all(bridges.splice(0).map((bridge) => bridge.dispose()));
  killGroups(spawned.splice(0));
  cleanupTempDirs();
});

async function startBridge(relay: MemoryRelay, config: Partial<RelayWorkerBridgeConfig> = {}) {
  const log = eventLog();
  const bridge = await createRelayWorkerBridge({
    relay,
    channelId: 'specialists',
    workerName: 'worker',
    runner: createBashCliRunner(),
    timeoutMs: 20_000,
    onEvent: log.onEvent,
    ...config,
  });
  bridges.push(bridge);
  return { bridge, log };
}

/** Sends a request as `orchestrator` and resolves with the decoded reply. */
async function ask(relay: MemoryRelay, text: string, from = 'orchestrator') {
  const reply = relay.nextMessage(from);
  relay.deliver({ from, target: 'worker', text, threadId: 'turn-1' });
  const message = await reply;
  const decoded = decodeExecutionResultMessage(message.text);
  if (!decoded.ok) throw new Error(decoded.detail);
  return { message, decoded: decoded.message, result: decoded.message.executionResult };
}

describe('createRelayWorkerBridge — replies', () => {
  it('runs a request with the bash runner and replies to the sender on the same thread with a canonical result', async () => {
    const relay = createMemoryRelay();
    await startBridge(relay);
    const { requestId, text } = requestBody(fullRequest('hello'));
    const { message, decoded, result } = await ask(relay, text);
    expect(message).toMatchObject({ from: 'worker', target: 'orchestrator', threadId: 'turn-1' });
    expect(decoded).toMatchObject({ type: 'agent-assistant.execution-result.v1', requestId, turnId: 'turn-1', threadId: 'turn-1', shorthand: false });
    expect(result).toMatchObject({ backendId: 'bash', status: 'completed', metadata: { worker: { name: 'worker', runner: 'bash' } } });
    expect(relay.sent.at(-1)).toMatchObject({ channelId: 'specialists' });
  });

  it('builds the prompt from all of the request: system and developer prompt, context blocks, structured context, message', async () => {
    const relay = createMemoryRelay();
    await startBridge(relay);
    const { result } = await ask(relay, requestBody(fullRequest('MESSAGE: why?')).text);
    const prompt = result.output?.text ?? '';
    for (const part of ['SYSTEM: be brief.', 'DEVELOPER: answer in English.', 'CONTEXT: the build is red.', '## Ticket (jira)', 'STRUCTURED-repo', 'MESSAGE: why?']) {
      expect(prompt).toContain(part);
    }
  });

  it('reports a failing script as failed with its exit code and stderr', async () => {
    const relay = createMemoryRelay();
    await startBridge(relay, { runner: createBashCliRunner({ script: 'echo broken >&2; exit 3' }) });
    const { result } = await ask(relay, requestBody(fullRequest('x')).text);
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: false } });
    expect(result.error?.message).toContain('exited with code 3: broken');
  });

  it('runs a CLI preset: the fake Claude Code reply carries usage, cost and the session as continuation', async () => {
    const relay = createMemoryRelay();
    const home = tempDir();
    const claude = fixtureExecutable(home, 'claude', 'fake-claude.mjs');
    await startBridge(relay, { runner: createClaudeCliRunner({ command: claude, env: { HOME: home } }) });
    const { result } = await ask(relay, requestBody(fullRequest('ping')).text);
    expect(result).toMatchObject({
      backendId: 'claude-code',
      status: 'completed',
      output: { text: 'PONG from fake (message 1)' },
      continuation: { kind: 'claude-code.session' },
    });
    expect(result.usage?.inputTokens).toBeGreaterThan(0);
    expect(result.continuation?.continuationId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('continues the CLI session when the request carries the continuation', async () => {
    const relay = createMemoryRelay();
    const home = tempDir();
    const claude = fixtureExecutable(home, 'claude', 'fake-claude.mjs');
    await startBridge(relay, { runner: createClaudeCliRunner({ command: claude, env: { HOME: home } }) });
    const first = await ask(relay, requestBody(fullRequest('first')).text);
    const continuation = first.result.continuation!;
    const second = await ask(relay, requestBody(fullRequest('second', { turnId: 'turn-2', continuation })).text);
    expect(second.result).toMatchObject({ status: 'completed', output: { text: 'PONG from fake (message 2)' } });
    expect(second.result.continuation?.continuationId).toBe(continuation.continuationId);
  });

  it('accepts any ExecutionAdapter as what it runs', async () => {
    const relay = createMemoryRelay();
    const backend = createFakeExecutionAdapter({ steps: [{ status: 'completed', output: { text: 'from the adapter' } }] });
    await startBridge(relay, { runner: backend });
    const { result } = await ask(relay, requestBody(fullRequest('x')).text);
    expect(result).toMatchObject({ status: 'completed', output: { text: 'from the adapter' }, metadata: { worker: { runner: backend.backendId } } });
  });

  it('answers unsupported, without running, a request the adapter cannot serve (negotiated first, like the harness)', async () => {
    const relay = createMemoryRelay();
    const backend = createFakeExecutionAdapter({ steps: [{ status: 'completed', output: { text: 'never' } }] });
    await startBridge(relay, { runner: backend });
    const needsTools = fullRequest('x', { tools: [{ name: 'search' }], requirements: { toolUse: 'required' } });
    const { result } = await ask(relay, requestBody(needsTools).text);
    expect(result).toMatchObject({ status: 'unsupported', error: { code: 'unsupported_capability', retryable: false } });
    expect(result.degradation?.[0]).toMatchObject({ code: 'tool_use_unsupported', severity: 'blocking' });
    expect(backend.requests).toHaveLength(0);
  });

  it('turns a runner that throws or returns garbage into a failed reply', async () => {
    const relay = createMemoryRelay();
    const throwing: CliRunner = { id: 'throws', run: () => Promise.reject(new Error('kaboom')) };
    const garbage: CliRunner = { id: 'garbage', run: () => Promise.resolve({ status: 'weird' } as unknown as ExecutionResult) };
    await startBridge(relay, { runner: throwing });
    const thrown = await ask(relay, requestBody(fullRequest('x')).text);
    expect(thrown.result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error' } });
    expect(thrown.result.error?.message).toContain('kaboom');
    await bridges.pop()!.dispose();
    await startBridge(relay, { runner: garbage });
    const invalid = await ask(relay, requestBody(fullRequest('x')).text);
    expect(invalid.result).toMatchObject({ status: 'failed', error: { code: 'invalid_backend_output' } });
  });

  it('replaces a reply larger than maxReplyChars by a small failure', async () => {
    const relay = createMemoryRelay();
    await startBridge(relay, { runner: createBashCliRunner({ script: 'head -c 5000 /dev/zero | tr "\\0" a' }), maxReplyChars: 2000 });
    const { result } = await ask(relay, requestBody(fullRequest('x')).text);
    expect(result).toMatchObject({ status: 'failed', error: { code: 'invalid_backend_output' } });
    expect(result.error?.message).toContain('the reply limit is 2000');
  });
});

describe('createRelayWorkerBridge — limits', () => {
  it('stops a run at timeoutMs, kills its process group and replies failed / timeout', async () => {
    const relay = createMemoryRelay();
    const watch = watchedSpawn();
    await startBridge(relay, { runner: createBashCliRunner({ script: 'sleep 30', spawnFn: watch.spawnFn, killGraceMs: 200 }), timeoutMs: 300 });
    const { result } = await ask(relay, requestBody(fullRequest('x')).text);
    spawned.push(...watch.pids);
    expect(result).toMatchObject({ status: 'failed', error: { code: 'timeout', retryable: true } });
    expect(watch.pids).toHaveLength(1);
    expect(groupAlive(watch.pids[0]!)).toBe(false);
  });

  it('lowers the timeout to the request deadline, and drops a request that expired before it arrived (broker replay)', async () => {
    const relay = createMemoryRelay();
    const watch = watchedSpawn();
    const { bridge, log } = await startBridge(relay, {
      runner: createBashCliRunner({ script: 'sleep 30', spawnFn: watch.spawnFn, killGraceMs: 200 }),
      timeoutMs: 20_000,
    });
    const soon = await ask(relay, requestBody(fullRequest('x'), { deadline: new Date(Date.now() + 400).toISOString() }).text);
    spawned.push(...watch.pids);
    expect(soon.result).toMatchObject({ status: 'failed', error: { code: 'timeout' } });
    relay.deliver({ from: 'orchestrator', target: 'worker', text: requestBody(fullRequest('x'), { deadline: new Date(Date.now() - 1000).toISOString() }).text });
    const stale = new Date(Date.now() - 30_000).toISOString();
    relay.deliver({ from: 'orchestrator', target: 'worker', text: requestBody(fullRequest('x'), { sentAt: stale }).text });
    await log.waitForCount('message_ignored', 2);
    expect(bridge.stats().ignored.expired).toBe(2);
    expect(watch.pids).toHaveLength(1);
    expect(log.count('request_started')).toBe(1);
    expect(relay.sent.filter((message) => message.from === 'worker')).toHaveLength(1);
  });

  it('runs at most `concurrency` requests at once and answers every one', async () => {
    const relay = createMemoryRelay();
    let running = 0;
    let peak = 0;
    const release: (() => void)[] = [];
    const runner: CliRunner = {
      id: 'gate',
      run: async ({ request }) => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => release.push(resolve));
        running -= 1;
        return { backendId: 'gate', status: 'completed', output: { text: request.message.text } };
      },
    };
    const { bridge, log } = await startBridge(relay, { runner, concurrency: 2 });
    const replies: Promise<unknown>[] = [];
    const texts = ['a', 'b', 'c', 'd', 'e'];
    const received = new Map<string, string>();
    const unsubscribe = relay.subscribe('orchestrator', (message) => {
      const decoded = decodeExecutionResultMessage(message.text);
      if (decoded.ok) received.set(decoded.message.requestId!, decoded.message.executionResult.output?.text ?? '');
    });
    const ids = texts.map((text) => {
      const body = requestBody(fullRequest(text));
      relay.deliver({ from: 'orchestrator', target: 'worker', text: body.text });
      return body.requestId;
    });
    for (let index = 0; index < texts.length; index += 1) {
      await log.waitFor('request_started', (event) => event.requestId === ids[index]);
      expect(bridge.stats().running).toBeLessThanOrEqual(2);
      release.shift()!();
      replies.push(log.waitFor('request_finished', (event) => event.requestId === ids[index]));
    }
    await Promise.all(replies);
    unsubscribe();
    expect(peak).toBe(2);
    expect([...received.values()].sort()).toEqual(texts);
    expect(bridge.stats()).toMatchObject({ finished: 5, completed: 5, running: 0, queued: 0 });
  });

  it('answers failed / timeout without running a queued request whose deadline passed while it waited', async () => {
    const relay = createMemoryRelay();
    const release: (() => void)[] = [];
    const runner: CliRunner = {
      id: 'gate',
      run: () => new Promise((resolve) => release.push(() => resolve({ backendId: 'gate', status: 'completed', output: { text: 'ok' } }))),
    };
    const { log } = await startBridge(relay, { runner, concurrency: 1 });
    relay.deliver({ from: 'orchestrator', target: 'worker', text: requestBody(fullRequest('first')).text });
    await log.waitFor('request_started');
    const waiting = requestBody(fullRequest('second'), { deadline: new Date(Date.now() + 60_000).toISOString() });
    relay.deliver({ from: 'orchestrator', target: 'worker', text: waiting.text });
    await log.waitFor('request_received', (event) => event.queued);
    // The clock jumps past the deadline while the second request waits for its slot.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 120_000 });
    try {
      release.shift()!();
      const finished = await log.waitFor('request_finished', (event) => event.requestId === waiting.requestId);
      expect(finished).toMatchObject({ status: 'failed', errorCode: 'timeout' });
    } finally {
      vi.useRealTimers();
    }
    expect(log.count('request_started')).toBe(1);
  });

  it('refuses a request at once when the queue is full (failed, retryable)', async () => {
    const relay = createMemoryRelay();
    const release: (() => void)[] = [];
    const runner: CliRunner = {
      id: 'gate',
      run: () => new Promise((resolve) => release.push(() => resolve({ backendId: 'gate', status: 'completed', output: { text: 'ok' } }))),
    };
    const { log } = await startBridge(relay, { runner, concurrency: 1, maxQueue: 1 });
    const first = requestBody(fullRequest('1'));
    relay.deliver({ from: 'orchestrator', target: 'worker', text: first.text });
    await log.waitFor('request_started');
    relay.deliver({ from: 'orchestrator', target: 'worker', text: requestBody(fullRequest('2')).text });
    await log.waitFor('request_received', (event) => event.queued);
    const third = await ask(relay, requestBody(fullRequest('3')).text);
    expect(third.result).toMatchObject({ status: 'failed', error: { retryable: true }, metadata: { busy: true } });
    release.shift()!();
    await log.waitFor('request_started', (event) => event.requestId !== first.requestId);
    release.shift()!();
  });
});

describe('createRelayWorkerBridge — cancel, duplicates, hostile input', () => {
  it('stops the CLI when the orchestrator cancels: the process group is gone and the reply says cancelled', async () => {
    const relay = createMemoryRelay();
    const watch = watchedSpawn();
    const { bridge, log } = await startBridge(relay, { runner: createBashCliRunner({ script: 'sleep 30', spawnFn: watch.spawnFn, killGraceMs: 200 }) });
    const { requestId, text } = requestBody(fullRequest('x'));
    const reply = relay.nextMessage('orchestrator');
    const started = watch.next();
    relay.deliver({ from: 'orchestrator', target: 'worker', text });
    const pid = await started;
    spawned.push(pid);
    relay.deliver({
      from: 'orchestrator',
      target: 'worker',
      text: encodeExecutionCancelMessage({ requestId, turnId: 'turn-1', threadId: 'turn-1', sentAt: new Date().toISOString(), reason: 'cancelled' }),
    });
    const decoded = decodeExecutionResultMessage((await reply).text);
    expect(decoded.ok && decoded.message.executionResult).toMatchObject({ status: 'failed', metadata: { cancelled: true } });
    await log.waitFor('request_finished');
    expect(groupAlive(pid)).toBe(false);
    expect(bridge.stats().cancelled).toBe(1);
  });

  it('ignores a cancel from another sender', async () => {
    const relay = createMemoryRelay();
    const watch = watchedSpawn();
    const { log } = await startBridge(relay, { runner: createBashCliRunner({ script: 'read -t 5 line; echo done', spawnFn: watch.spawnFn }) });
    const { requestId, text } = requestBody(fullRequest('x'));
    const started = watch.next();
    relay.deliver({ from: 'orchestrator', target: 'worker', text });
    spawned.push(await started);
    const cancel = encodeExecutionCancelMessage({ requestId, turnId: 'turn-1', threadId: 'turn-1', sentAt: new Date().toISOString(), reason: 'cancelled' });
    relay.deliver({ from: 'intruder', target: 'worker', text: cancel });
    const ignored = await log.waitFor('message_ignored');
    expect(ignored).toMatchObject({ reason: 'unknown_cancel', from: 'intruder' });
    const finished = await log.waitFor('request_finished');
    expect(finished.status).toBe('completed');
  });

  it('runs a repeated request id once', async () => {
    const relay = createMemoryRelay();
    const { bridge, log } = await startBridge(relay);
    const { text } = requestBody(fullRequest('x'));
    const reply = ask(relay, text);
    relay.deliver({ from: 'orchestrator', target: 'worker', text });
    await reply;
    await log.waitFor('message_ignored');
    await log.waitFor('request_finished');
    expect(bridge.stats()).toMatchObject({ finished: 1, ignored: { duplicate: 1 } });
    expect(relay.sent.filter((message) => message.from === 'worker')).toHaveLength(1);
  });

  it('ignores and counts malformed, foreign, non-JSON and oversized messages, and senders not allowed', async () => {
    const relay = createMemoryRelay();
    const { bridge, log } = await startBridge(relay, { allowedSenders: ['orchestrator'] });
    const bodies = [
      'not json',
      '[1,2]',
      JSON.stringify({ type: 'chat', text: 'hi' }),
      JSON.stringify({ type: 'agent-assistant.execution-request.v1', requestId: 'r', request: { __proto__: 1 } }),
      JSON.stringify({ type: 'agent-assistant.execution-cancel.v1' }),
      'x'.repeat(4_000_001),
    ];
    for (const text of bodies) relay.deliver({ from: 'orchestrator', target: 'worker', text });
    relay.deliver({ from: 'stranger', target: 'worker', text: requestBody(fullRequest('x')).text });
    const ok = await ask(relay, requestBody(fullRequest('still works')).text);
    expect(ok.result.status).toBe('completed');
    expect(bridge.stats().ignored).toEqual({ not_json: 2, too_large: 1, foreign: 1, malformed: 2, sender: 1, duplicate: 0, expired: 0, unknown_cancel: 0 });
    expect(log.count('message_ignored')).toBe(7);
    expect(relay.sent.filter((message) => message.from === 'worker')).toHaveLength(1);
  });

  it('survives a relay whose message getters throw', async () => {
    const relay = createMemoryRelay();
    let listener: ((message: never) => void) | undefined;
    const hostile = { ...relay, subscribe: (_name: string, fn: (message: never) => void) => ((listener = fn), () => undefined) };
    const { bridge } = await startBridge(relay, { relay: hostile });
    const message = Object.defineProperty({}, 'from', { get: () => { throw new Error('no'); } }) as never;
    expect(() => listener!(message)).not.toThrow();
    expect(bridge.stats().ignored.malformed).toBe(1);
  });

  it('counts a reply the relay refuses and keeps working', async () => {
    let refuse = true;
    const relay = createMemoryRelay({
      intercept: (message) => {
        if (message.from === 'worker' && refuse) {
          refuse = false;
          throw new Error('broker down');
        }
        return 'deliver';
      },
    });
    const { bridge, log } = await startBridge(relay);
    relay.deliver({ from: 'orchestrator', target: 'worker', text: requestBody(fullRequest('lost')).text });
    expect(await log.waitFor('reply_failed')).toMatchObject({ to: 'orchestrator', detail: 'broker down' });
    expect((await log.waitFor('request_finished')).replied).toBe(false);
    expect((await ask(relay, requestBody(fullRequest('again')).text)).result.status).toBe('completed');
    expect(bridge.stats().replyFailures).toBe(1);
  });
});

describe('createRelayWorkerBridge — lifecycle and config', () => {
  it('dispose() unsubscribes, refuses queued requests, lets a short run finish and stops a long one', async () => {
    const relay = createMemoryRelay();
    const watch = watchedSpawn();
    const { bridge, log } = await startBridge(relay, {
      runner: createBashCliRunner({ script: 'sleep 30', spawnFn: watch.spawnFn, killGraceMs: 200 }),
      concurrency: 1,
      disposeTimeoutMs: 100,
    });
    const started = watch.next();
    relay.deliver({ from: 'orchestrator', target: 'worker', text: requestBody(fullRequest('long')).text });
    relay.deliver({ from: 'orchestrator', target: 'worker', text: requestBody(fullRequest('queued')).text });
    const pid = await started;
    spawned.push(pid);
    await log.waitFor('request_received', (event) => event.queued);
    await bridge.dispose();
    expect(relay.subscriberCount('worker')).toBe(0);
    expect(groupAlive(pid)).toBe(false);
    const results = relay.sent.filter((message) => message.from === 'worker').map((message) => decodeExecutionResultMessage(message.text));
    expect(results.map((decoded) => decoded.ok && decoded.message.executionResult.error?.message)).toEqual([
      'Worker worker is shutting down.',
      expect.stringContaining('cancelled'),
    ]);
    expect(bridge.stats()).toMatchObject({ running: 0, queued: 0, finished: 2 });
    relay.deliver({ from: 'orchestrator', target: 'worker', text: requestBody(fullRequest('after')).text });
    await bridge.dispose();
    expect(bridge.stats().received).toBe(2);
  });

  it('rejects an invalid config with HarnessConfigError naming the field', async () => {
    const relay = createMemoryRelay();
    const base = { relay, channelId: 'c', workerName: 'w', runner: createBashCliRunner() };
    await expect(createRelayWorkerBridge({ ...base, workerName: '' })).rejects.toMatchObject({ field: 'workerName' });
    await expect(createRelayWorkerBridge({ ...base, timeoutMs: -1 })).rejects.toBeInstanceOf(HarnessConfigError);
    await expect(createRelayWorkerBridge({ ...base, concurrency: 0 })).rejects.toMatchObject({ field: 'concurrency' });
    await expect(createRelayWorkerBridge({ ...base, runner: {} as CliRunner })).rejects.toMatchObject({ field: 'runner' });
    await expect(createRelayWorkerBridge({ ...base, relay: {} as MemoryRelay })).rejects.toMatchObject({ field: 'relay' });
    expect(() => createBashCliRunner({ script: '' })).toThrow(HarnessConfigError);
  });
});

describe('AgentRelayExecutionAdapter ↔ worker bridge (memory relay)', () => {
  it('completes a harness turn end to end with the bash runner', async () => {
    const relay = createMemoryRelay();
    await startBridge(relay, { runner: createBashCliRunner({ script: 'echo "answer: $(wc -l)"' }) });
    const adapter = new AgentRelayExecutionAdapter({ relay, workerName: 'worker', orchestratorName: 'orchestrator', timeoutMs: 20_000 });
    const harness = createHarness({ backend: adapter });
    const result = await harness.runTurn(turnInput('hi'));
    expect(result.outcome).toBe('completed');
    expect(result.assistantMessage?.text).toMatch(/^answer: \d+$/);
    expect(relay.subscriberCount('orchestrator')).toBe(0);
  });

  it('an aborted turn sends a cancel that kills the worker CLI', async () => {
    const relay = createMemoryRelay();
    const watch = watchedSpawn();
    const { log } = await startBridge(relay, { runner: createBashCliRunner({ script: 'sleep 30', spawnFn: watch.spawnFn, killGraceMs: 200 }) });
    const adapter = new AgentRelayExecutionAdapter({ relay, workerName: 'worker', orchestratorName: 'orchestrator', timeoutMs: 20_000 });
    const controller = new AbortController();
    const started = watch.next();
    const pending = adapter.execute(executionRequest('x'), { signal: controller.signal });
    const pid = await started;
    spawned.push(pid);
    controller.abort();
    expect(await pending).toMatchObject({ status: 'failed' });
    await log.waitFor('request_finished');
    expect(groupAlive(pid)).toBe(false);
  });
});
