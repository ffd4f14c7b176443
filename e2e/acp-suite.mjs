// The end-to-end suite of an ACP engine (gemini --acp, opencode acp, qwen --acp, copilot --acp)
// under createAcpAdapter's presets and createHarness, against the loopback fake model server. One
// suite, every ACP engine; `sessionLoad: true` adds the resume-in-a-new-process and no-process-left tests.
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { collect, turn, useBackends, useCliTestContext } from './helpers.mjs';

/** Processes started by this one whose command line mentions `name`. */
export function childProcessesNamed(name) {
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (ppid === process.pid && cmdline.includes(name)) found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** Every process under this one whose command line starts with `text` (the command itself, not a shell running it). */
function descendantsNamed(text) {
  const parents = new Map();
  const lines = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      lines.set(Number(entry), readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' '));
    } catch {
      // Gone meanwhile.
    }
  }
  const under = (pid) => {
    for (let current = parents.get(pid); current !== undefined && current > 1; current = parents.get(current)) if (current === process.pid) return true;
    return false;
  };
  return [...lines].filter(([pid, line]) => line.startsWith(text) && under(pid)).map(([pid]) => pid);
}

function alive(pid) {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/\) [ZX] /.test(state);
  } catch {
    return false;
  }
}

/** Polls `probe` (on the event loop, every 50 ms) until it returns a non-empty list. */
async function waitFor(probe, attempts = 600) {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const found = probe();
    if (found.length > 0) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('waitFor: nothing appeared');
}

/** Resolves when the fake server records a request matching `predicate` (wraps `requests.push`). */
function nextRequest(server, predicate) {
  return new Promise((resolve) => {
    const requests = server.requests;
    const push = requests.push;
    requests.push = function (...items) {
      const length = push.apply(this, items);
      if (items.some(predicate)) {
        requests.push = push;
        resolve(items.find(predicate));
      }
      return length;
    };
  });
}

const approvalId = (result) => result.metadata.approvalRequests[0].id;

/**
 * Registers the suite. `makeBackend(context)` builds the preset for the test's home; `processName`
 * finds the engine among this process's children; `rejectedText` is what a rejected turn answers.
 */
