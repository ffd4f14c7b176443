// The real GitHub Copilot CLI (@github/copilot 1.0.102, pinned) in `-p` mode under
// CopilotExecutionAdapter and createHarness, against the loopback fake model through its own-provider
// (BYOK) offline mode. The command is the npm loader in node_modules/.bin: the adapter must start the
// native binary behind it. The package cache (235 MB, unpacked on first start) is shared by all tests.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adapterOptions, cli, collect, copilotCacheDir, runUntilSleepTool, turn, useBackends, useCliTestContext } from '../helpers.mjs';

const context = useCliTestContext('copilot');
const NATIVE = join('@github', `copilot-${process.platform}-${process.arch}`, 'copilot');

const copilotBackend = useBackends(
  (options) =>
    new context.harness.CopilotExecutionAdapter({
      ...adapterOptions(context.home, { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', COPILOT_PROVIDER_API_KEY: 'sk-fake-copilot-e2e' }),
      command: cli('copilot'),
      cacheDir: copilotCacheDir,
      provider: { baseUrl: `${context.server.url}/v1` },
      model: 'fake-model',
      ...options,
    }),
);
const harnessOf = (backend) => context.harness.createHarness({ backend, limits: { maxElapsedMs: 150_000 } });
const chatRequests = () => context.server.requests.filter((request) => request.url === '/v1/chat/completions');

describe('GitHub Copilot CLI 1.0.102 (real, -p) — end to end', () => {
  it('runs a tool loop offline with your own provider, streaming the tool and the text; usage from the usage file', async () => {
    const { events, result } = await collect(harnessOf(copilotBackend()).streamTurn(turn('copilot-1', 'FAKE_SHELL[echo TOOL_OK]')));
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake (after tool)' } });
    expect(result.usage).toMatchObject({ totalInputTokens: 24, totalOutputTokens: 12 });
    expect(events.filter((event) => event.type === 'tool_activity')).toMatchObject([
      { phase: 'started', name: 'bash', kind: 'command', command: 'echo TOOL_OK' },
      { phase: 'finished', name: 'bash', status: 'succeeded' },
    ]);
    expect(events.filter((event) => event.type === 'text_delta').map((event) => event.text).join('')).toBe('PONG from fake (after tool)');
    const [first, second] = chatRequests();
    expect(first.headers.authorization).toBe('Bearer sk-fake-copilot-e2e');
    expect(JSON.stringify(first.body.messages)).toContain('# Message\\n\\nFAKE_SHELL[echo TOOL_OK]');
    expect(JSON.stringify(second.body.messages)).toContain('TOOL_OK');
    // Nothing left the loopback: every request the server saw was a model call.
    expect(context.server.requests.every((request) => request.url.startsWith('/v1/'))).toBe(true);
  });

  it('keeps its safe posture: a command that needs permission is denied and reported; allowTools lets it run', async () => {
    const marker = join(context.home, 'work', 'MARKER');
    const { events, result } = await collect(harnessOf(copilotBackend()).streamTurn(turn('copilot-2a', `FAKE_SHELL[touch ${marker}]`)));
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake (after tool)' } });
    expect(existsSync(marker)).toBe(false);
    expect(events.filter((event) => event.type === 'tool_activity')).toMatchObject([
      { phase: 'started', name: 'bash', command: `touch ${marker}` },
      { phase: 'finished', name: 'bash', status: 'rejected' },
    ]);
    expect(JSON.stringify(chatRequests().at(-1).body.messages)).toContain('Permission denied');

    const allowed = await harnessOf(copilotBackend({ allowTools: ['shell(touch)'] })).runTurn(turn('copilot-2b', `FAKE_SHELL[touch ${marker}]`));
    expect(allowed.outcome).toBe('completed');
    expect(existsSync(marker)).toBe(true);
  });

  it("resumes Copilot's own session in a second turn (--resume)", async () => {
    const backend = copilotBackend();
    const first = await harnessOf(backend).runTurn(turn('copilot-3a', 'remember PINEAPPLE'));
    const continuation = context.harness.backendContinuationFrom(first);
    expect(continuation).toMatchObject({ kind: 'copilot.session', continuationId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const second = await harnessOf(backend).runTurn(turn('copilot-3b', 'which word?', { metadata: { backendContinuation: continuation } }));
    expect(second).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
    expect(context.harness.backendContinuationFrom(second).continuationId).toBe(continuation.continuationId);
    const last = chatRequests().at(-1);
    expect(JSON.stringify(last.body.messages)).toContain('remember PINEAPPLE');
    expect(JSON.stringify(last.body.messages)).toContain('which word?');
  });

  it('cancel leaves no process: the native binary (never the npm loader) and its tool are gone', async () => {
    // The backend itself, not the harness: its execute resolves only once the process group is gone.
    const run = await runUntilSleepTool(({ prompt, spawnFn, signal }) =>
      copilotBackend({ allowTools: ['shell(sleep)'], spawnFn }).execute(turn('copilot-4', prompt), { signal }),
    );
    expect(run.spawned).toHaveLength(1);
    expect(run.spawned[0].command.endsWith(NATIVE)).toBe(true);
    expect(run.engines).toHaveLength(1);
    const { result, survivors } = await run.cancel();
    expect(result).toMatchObject({ status: 'failed', metadata: { cancelled: true } });
    expect(survivors).toEqual([]);
  });

  it('reports an HTTP 400 (session.error, exit 1) as failed, not retryable', async () => {
    const result = await harnessOf(copilotBackend()).runTurn(turn('copilot-5', 'FAKE_HTTP_400'));
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'runtime_error' });
    expect(result.metadata.error).toMatchObject({ code: 'backend_execution_error', retryable: false, message: 'GitHub Copilot CLI failed: 400 fake injected HTTP 400' });
  });

  it('is found by probeLocalBackends with its version', async () => {
    const [probe] = await context.harness.probeLocalBackends(['copilot'], {
      commands: { copilot: cli('copilot') },
      env: { PATH: process.env.PATH, HOME: context.home, XDG_CACHE_HOME: copilotCacheDir },
    });
    expect(probe).toMatchObject({ id: 'copilot', available: true, version: '1.0.102' });
  });
});
