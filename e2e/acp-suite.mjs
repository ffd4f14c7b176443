// The end-to-end suite of an ACP engine (gemini --acp, opencode acp) under createAcpAdapter's
// presets and createHarness, against the loopback fake model server. One suite, two engines.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { turn, useCliTestContext } from './helpers.mjs';

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

async function collect(stream) {
  const events = [];
  for await (const event of stream) events.push(event);
  return { events, result: await stream.result };
}

const approvalId = (result) => result.metadata.approvalRequests[0].id;

/**
 * Registers the suite. `makeBackend(context)` builds the preset for the test's home; `processName`
 * finds the engine among this process's children; `rejectedText` is what a rejected turn answers.
 */
export function describeAcpEngine(title, { name, prepareHome, makeBackend, processName, rejectedText, skip = false }) {
  const context = useCliTestContext(name, { prepareHome });
  const backends = [];
  const backend = () => {
    const created = makeBackend(context);
    backends.push(created);
    return created;
  };
  const harnessOf = (adapter) => context.harness.createHarness({ backend: adapter, limits: { maxElapsedMs: 150_000 } });
  afterEach(async () => {
    await Promise.all(backends.splice(0).map((adapter) => adapter.dispose()));
  });

  describe.skipIf(skip)(title, () => {
    it('completes a turn with live text deltas, and reuses the live engine for a second turn of the session', async () => {
      const adapter = backend();
      const harness = harnessOf(adapter);
      const { events, result } = await collect(harness.streamTurn(turn(`${name}-1a`, 'remember PINEAPPLE', { sessionId: 's1' })));
      expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
      const deltas = events.filter((event) => event.type === 'text_delta').map((event) => event.text);
      expect(deltas.length).toBeGreaterThan(0);
      expect(deltas.join('')).toBe('PONG from fake');
      const engines = childProcessesNamed(processName);
      expect(engines).toHaveLength(1);
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
      expect(events.find((event) => event.type === 'approval_requested')).toMatchObject({ kind: 'command', title: expect.stringContaining('MARKER') });
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
  });
}
