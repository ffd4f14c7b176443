// The end-to-end suite of a live Claude session backend (Claude Code's stream-json process, or the
// Claude Agent SDK in-process) under createHarness, against the loopback fake Anthropic Messages
// server: streamed deltas, native permission requests approved and rejected in the live engine,
// cancel mid-turn, two turns on one engine, and a crash of the engine mid-turn.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv, turn, useCliTestContext } from './helpers.mjs';

/**
 * Registers the suite. `makeBackend(context, env, options)` builds the adapter; `kind` is its
 * continuation kind; `enginePid(result)` is the pid of the engine that served a turn.
 */
export function describeClaudeSession(title, { name, makeBackend, kind, enginePid }) {
  const context = useCliTestContext(name);
  const adapters = [];
  afterEach(async () => {
    await Promise.all(adapters.splice(0).map((adapter) => adapter.dispose()));
  });

  const backend = (options = {}) => {
    const env = isolatedEnv(context.home, {
      ANTHROPIC_BASE_URL: context.server.url,
      ANTHROPIC_API_KEY: 'sk-ant-fake-e2e',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    });
    const adapter = makeBackend(context, env, options);
    adapters.push(adapter);
    return adapter;
  };

  /** Resolves when the fake model server records a request whose body contains `text` (no polling: wraps `push`). */
  function nextRequestWith(text) {
    const requests = context.server.requests;
    return new Promise((resolve) => {
      const push = requests.push;
      requests.push = function (...records) {
        const count = push.apply(this, records);
        if (records.some((record) => record.raw.includes(text))) {
          requests.push = push;
          resolve();
        }
        return count;
      };
    });
  }

  const approvalIdOf = (paused) => paused.metadata.approvalRequests[0].id;

  describe(title, () => {
    it('completes a turn with streamed deltas', async () => {
      const events = [];
      const adapter = backend();
      const result = await adapter.execute(
        turn('cs-1', 'say hi'),
        { onEvent: (event) => events.push(event) },
      );
      expect(result).toMatchObject({ status: 'completed', output: { text: 'PONG from fake' } });
      const deltas = events.filter((event) => event.type === 'text_delta').map((event) => event.text);
      expect(deltas.join('')).toBe('PONG from fake');
      expect(result.continuation).toMatchObject({ kind, continuationId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      expect(result.usage).toMatchObject({ inputTokens: 12, outputTokens: 5 });
    });

    it('asks permission for a shell command; approving in the live session runs it and the turn completes', async () => {
      const marker = join(context.home, 'work', 'MARKER_FILE');
      const harness = context.harness.createHarness({ backend: backend(), limits: { maxElapsedMs: 120_000 } });
      const paused = await harness.runTurn(turn('cs-2', `please FAKE_SHELL[touch ${marker}]`));
      expect(paused).toMatchObject({ outcome: 'awaiting_approval', stopReason: 'approval_required' });
      expect(paused.metadata.approvalRequests[0]).toMatchObject({ kind: 'backend_approval', metadata: { toolName: 'Bash', command: `touch ${marker}` } });
      expect(existsSync(marker)).toBe(false);
      const resumed = await harness.resumeTurn(paused.continuation, { type: 'approval', decisions: { [approvalIdOf(paused)]: 'approved' } });
      expect(resumed).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake (after tool)' } });
      expect(existsSync(marker)).toBe(true);
      expect(resumed.metadata.backendMetadata.engine).toMatchObject({ reused: true });
    });

    it('a rejection never runs the command; the turn completes with the model told', async () => {
      const marker = join(context.home, 'work', 'MARKER_FILE');
      const harness = context.harness.createHarness({ backend: backend(), limits: { maxElapsedMs: 120_000 } });
      const paused = await harness.runTurn(turn('cs-3', `please FAKE_SHELL[touch ${marker}]`));
      expect(paused.outcome).toBe('awaiting_approval');
      const resumed = await harness.resumeTurn(paused.continuation, { type: 'approval', decisions: { [approvalIdOf(paused)]: 'rejected' } });
      expect(resumed).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake (after tool)' } });
      expect(resumed.metadata.backendMetadata).toMatchObject({ permissionDenials: 1, approvalDecision: 'rejected' });
      expect(existsSync(marker)).toBe(false);
      expect(JSON.stringify(context.server.requests.at(-1).body.messages)).toContain('The user rejected this tool call.');
    });

    it('cancel mid-turn interrupts claude, and the same live process answers the next turn', async () => {
      const adapter = backend();
      const first = await adapter.execute({ ...turn('cs-4a', 'say hi') });
      const pid = enginePid(first);
      const controller = new AbortController();
      const requested = nextRequestWith('FAKE_HANG');
      const running = adapter.execute({ ...turn('cs-4b', 'FAKE_HANG now'), continuation: first.continuation }, { signal: controller.signal });
      await requested;
      controller.abort();
      const cancelled = await running;
      expect(cancelled).toMatchObject({ status: 'failed', error: { metadata: { reason: 'cancelled' } } });
      const next = await adapter.execute({ ...turn('cs-4c', 'say hi again'), continuation: cancelled.continuation });
      expect(next).toMatchObject({ status: 'completed', output: { text: 'PONG from fake' }, metadata: { engine: { reused: true } } });
      expect(enginePid(next)).toBe(pid);
    });

    it('two turns reuse one live process; the second sees the first exchange', async () => {
      const harness = context.harness.createHarness({ backend: backend(), limits: { maxElapsedMs: 120_000 } });
      const first = await harness.runTurn(turn('cs-5a', 'remember the word PINEAPPLE'));
      const continuation = context.harness.backendContinuationFrom(first);
      const second = await harness.runTurn(turn('cs-5b', 'which word?', { metadata: { backendContinuation: continuation } }));
      expect(second).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
      expect(second.metadata.backendMetadata.engine).toMatchObject({ reused: true });
      expect(context.harness.backendContinuationFrom(second).continuationId).toBe(continuation.continuationId);
      expect(JSON.stringify(context.server.requests.at(-1).body.messages)).toContain('remember the word PINEAPPLE');
    });

    it('a crash of the engine mid-turn fails the turn; the next turn resumes the session in a new process', async () => {
      const adapter = backend();
      const first = await adapter.execute({ ...turn('cs-6a', 'remember the word MANGO') });
      const pid = enginePid(first);
      const requested = nextRequestWith('FAKE_HANG');
      const running = adapter.execute({ ...turn('cs-6b', 'FAKE_HANG now'), continuation: first.continuation });
      await requested;
      process.kill(pid, 'SIGKILL');
      const crashed = await running;
      expect(crashed).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: true } });
      expect(crashed.error.message).toMatch(/exited mid-turn/);
      const next = await adapter.execute({ ...turn('cs-6c', 'which word?'), continuation: crashed.continuation });
      expect(next).toMatchObject({ status: 'completed', output: { text: 'PONG from fake' }, metadata: { engine: { reused: false, resumedWithFlag: true } } });
      expect(enginePid(next)).not.toBe(pid);
      expect(JSON.stringify(context.server.requests.at(-1).body.messages)).toContain('remember the word MANGO');
    });
  });
}
