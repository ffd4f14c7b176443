// The real `omp --mode rpc` (@oh-my-pi/pi-coding-agent 18.2.3 on bun 1.4.4, pinned) under
// createOmpRpcAdapter and createHarness: the shared session suite, plus steering and a resume of
// omp's own session in a new engine process.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTick } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { childProcessesNamed, describeAcpEngine } from '../acp-suite.mjs';
import { cli, isolatedEnv, turn, useCliTestContext } from '../helpers.mjs';

const binDir = join(import.meta.dirname, '..', 'node_modules', '.bin');

/** The adapter's options for a test's home: the fake server as omp's provider, bun on PATH. */
function ompOptions(context) {
  return {
    command: cli('omp'),
    provider: { baseUrl: `${context.server.url}/v1`, model: 'fake-model', apiKey: 'sk-fake-omp' },
    home: context.home,
    cwd: join(context.home, 'work'),
    env: isolatedEnv(context.home, { PATH: `${binDir}:${process.env.PATH ?? '/usr/bin:/bin'}` }),
    inheritEnv: [],
    killGraceMs: 2_000,
  };
}

describeAcpEngine('oh-my-pi 18.2.3 over its RPC (real) — end to end', {
  name: 'omp-rpc',
  processName: 'omp',
  // omp tells the model "Tool call denied by user: bash"; the fake model then answers.
  rejectedText: 'PONG from fake (after tool)',
  makeBackend: (context) => context.harness.createOmpRpcAdapter(ompOptions(context)),
});

describe('oh-my-pi over its RPC (real) — steering and resume', () => {
  const context = useCliTestContext('omp-rpc-steer');
  const backends = [];
  afterEach(async () => {
    await Promise.all(backends.splice(0).map((adapter) => adapter.dispose()));
  });
  const harnessFor = (extra = {}) => {
    const backend = context.harness.createOmpRpcAdapter({ ...ompOptions(context), ...extra });
    backends.push(backend);
    return context.harness.createHarness({ backend, limits: { maxElapsedMs: 150_000 } });
  };

  it('steers the running turn: the steered text reaches the model in the same turn', async () => {
    // yolo: the command runs unasked, so the turn is still running when the steer arrives.
    const harness = harnessFor({ approvalMode: 'yolo' });
    const steering = context.harness.createSteering();
    const stream = harness.streamTurn(turn('omp-steer', 'FAKE_SHELL[sleep 2]', { sessionId: 'steer' }), { steering });
    let steered;
    for await (const event of stream) {
      if (event.type === 'tool_activity' && event.phase === 'started' && steered === undefined) steered = steering.steer('STEERED: say the magic word');
    }
    const result = await stream.result;
    expect(result.outcome).toBe('completed');
    expect(await steered).toMatchObject({ status: 'delivered' });
    const bodies = context.server.requests.filter((request) => request.method === 'POST').map((request) => request.raw);
    expect(bodies.some((raw) => raw.includes('STEERED: say the magic word'))).toBe(true);
  });

  it("resumes omp's own session in a new engine process (--resume): the history reaches the model", async () => {
    const first = harnessFor();
    const one = await first.runTurn(turn('omp-resume-1', 'remember PINEAPPLE', { sessionId: 'resume' }));
    expect(one.outcome).toBe('completed');
    const sessionId = context.harness.backendContinuationFrom(one).continuationId;
    expect(sessionId).toMatch(/\S{8,}/);
    await backends.splice(0)[0].dispose();
    expect(childProcessesNamed('omp')).toHaveLength(0);
    const second = harnessFor();
    const two = await second.runTurn(turn('omp-resume-2', 'which word?', { sessionId: 'resume', metadata: { backendContinuation: context.harness.backendContinuationFrom(one) } }));
    expect(two.outcome).toBe('completed');
    expect(context.harness.backendContinuationFrom(two).continuationId).toBe(sessionId);
    const last = context.server.requests.filter((request) => request.method === 'POST').at(-1);
    expect(last.raw).toContain('PINEAPPLE');
  });

  it('a cancelled turn stops the running command, and dispose leaves no process behind', async () => {
    const harness = harnessFor({ approvalMode: 'yolo' });
    const controller = new AbortController();
    const stream = harness.streamTurn(turn('omp-cancel-tool', "FAKE_SHELL[sh -c 'sleep 31.25']", { sessionId: 'cancel-tool' }), { signal: controller.signal });
    for await (const event of stream) {
      if (event.type === 'tool_activity' && event.phase === 'started') {
        await waitFor(() => processesRunning('31.25').length > 0);
        controller.abort();
      }
    }
    const result = await stream.result;
    expect(result.stopReason).toBe('cancelled');
    await backends.splice(0)[0].dispose();
    expect(childProcessesNamed('omp')).toHaveLength(0);
    expect(processesRunning('31.25')).toEqual([]);
  });
});

/** Any process on the machine whose command line contains `text` (NUL-separated arguments). */
function processesRunning(text) {
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** Polls `check` on each turn of the event loop (bounded); the command's process shows up a moment after the tool starts. */
async function waitFor(check) {
  for (let attempt = 0; attempt < 5_000 && !check(); attempt += 1) await nextTick();
  expect(check()).toBe(true);
}
