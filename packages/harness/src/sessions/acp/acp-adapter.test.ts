// createAcpAdapter through createHarness against a fake ACP agent process (real child process,
// real stdio JSON-RPC): streaming, native approvals answered in the live session, rejection,
// cancel, crash and restart, session reuse, and a continuation whose engine is gone.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backendContinuationFrom, createHarness, type HarnessResult, type HarnessStreamEvent } from '../../index.js';
import { cleanupTempDirs, isAlive, tempDir, turnInput } from '../../local/__fixtures__/test-helpers.js';
import { createAcpAdapter, type AcpExecutionAdapter } from './acp-adapter.js';
import type { AcpAdapterOptions } from './acp-adapter-options.js';
import { createGeminiAcpAdapter, createOpenCodeAcpAdapter } from './acp-presets.js';
import { defineExecutionAdapter } from '../../core/define-execution-adapter.js';

const agent = join(import.meta.dirname, '__fixtures__', 'fake-acp-agent.mjs');
const adapters: AcpExecutionAdapter[] = [];

afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.dispose()));
  cleanupTempDirs();
});

function setup(extra: Partial<AcpAdapterOptions> & { style?: 'gemini' | 'opencode' } = {}) {
  const dir = tempDir('harness-acp-');
  const logFile = join(dir, 'log');
  const { style = 'gemini', env, ...rest } = extra;
  const backend = createAcpAdapter({
    backendId: 'fake-acp',
    command: process.execPath,
    args: [agent],
    cwd: dir,
    env: { FAKE_ACP_LOG: logFile, FAKE_ACP_STYLE: style, ...env },
    killGraceMs: 300,
    ...rest,
  });
  adapters.push(backend);
  const harness = createHarness({ backend, limits: { maxElapsedMs: 30_000 } });
  const logged = () =>
    existsSync(logFile)
      ? readFileSync(logFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { pid: number; message?: { method?: string; params?: Record<string, unknown> }; permissionAnswer?: unknown })
      : [];
  return { backend, harness, dir, logged };
}

const input = (text: string, extra: Parameters<typeof turnInput>[1] = {}) => turnInput(text, { sessionId: 'chat-1', ...extra });

