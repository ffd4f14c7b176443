// The real `codex app-server` (@openai/codex, pinned) under CodexAppServerAdapter and createHarness,
// against the loopback fake OpenAI Responses server: native approvals answered in the live
// session, streaming, cancel, session reuse and a crash.
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { setImmediate } from 'node:timers/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { adapterOptions, cli, isolatedEnv, turn, useCliTestContext } from '../helpers.mjs';

const context = useCliTestContext('codex-app-server', {
  prepareHome: (home) => mkdirSync(join(home, '.codex')), // codex refuses a CODEX_HOME that does not exist
});
const adapters = [];
afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.dispose()));
});

const backend = (options = {}) => {
  const env = isolatedEnv(context.home, { CODEX_HOME: join(context.home, '.codex'), FAKE_API_KEY: 'sk-fake-e2e' });
  const adapter = context.harness.createCodexAppServerAdapter({
    command: cli('codex'),
    model: 'gpt-5.5',
    sandbox: 'danger-full-access', // no bubblewrap here; approvals still gate every command
    config: {
      model_provider: 'fake',
      'model_providers.fake.name': 'fake',
      'model_providers.fake.base_url': `${context.server.url}/v1`,
      'model_providers.fake.env_key': 'FAKE_API_KEY',
      'model_providers.fake.wire_api': 'responses',
      check_for_update_on_startup: false,
      'features.plugins': false,
      'analytics.enabled': false,
    },
    ...adapterOptions(context.home, env),
    ...options,
  });
  adapters.push(adapter);
  return adapter;
};
const harnessFor = (adapter) => context.harness.createHarness({ backend: adapter, limits: { maxElapsedMs: 120_000 } });
const marker = () => join(context.home, 'work', 'MARKER_FILE');
const shellTurn = (id, extra) => turn(id, `please FAKE_SHELL[touch ${marker()}]`, extra);

describe('codex app-server 0.171.0 (real) — end to end', () => {
  it('completes a turn with streamed deltas', async () => {
    const harness = harnessFor(backend());
    const deltas = [];
    for await (const event of harness.streamTurn(turn('cas-1', 'say hi'))) {
      if (event.type === 'text_delta') deltas.push(event.text);
    }
    expect(deltas.join('')).toBe('PONG from fake');
  });

  it('asks before running a command; resumeTurn approves it in the live session and the turn completes', async () => {
    const harness = harnessFor(backend());
    const paused = await harness.runTurn(shellTurn('cas-2', { sessionId: 'approve' }));
    expect(paused.outcome).toBe('awaiting_approval');
    const [request] = paused.metadata.approvalRequests;
    expect(request.metadata).toMatchObject({ approvalKind: 'command', command: expect.stringContaining('MARKER_FILE') });
    expect(existsSync(marker())).toBe(false);
    const done = await harness.resumeTurn(paused.continuation, { type: 'approval', decisions: { [request.id]: 'approved' } });
    expect(done).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake (after tool)' } });
    expect(existsSync(marker())).toBe(true);
  });

  it('a rejection declines the command: it never runs, and the turn completes with the model’s answer', async () => {
    const harness = harnessFor(backend());
    const paused = await harness.runTurn(shellTurn('cas-3'));
    const [request] = paused.metadata.approvalRequests;
    const done = await harness.resumeTurn(paused.continuation, { type: 'approval', decisions: { [request.id]: 'rejected' } });
    expect(done).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake (after tool)' } });
    expect(existsSync(marker())).toBe(false);
  });

  it('cancels a turn mid-way with turn/interrupt, and the live session serves the next turn', async () => {
    const adapter = backend();
    const harness = harnessFor(adapter);
    const controller = new AbortController();
    const running = harness.runTurn(turn('cas-4', 'FAKE_HANG', { sessionId: 'cancel' }), { signal: controller.signal });
    await waitFor(() => context.server.requests.some((request) => request.url === '/v1/responses'));
    controller.abort();
    const cancelled = await running;
    expect(cancelled.outcome).not.toBe('completed');
    const next = await harness.runTurn(turn('cas-4b', 'say hi', { sessionId: 'cancel' }));
    expect(next).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
  });

  it('reuses one live process for two turns of a session (same thread)', async () => {
    const harness = harnessFor(backend());
    const first = await harness.runTurn(turn('cas-5a', 'remember PINEAPPLE', { sessionId: 'two' }));
    const second = await harness.runTurn(turn('cas-5b', 'which word?', { sessionId: 'two' }));
    expect(second).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
    const threadOf = (result) => context.harness.backendContinuationFrom(result).continuationId;
    expect(threadOf(second)).toBe(threadOf(first));
    expect(second.metadata.backendMetadata.engineRestarted).toBeUndefined();
    expect(JSON.stringify(context.server.requests.at(-1).body.input)).toContain('remember PINEAPPLE');
  });

  it('reports a crash of the engine mid-turn as a failure, and the next turn resumes the thread in a new process', async () => {
    const adapter = backend({ killGraceMs: 200 });
    const harness = harnessFor(adapter);
    const first = await harness.runTurn(turn('cas-6a', 'remember MANGO', { sessionId: 'crash' }));
    const running = harness.runTurn(turn('cas-6b', 'FAKE_HANG', { sessionId: 'crash' }));
    await waitFor(() => context.server.requests.filter((request) => request.url === '/v1/responses').length >= 2);
    killCodex(context.home);
    const crashed = await running;
    expect(crashed).toMatchObject({ outcome: 'failed' });
    expect(crashed.metadata.error.message).toContain('ended during the turn');
    const next = await harness.runTurn(turn('cas-6c', 'which fruit?', { sessionId: 'crash', metadata: { backendContinuation: context.harness.backendContinuationFrom(first) } }));
    expect(next).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
    expect(JSON.stringify(context.server.requests.at(-1).body.input)).toContain('remember MANGO');
  });
});

/** Waits until the fake server has seen what the test needs (checked after each I/O turn of the event loop). */
async function waitFor(condition) {
  while (!condition()) await setImmediate();
}

/** Kills the codex processes whose environment carries this test's HOME (only ours). */
function killCodex(home) {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
      if (environ.includes(`HOME=${home}\0`) && readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('app-server')) process.kill(Number(pid), 'SIGKILL');
    } catch {
      // gone
    }
  }
}