export function describeAcpEngine(title, { name, prepareHome, makeBackend, processName, rejectedText, skip = false, sessionLoad = false, engineExecutable, reportsUsage = false }) {
  const context = useCliTestContext(name, { prepareHome });
  const backend = useBackends(() => makeBackend(context));
  const harnessOf = (adapter) => context.harness.createHarness({ backend: adapter, limits: { maxElapsedMs: 150_000 } });

  describe.skipIf(skip)(title, () => {
    it('completes a turn with live text deltas, and reuses the live engine for a second turn of the session', async () => {
      const adapter = backend();
      const harness = harnessOf(adapter);
      const { events, result } = await collect(harness.streamTurn(turn(`${name}-1a`, 'remember PINEAPPLE', { sessionId: 's1' })));
      expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
      const deltas = events.filter((event) => event.type === 'text_delta').map((event) => event.text);
      expect(deltas.length).toBeGreaterThan(0);
      expect(deltas.join('')).toBe('PONG from fake');
      // The fake model reports 12 prompt / 6 completion tokens per Chat Completions call.
      if (reportsUsage) expect(result.usage).toMatchObject({ totalInputTokens: 12, totalOutputTokens: 6 });
      const engines = childProcessesNamed(processName);
      expect(engines).toHaveLength(1);
      if (engineExecutable !== undefined) expect(readlinkSync(`/proc/${engines[0]}/exe`)).toMatch(engineExecutable);
      const second = await harness.runTurn(turn(`${name}-1b`, 'which word?', { sessionId: 's1' }));
      expect(second).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
      expect(childProcessesNamed(processName)).toEqual(engines);
      const last = context.server.requests.filter((request) => request.method === 'POST').at(-1);
      expect(JSON.stringify(last.body)).toContain('remember PINEAPPLE');
      expect(context.harness.backendContinuationFrom(second).continuationId).toBe(context.harness.backendContinuationFrom(result).continuationId);
    });

    it('asks permission for a shell command: awaiting_approval, nothing runs until approved, then the turn completes', async () => {
      const harness = harnessOf(backend());
      const marker = join(context.home, 'work', 'MARKER');
      const { events, result: paused } = await collect(harness.streamTurn(turn(`${name}-2`, `FAKE_SHELL[touch ${marker}]`, { sessionId: 's2' })));
      expect(paused).toMatchObject({ outcome: 'awaiting_approval', stopReason: 'approval_required' });
      const asked = events.find((event) => event.type === 'approval_requested');
      expect(asked).toMatchObject({ kind: 'command' });
      // The command is in the title (gemini, opencode, qwen) or only in `command` (copilot titles it with the model's description).
      expect(`${asked.title} ${asked.command ?? ''}`).toContain('MARKER');
      expect(existsSync(marker)).toBe(false);
      const done = await harness.resumeTurn(paused.continuation, { type: 'approval', decisions: { [approvalId(paused)]: 'approved' } });
      expect(done).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake (after tool)' } });
      expect(existsSync(marker)).toBe(true);
    });

    it('a rejected command never runs', async () => {
      const harness = harnessOf(backend());
      const marker = join(context.home, 'work', 'MARKER');
      const paused = await harness.runTurn(turn(`${name}-3`, `FAKE_SHELL[touch ${marker}]`, { sessionId: 's3' }));
      expect(paused.outcome).toBe('awaiting_approval');
      const done = await harness.resumeTurn(paused.continuation, { type: 'approval', decisions: { [approvalId(paused)]: 'rejected' } });
      expect(done.outcome).toBe('completed');
      expect(done.assistantMessage.text).toContain(rejectedText);
      expect(existsSync(marker)).toBe(false);
    });

    it('cancels a turn mid-way (session/cancel), and the live engine takes the next turn', async () => {
      const harness = harnessOf(backend());
      const controller = new AbortController();
      const hanging = nextRequest(context.server, (request) => request.raw.includes('FAKE_HANG'));
      const running = harness.runTurn(turn(`${name}-4a`, 'FAKE_HANG', { sessionId: 's4' }), { signal: controller.signal });
      await hanging;
      const engines = childProcessesNamed(processName);
      controller.abort();
      const cancelled = await running;
      expect(cancelled.stopReason).toBe('cancelled');
      const next = await harness.runTurn(turn(`${name}-4b`, 'say hi', { sessionId: 's4' }));
      expect(next).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
      expect(childProcessesNamed(processName)).toEqual(engines);
    });

    it('a crash of the engine mid-turn fails the turn; the next turn starts a new engine', async () => {
      const harness = harnessOf(backend());
      const hanging = nextRequest(context.server, (request) => request.raw.includes('FAKE_HANG'));
      const running = harness.runTurn(turn(`${name}-5a`, 'FAKE_HANG', { sessionId: 's5' }));
      await hanging;
      const [engine] = childProcessesNamed(processName);
      process.kill(-engine, 'SIGKILL');
      const crashed = await running;
      expect(crashed).toMatchObject({ outcome: 'failed' });
      expect(crashed.metadata.error.message).toContain('The engine exited');
      const next = await harness.runTurn(turn(`${name}-5b`, 'say hi', { sessionId: 's5' }));
      expect(next).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
      expect(childProcessesNamed(processName)).not.toContain(engine);
    });

    it.runIf(sessionLoad)("resumes the engine's own session in a new engine process (session/load): the history reaches the model, the replay is not output", async () => {
      const first = backend();
      const before = await harnessOf(first).runTurn(turn(`${name}-6a`, 'remember MANGO', { sessionId: 's6' }));
      expect(before.outcome).toBe('completed');
      const continuation = context.harness.backendContinuationFrom(before);
      expect(continuation.continuationId).toEqual(expect.any(String));
      await first.dispose();
      expect(childProcessesNamed(processName)).toEqual([]);
      const { events, result } = await collect(
        harnessOf(backend()).streamTurn(turn(`${name}-6b`, 'which fruit?', { sessionId: 's6', metadata: { backendContinuation: continuation } })),
      );
      expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
      expect(events.filter((event) => event.type === 'text_delta').map((event) => event.text).join('')).toBe('PONG from fake');
      const last = context.server.requests.filter((request) => request.method === 'POST').at(-1);
      expect(JSON.stringify(last.body)).toContain('remember MANGO');
      expect(context.harness.backendContinuationFrom(result).continuationId).toBe(continuation.continuationId);
    });

    it.runIf(sessionLoad)('a turn cancelled during a running command, then dispose, leaves no engine or tool process', async () => {
      const adapter = backend();
      const harness = harnessOf(adapter);
      const marker = join(context.home, 'work', 'WAITED');
      // Not `sleep` (qwen refuses a foreground sleep), nor `timeout` (it leaves the engine's process group).
      const paused = await harness.runTurn(turn(`${name}-7`, `FAKE_SHELL[tail -f /dev/null; touch ${marker}]`, { sessionId: 's7' }));
      expect(paused.outcome).toBe('awaiting_approval');
      const controller = new AbortController();
      const running = harness.resumeTurn(paused.continuation, { type: 'approval', decisions: { [approvalId(paused)]: 'approved' } }, { signal: controller.signal });
      const sleeper = await waitFor(() => descendantsNamed('tail -f /dev/null'));
      onTestFinished(() => sleeper.forEach((pid) => alive(pid) && process.kill(pid, 'SIGKILL')));
      controller.abort();
      expect((await running).stopReason).toBe('cancelled');
      await adapter.dispose();
      expect(childProcessesNamed(processName)).toEqual([]);
      expect(sleeper.filter(alive)).toEqual([]);
      expect(existsSync(marker)).toBe(false);
    });
  });
}