async function collect(stream: AsyncIterable<HarnessStreamEvent>): Promise<HarnessStreamEvent[]> {
  const events: HarnessStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function approvalIdOf(result: HarnessResult): string {
  const requests = result.metadata?.['approvalRequests'] as { id: string }[] | undefined;
  expect(requests).toHaveLength(1);
  return requests![0]!.id;
}

describe('createAcpAdapter', () => {
  it('declares native approvals and live streaming, no steering', () => {
    const { backend } = setup();
    expect(backend.describeCapabilities()).toMatchObject({ approvalInterrupts: 'native', streaming: true, steer: false, continuationSupport: 'opaque-resume' });
  });

  it('streams text deltas live and completes with usage and the ACP session as continuation', async () => {
    const { harness, logged } = setup();
    const stream = harness.streamTurn(input('say hi'));
    const events = await collect(stream);
    const result = await stream.result;
    expect(events.filter((event) => event.type === 'text_delta').map((event) => (event as { text: string }).text)).toEqual(['PONG', ' from', ' fake']);
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
    expect(result.usage).toMatchObject({ totalInputTokens: 12, totalOutputTokens: 5 });
    const methods = logged().map((entry) => entry.message?.method);
    expect(methods).toEqual(['initialize', 'session/new', 'session/prompt']);
    const prompt = logged()[2]!.message!.params as { prompt: { text: string }[] };
    expect(prompt.prompt[0]!.text).toContain('Be brief.');
  });

  it('asks permission: awaiting_approval, nothing runs until approved in the live session, then the turn completes', async () => {
    const { harness, dir, logged } = setup();
    const marker = join(dir, 'MARKER');
    const stream = harness.streamTurn(input(`run SHELL[${marker}]`));
    const events = await collect(stream);
    const paused = await stream.result;
    expect(paused).toMatchObject({ outcome: 'awaiting_approval', stopReason: 'approval_required' });
    const approval = events.find((event) => event.type === 'approval_requested');
    expect(approval).toMatchObject({ title: `touch ${marker}`, kind: 'command', options: expect.arrayContaining([expect.objectContaining({ optionId: 'proceed_once', kind: 'allow_once' })]) });
    expect(existsSync(marker)).toBe(false);
    const id = approvalIdOf(paused);
    const pid = logged()[0]!.pid;
    const done = await harness.resumeTurn(paused.continuation, { type: 'approval', decisions: { [id]: 'approved' } });
    expect(done).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'ran it' } });
    expect(existsSync(marker)).toBe(true);
    expect(logged().find((entry) => entry.permissionAnswer !== undefined)).toMatchObject({ pid, permissionAnswer: { outcome: { outcome: 'selected', optionId: 'proceed_once' } } });
    expect(new Set(logged().map((entry) => entry.pid)).size).toBe(1);
  });

  it('a rejection answers the reject option and the command never runs', async () => {
    const { harness, dir, logged } = setup();
    const marker = join(dir, 'MARKER');
    const paused = await harness.runTurn(input(`run SHELL[${marker}]`));
    const done = await harness.resumeTurn(paused.continuation, { type: 'approval', decisions: { [approvalIdOf(paused)]: 'rejected' } });
    expect(done).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'not run' } });
    expect(existsSync(marker)).toBe(false);
    expect(logged().find((entry) => entry.permissionAnswer !== undefined)?.permissionAnswer).toEqual({ outcome: { outcome: 'selected', optionId: 'cancel' } });
  });

  it('opencode style: a rejection ends without text and the turn completes with a sentence saying so', async () => {
    const { harness, dir } = setup({ style: 'opencode' });
    const marker = join(dir, 'MARKER');
    const stream = harness.streamTurn(input(`run SHELL[${marker}]`));
    const events = await collect(stream);
    const paused = await stream.result;
    expect(events.filter((event) => event.type === 'tool_activity').map((event) => (event as { phase: string }).phase)).toEqual(['started', 'updated']);
    expect(events.find((event) => event.type === 'approval_requested')).toMatchObject({ command: `touch ${marker}`, kind: 'command' });
    const done = await harness.resumeTurn(paused.continuation, { type: 'approval', decisions: { [approvalIdOf(paused)]: 'rejected' } });
    expect(done.outcome).toBe('completed');
    expect(done.assistantMessage?.text).toContain('stopped after the request was rejected');
    expect(existsSync(marker)).toBe(false);
  });

  it("approvalScope 'session' answers allow-always, and the engine stops asking in that session", async () => {
    const { harness, dir } = setup({ approvalScope: 'session' });
    const first = join(dir, 'A');
    const paused = await harness.runTurn(input(`run SHELL[${first}]`));
    await harness.resumeTurn(paused.continuation, { type: 'approval', decisions: { [approvalIdOf(paused)]: 'approved' } });
    const second = join(dir, 'B');
    const next = await harness.runTurn(input(`again SHELL[${second}]`, { turnId: 'turn-2' }));
    expect(next).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'ran it' } });
    expect(existsSync(second)).toBe(true);
  });

  it("lets the host's rules answer permission requests in the live engine (onPermissionRequest); what they leave open pauses", async () => {
    const { backend, dir, logged } = setup({ style: 'opencode' });
    const [a, b] = [join(dir, 'A'), join(dir, 'B')];
    const seen: unknown[] = [];
    const harness = createHarness({
      backend: defineExecutionAdapter({
        backendId: backend.backendId,
        describeCapabilities: () => backend.describeCapabilities(),
        negotiate: (request) => backend.negotiate(request),
        execute: (request, options) =>
          backend.execute(request, {
            ...options,
            onPermissionRequest: (asked) => {
              seen.push(asked);
              return asked.command === `touch ${a}` ? 'approve' : asked.command === `touch ${b}` ? 'ask' : 'reject';
            },
          }),
      }),
    });
    const paused = await harness.runTurn(input(`TWICE[${a}|${b}]`));
    expect(paused.outcome).toBe('awaiting_approval');
    expect(existsSync(a)).toBe(true);
    expect(existsSync(b)).toBe(false);
    expect(seen[0]).toEqual({ title: `touch ${a}`, kind: 'command', command: `touch ${a}` });
    expect(logged().filter((entry) => entry.permissionAnswer !== undefined).map((entry) => entry.permissionAnswer)).toEqual([{ outcome: { outcome: 'selected', optionId: 'once' } }]);
    const done = await harness.resumeTurn(paused.continuation, { type: 'approval', decisions: { [approvalIdOf(paused)]: 'approved' } });
    expect(done).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'ran it' } });
    expect(existsSync(b)).toBe(true);

    const marker = join(dir, 'C');
    const refused = await harness.runTurn(input(`run SHELL[${marker}]`, { turnId: 'turn-2' }));
    expect(refused.outcome).toBe('completed');
    expect(refused.assistantMessage?.text).toContain('stopped after the request was rejected');
    expect(existsSync(marker)).toBe(false);
    expect(backend.describeCapabilities().agentProject).toEqual({ instructions: true, permissionRules: true });
  });

  it('two permission requests in one prompt pause the turn twice', async () => {
    const { harness, dir } = setup();
    const [a, b] = [join(dir, 'A'), join(dir, 'B')];
    const first = await harness.runTurn(input(`TWICE[${a}|${b}]`));
    const second = await harness.resumeTurn(first.continuation, { type: 'approval', decisions: { [approvalIdOf(first)]: 'approved' } });
    expect(second.outcome).toBe('awaiting_approval');
    expect(existsSync(a)).toBe(true);
    expect(existsSync(b)).toBe(false);
    const done = await harness.resumeTurn(second.continuation, { type: 'approval', decisions: { [approvalIdOf(second)]: 'approved' } });
    expect(done).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'ran it' } });
    expect(existsSync(b)).toBe(true);
  });

  it('reuses one live engine for two turns of a session; another session gets its own', async () => {
    const { harness, logged } = setup();
    const first = await harness.runTurn(input('COUNT'));
    const second = await harness.runTurn(input('COUNT', { turnId: 'turn-2' }));
    expect(first.assistantMessage?.text).toMatch(/^prompts:1 session:ses_/);
    expect(second.assistantMessage?.text).toMatch(/^prompts:2 session:ses_/);
    const other = await harness.runTurn(input('COUNT', { turnId: 'turn-3', sessionId: 'chat-2' }));
    expect(other.assistantMessage?.text).toMatch(/^prompts:1/);
    expect(new Set(logged().map((entry) => entry.pid)).size).toBe(2);
    const prompts = logged().filter((entry) => entry.message?.method === 'session/prompt');
    expect((prompts[1]!.message!.params as { prompt: { text: string }[] }).prompt[0]!.text).toBe('COUNT');
  });

  it('cancel mid-turn sends session/cancel and the engine stays usable', async () => {
    const { harness, logged } = setup();
    const controller = new AbortController();
    const stream = harness.streamTurn(input('HANG'), { signal: controller.signal });
    for await (const event of stream) if (event.type === 'text_delta') controller.abort();
    const result = await stream.result;
    expect(result.stopReason).toBe('cancelled');
    const next = await harness.runTurn(input('COUNT', { turnId: 'turn-2' }));
    expect(next.assistantMessage?.text).toMatch(/^prompts:2/);
    expect(logged().some((entry) => entry.message?.method === 'session/cancel')).toBe(true);
  });

  it('an engine that ignores the cancel is stopped, and the next turn starts a new one', async () => {
    const { harness, logged } = setup({ env: { FAKE_ACP_IGNORE_CANCEL: '1' } });
    const controller = new AbortController();
    const stream = harness.streamTurn(input('HANG'), { signal: controller.signal });
    for await (const event of stream) if (event.type === 'text_delta') controller.abort();
    await stream.result;
    const firstPid = logged()[0]!.pid;
    const next = await harness.runTurn(input('COUNT', { turnId: 'turn-2' }));
    expect(next.outcome).toBe('completed');
    expect(isAlive(firstPid)).toBe(false);
  });

  it('a crash mid-turn fails the turn; the next turn restarts the engine and loads the session', async () => {
    const { harness, logged } = setup();
    const crashed = await harness.runTurn(input('CRASH'));
    expect(crashed.outcome).toBe('failed');
    expect(crashed.metadata?.error).toMatchObject({ message: expect.stringContaining('The engine exited (code 7)') });
    const continuation = backendContinuationFrom(crashed);
    expect(continuation).toMatchObject({ kind: 'acp.session', continuationId: expect.stringMatching(/^ses_/) });
    const next = await harness.runTurn(input('COUNT', { turnId: 'turn-2', metadata: { backendContinuation: continuation } }));
    expect(next.outcome).toBe('completed');
    expect(next.assistantMessage?.text).toContain(`session:${continuation!.continuationId!}`);
    expect(logged().map((entry) => entry.message?.method).filter((method) => method?.startsWith('session/new') || method === 'session/load')).toEqual(['session/new', 'session/load']);
  });

  it('a continuation whose engine is gone fails honestly as continuation_invalid and runs nothing', async () => {
    const { harness, backend, dir } = setup();
    const marker = join(dir, 'MARKER');
    const paused = await harness.runTurn(input(`SHELL[${marker}]`));
    await backend.dispose();
    const other = setup();
    const resumed = await other.harness.resumeTurn(paused.continuation, { type: 'approval', decisions: { [approvalIdOf(paused)]: 'approved' } });
    expect(resumed.outcome).toBe('failed');
    expect(resumed.metadata?.error).toMatchObject({ message: expect.stringContaining('no longer running') });
    expect(JSON.stringify(resumed.metadata)).toContain('continuation_invalid');
    expect(existsSync(marker)).toBe(false);
  });

  it('ignores hostile lines and malformed updates, and fails a refusal as model_refused', async () => {
    const { harness } = setup();
    const noisy = await harness.runTurn(input('NOISE'));
    expect(noisy).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
    const refused = await harness.runTurn(input('REFUSE', { turnId: 'turn-2' }));
    expect(refused.stopReason).toBe('model_refused');
  });

  it('reports plan updates', async () => {
    const { harness } = setup();
    const events = await collect(harness.streamTurn(input('PLAN')));
    expect(events.find((event) => event.type === 'plan_update')).toMatchObject({
      entries: [{ content: 'look', status: 'completed', priority: 'high' }, { content: 'fix', status: 'in_progress' }],
    });
  });

  it('a missing engine program fails the turn without throwing', async () => {
    const { harness } = setup({ command: join(tempDir(), 'no-such-engine') });
    const result = await harness.runTurn(input('hi'));
    expect(result.outcome).toBe('failed');
    expect(result.metadata?.error).toMatchObject({ message: expect.stringContaining('could not be started') });
  });

  it('dispose leaves no engine process', async () => {
    const { harness, backend, logged } = setup();
    await harness.runTurn(input('hi'));
    await harness.runTurn(input('hi', { sessionId: 'chat-2', turnId: 'turn-2' }));
    const pids = [...new Set(logged().map((entry) => entry.pid))];
    expect(pids).toHaveLength(2);
    await backend.dispose();
    expect(pids.some(isAlive)).toBe(false);
  });

  it('validates its options', () => {
    expect(() => createAcpAdapter({ command: '' })).toThrow(/command/);
    expect(() => createAcpAdapter({ command: 'x', timeoutMs: -1 })).toThrow(/timeoutMs/);
    expect(() => createAcpAdapter({ command: 'x', approvalScope: 'forever' as 'once' })).toThrow(/approvalScope/);
    expect(() => createOpenCodeAcpAdapter({ permission: { bash: 'maybe' as 'ask' } })).toThrow(/permission.bash/);
    expect(() => createGeminiAcpAdapter({ model: '--yolo' })).toThrow(/model/);
  });
});
