// The real `pi` (@mariozechner/pi-coding-agent 0.73.1, pinned) under PiExecutionAdapter and
// createHarness, against the loopback fake model (OpenAI Chat Completions through a custom provider
// in pi's models.json). The adapter's own defaults are used: a private HOME and agent directory.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adapterOptions, cli, collect, runUntilSleepTool, turn, useBackends, useCliTestContext, userTexts } from '../helpers.mjs';

const context = useCliTestContext('pi');

const piBackend = useBackends(
  (options) =>
    new context.harness.PiExecutionAdapter({
      ...adapterOptions(context.home, { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', FAKE_PI_KEY: 'sk-fake-pi-e2e' }),
      command: cli('pi'),
      provider: { name: 'fake', baseUrl: `${context.server.url}/v1`, apiKeyEnv: 'FAKE_PI_KEY' },
      model: 'fake-model',
      ...options,
    }),
);
const harnessOf = (backend) => context.harness.createHarness({ backend, limits: { maxElapsedMs: 120_000 } });
const chatRequests = () => context.server.requests.filter((request) => request.url === '/v1/chat/completions');
const toolNames = (request) => (request.body.tools ?? []).map((tool) => tool.function?.name);

describe('pi 0.73.1 (real) — end to end', () => {
  it('runs a tool loop with bash opted in, streaming the tool and the text live; the key only as a bearer token', async () => {
    const { events, result } = await collect(harnessOf(piBackend({ tools: ['read', 'bash'] })).streamTurn(turn('pi-1', 'FAKE_SHELL[echo TOOL_OK]')));
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake (after tool)' } });
    expect(result.usage).toMatchObject({ totalInputTokens: 24, totalOutputTokens: 12 });
    expect(events.filter((event) => event.type === 'tool_activity')).toMatchObject([
      { phase: 'started', name: 'bash', kind: 'command', command: 'echo TOOL_OK' },
      { phase: 'finished', name: 'bash', status: 'succeeded' },
    ]);
    expect(events.filter((event) => event.type === 'text_delta').map((event) => event.text).join('')).toBe('PONG from fake (after tool)');
    const [first, second] = chatRequests();
    expect(first.headers.authorization).toBe('Bearer sk-fake-pi-e2e');
    expect(toolNames(first)).toEqual(['read', 'bash']);
    expect(JSON.stringify(second.body.messages)).toContain('TOOL_OK');
    expect(userTexts(first).at(-1)).toMatch(/^<file name=".+prompt\.md">\n# Instructions\n\nAnswer briefly\.\n\n# Message\n\nFAKE_SHELL\[echo TOOL_OK\]/);
  });

  it('keeps its safe posture by default: only read, grep, find, ls are offered, so a command never runs', async () => {
    const marker = join(context.home, 'work', 'MARKER');
    const result = await harnessOf(piBackend()).runTurn(turn('pi-2', `FAKE_SHELL[touch ${marker}]`));
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
    expect(toolNames(chatRequests()[0])).toEqual(['read', 'grep', 'find', 'ls']);
    expect(existsSync(marker)).toBe(false);
  });

  it("resumes pi's own session in a second turn, also from another working directory (by session file)", async () => {
    const agentDir = join(context.home, 'agent');
    const first = await harnessOf(piBackend({ agentDir })).runTurn(turn('pi-3a', 'remember PINEAPPLE'));
    const continuation = context.harness.backendContinuationFrom(first);
    expect(continuation).toMatchObject({ kind: 'pi.session', continuationId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const elsewhere = join(context.home, 'elsewhere');
    mkdirSync(elsewhere);
    const second = await harnessOf(piBackend({ agentDir, cwd: elsewhere })).runTurn(turn('pi-3b', 'which word?', { metadata: { backendContinuation: continuation } }));
    expect(second).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
    expect(context.harness.backendContinuationFrom(second).continuationId).toBe(continuation.continuationId);
    const last = chatRequests().at(-1);
    expect(JSON.stringify(last.body.messages)).toContain('remember PINEAPPLE');
    expect(userTexts(last).at(-1)).toContain('which word?');
  });

  it('cancel stops pi and the tool it runs (SIGTERM reaches its detached bash)', async () => {
    // The backend itself, not the harness: its execute resolves only once the process group is gone.
    const run = await runUntilSleepTool(({ prompt, spawnFn, signal }) => piBackend({ tools: ['bash'], spawnFn }).execute(turn('pi-4', prompt), { signal }));
    expect(run.engines).toHaveLength(1);
    const { result, survivors } = await run.cancel();
    expect(result).toMatchObject({ status: 'failed', metadata: { cancelled: true } });
    expect(survivors).toEqual([]);
  });

  it('reports an HTTP 400 as failed although pi exits 0', async () => {
    const result = await harnessOf(piBackend()).runTurn(turn('pi-5', 'FAKE_HTTP_400'));
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'runtime_error' });
    expect(result.metadata.error).toMatchObject({ code: 'backend_execution_error', retryable: false, message: 'pi failed: 400 fake injected HTTP 400' });
  });

  it('is found by probeLocalBackends, its version read from stderr', async () => {
    const [probe] = await context.harness.probeLocalBackends(['pi'], { commands: { pi: cli('pi') } });
    expect(probe).toMatchObject({ id: 'pi', available: true, version: '0.73.1' });
  });
});
