// CodexAppServerAdapter against a fixture `codex app-server` process speaking the real wire
// protocol (JSON-RPC without "jsonrpc", server requests with ids from 0).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import type { ExecutionRequest, ExecutionStreamEvent, ExecutionSteerMessage } from '../../execution/types.js';
import { createTurnInput } from '../../testing/create-turn-input.js';
import { CodexAppServerAdapter } from './codex-app-server-execution-adapter.js';
import type { CodexAppServerAdapterOptions } from './codex-app-server-options.js';

const fixture = fileURLToPath(new URL('./__fixtures__/fake-codex-app-server.mjs', import.meta.url));
const adapters: CodexAppServerAdapter[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.dispose()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup(options: CodexAppServerAdapterOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'codex-app-server-'));
  dirs.push(dir);
  const files = { log: join(dir, 'wire.jsonl'), marker: join(dir, 'MARKER') };
  const adapter = new CodexAppServerAdapter({
    command: fixture,
    cwd: dir,
    env: { FIXTURE_LOG: files.log, FIXTURE_MARKER: files.marker },
    killGraceMs: 200,
    ...options,
  });
  adapters.push(adapter);
  const sent = () =>
    existsSync(files.log)
      ? readFileSync(files.log, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown> })
      : [];
  return { adapter, files, sent };
}

function request(text: string, extra: Partial<ExecutionRequest> = {}): ExecutionRequest {
  return {
    assistantId: 'a',
    turnId: `t-${Math.random()}`,
    message: { id: 'm', text, receivedAt: '2026-01-01T00:00:00.000Z' },
    instructions: { systemPrompt: 'Be brief.' },
    ...extra,
  };
}

describe('CodexAppServerAdapter', () => {
  it('completes a turn, streaming deltas that add up to the answer, with usage and the thread as continuation', async () => {
    const { adapter, sent } = setup();
    const events: ExecutionStreamEvent[] = [];
    const continuations: unknown[] = [];
    const result = await adapter.execute(request('hello'), { onEvent: (event) => events.push(event), onContinuation: (c) => continuations.push(c) });
    expect(result).toMatchObject({
      status: 'completed',
      output: { text: 'Hello from fixture' },
      usage: { inputTokens: 24, outputTokens: 12, cachedInputTokens: 4 },
      continuation: { kind: 'codex-app-server.thread', continuationId: expect.stringMatching(/^thread-/) },
    });
    const deltas = events.filter((event) => event.type === 'text_delta');
    expect(deltas.length).toBe(2);
    expect(deltas.map((event) => event.text).join('')).toBe('Hello from fixture');
    expect(continuations).toEqual([{ kind: 'codex-app-server.thread', continuationId: result.continuation?.continuationId }]);
    const wire = sent();
    expect(wire.every((message) => !('jsonrpc' in message))).toBe(true);
    expect(wire.map((message) => message.method)).toEqual(['initialize', 'initialized', 'thread/start', 'turn/start']);
    expect(wire[2]?.params).toMatchObject({ approvalPolicy: 'untrusted', developerInstructions: 'Be brief.' });
    expect(wire[3]?.params).toMatchObject({ input: [{ type: 'text', text: 'hello', text_elements: [] }] });
    expect(adapter.describeCapabilities()).toMatchObject({ approvalInterrupts: 'native', streaming: true, steer: true, continuationSupport: 'opaque-resume' });
  });

  it('pauses on a command approval (request id 0) and runs the command only after approval, in the same process', async () => {
    const { adapter, files, sent } = setup();
    const events: ExecutionStreamEvent[] = [];
    const first = await adapter.execute(request('please APPROVE_ME', { sessionId: 's1' }), { onEvent: (event) => events.push(event) });
    expect(first).toMatchObject({
      status: 'awaiting_approval',
      approvalRequest: {
        approvalKey: expect.any(String),
        reason: "Run /bin/bash -lc 'touch MARKER_1'",
        metadata: { approvalKind: 'command', command: "/bin/bash -lc 'touch MARKER_1'", options: expect.arrayContaining([expect.objectContaining({ optionId: 'acceptForSession', kind: 'allow_always' })]) },
      },
    });
    expect(events).toContainEqual(expect.objectContaining({ type: 'tool_activity', phase: 'started', kind: 'command' }));
    expect(events).toContainEqual(expect.objectContaining({ type: 'approval_requested', approvalKey: first.approvalRequest?.approvalKey }));
    expect(existsSync(files.marker)).toBe(false);
    const key = first.approvalRequest!.approvalKey!;
    const second = await adapter.execute({ ...request('please APPROVE_ME', { sessionId: 's1' }), continuation: first.continuation, resume: { type: 'approval', decisions: { [key]: 'approved' } } });
    expect(second).toMatchObject({ status: 'completed', output: { text: 'Done after accept' }, metadata: { approvalDecision: 'accept' } });
    expect(readFileSync(files.marker, 'utf8')).toBe('accept');
    const wire = sent();
    expect(wire.filter((message) => message.method === 'initialize')).toHaveLength(1);
    expect(wire).toContainEqual({ id: 0, result: { decision: 'accept' } });
  });

  it('declines a rejected command: it never runs and the turn completes with the answer', async () => {
    const { adapter, files, sent } = setup();
    const first = await adapter.execute(request('APPROVE_ME'));
    const key = first.approvalRequest!.approvalKey!;
    const events: ExecutionStreamEvent[] = [];
    const second = await adapter.execute({ ...request('APPROVE_ME'), continuation: first.continuation, resume: { type: 'approval', decisions: { [key]: 'rejected' } } }, { onEvent: (event) => events.push(event) });
    expect(second).toMatchObject({ status: 'completed', output: { text: 'Done after decline' } });
    expect(events).toContainEqual(expect.objectContaining({ type: 'tool_activity', phase: 'finished', status: 'rejected' }));
    expect(existsSync(files.marker)).toBe(false);
    expect(sent()).toContainEqual({ id: 0, result: { decision: 'decline' } });
  });

  it('answers "acceptForSession" with approvalScope session, and asks again for a second approval in the same turn', async () => {
    const { adapter, files } = setup({ approvalScope: 'session' });
    const first = await adapter.execute(request('TWICE'));
    const approve = (result: typeof first) => adapter.execute({ ...request('TWICE'), continuation: result.continuation, resume: { type: 'approval', decisions: { [result.approvalRequest!.approvalKey!]: 'approved' } } });
    const second = await approve(first);
    expect(second.status).toBe('awaiting_approval');
    expect(second.approvalRequest?.approvalKey).not.toBe(first.approvalRequest?.approvalKey);
    const third = await approve(second);
    expect(third).toMatchObject({ status: 'completed', output: { text: 'Done after acceptForSession, acceptForSession' } });
    expect(existsSync(files.marker) && existsSync(`${files.marker}.2`)).toBe(true);
  });

  it("lets the host's rules answer approvals in the live session (onPermissionRequest): approved and refused at once, asked ones pause", async () => {
    const { adapter, files, sent } = setup();
    const seen: unknown[] = [];
    const onPermissionRequest = (asked: { command?: string | undefined }) => {
      seen.push(asked);
      return asked.command?.includes('MARKER_1') === true ? ('approve' as const) : ('ask' as const);
    };
    const first = await adapter.execute(request('TWICE', { sessionId: 'rules' }), { onPermissionRequest });
    expect(first).toMatchObject({ status: 'awaiting_approval', approvalRequest: { metadata: { command: "/bin/bash -lc 'touch MARKER_2'" } } });
    expect(first.trace?.events).toContainEqual(expect.objectContaining({ type: 'note', data: { message: "Permission granted by the host's rules: Run /bin/bash -lc 'touch MARKER_1'" } }));
    expect(seen[0]).toEqual({ title: "Run /bin/bash -lc 'touch MARKER_1'", toolName: 'commandExecution', kind: 'command', command: "/bin/bash -lc 'touch MARKER_1'" });
    expect(sent()).toContainEqual({ id: 0, result: { decision: 'accept' } });
    const second = await adapter.execute(
      { ...request('TWICE', { sessionId: 'rules' }), continuation: first.continuation, resume: { type: 'approval', decisions: { [first.approvalRequest!.approvalKey!]: 'approved' } } },
      { onPermissionRequest },
    );
    expect(second).toMatchObject({ status: 'completed', output: { text: 'Done after accept, accept' } });
    expect(existsSync(files.marker) && existsSync(`${files.marker}.2`)).toBe(true);

    const refused = await adapter.execute(request('APPROVE_ME'), { onPermissionRequest: () => 'reject' });
    expect(refused).toMatchObject({ status: 'completed', output: { text: 'Done after decline' } });
    const throwing = await adapter.execute(request('EDIT_ME'), {
      onPermissionRequest: () => {
        throw new Error('rules broke');
      },
    });
    expect(throwing).toMatchObject({ status: 'awaiting_approval', approvalRequest: { metadata: { approvalKind: 'fileChange' } } });
    expect(adapter.describeCapabilities().agentProject).toEqual({ instructions: true, permissionRules: true });
  });

  it('asks for file changes too', async () => {
    const { adapter } = setup();
    const first = await adapter.execute(request('EDIT_ME'));
    expect(first).toMatchObject({ status: 'awaiting_approval', approvalRequest: { reason: 'Apply a file change (needs to edit a.txt)', metadata: { approvalKind: 'fileChange' } } });
  });

  it('says continuation_invalid when the live session is gone, instead of guessing', async () => {
    const { adapter } = setup();
    const first = await adapter.execute(request('APPROVE_ME'));
    const key = first.approvalRequest!.approvalKey!;
    const other = setup().adapter; // another process would have no live session either
    const result = await other.execute({ ...request('APPROVE_ME'), continuation: first.continuation, resume: { type: 'approval', decisions: { [key]: 'approved' } } });
    expect(result).toMatchObject({ status: 'failed', error: { code: 'other', metadata: { reason: 'continuation_invalid' } } });
    await adapter.dispose();
    const afterDispose = await adapter.execute({ ...request('APPROVE_ME'), continuation: first.continuation, resume: { type: 'approval', decisions: { [key]: 'approved' } } });
    expect(afterDispose).toMatchObject({ status: 'failed', error: { metadata: { reason: 'continuation_invalid' } } });
  });

  it('reuses one live process for two turns of a session', async () => {
    const { adapter, sent } = setup();
    const first = await adapter.execute(request('hello', { sessionId: 'two' }));
    const second = await adapter.execute(request('hello again', { sessionId: 'two' }));
    expect(second.status).toBe('completed');
    expect(second.continuation?.continuationId).toBe(first.continuation?.continuationId);
    const methods = sent().map((message) => message.method);
    expect(methods.filter((method) => method === 'initialize')).toHaveLength(1);
    expect(methods.filter((method) => method === 'thread/start')).toHaveLength(1);
    expect(methods.filter((method) => method === 'turn/start')).toHaveLength(2);
  });

  it('finds the live session from the thread id alone, and resumes the thread in a new process when there is none', async () => {
    const { adapter, sent } = setup();
    const first = await adapter.execute(request('hello'));
    const again = await adapter.execute(request('more', { metadata: { backendContinuation: first.continuation } }));
    expect(again.continuation?.continuationId).toBe(first.continuation?.continuationId);
    expect(sent().filter((message) => message.method === 'initialize')).toHaveLength(1);
    const fresh = setup();
    const resumed = await fresh.adapter.execute(request('more', { metadata: { backendContinuation: first.continuation } }));
    expect(resumed).toMatchObject({ status: 'completed', metadata: { threadResumed: true } });
    expect(fresh.sent().find((message) => message.method === 'thread/resume')?.params).toMatchObject({ threadId: first.continuation?.continuationId });
  });

  it('interrupts the turn on cancel (turn/interrupt) and keeps the process for the next turn', async () => {
    const { adapter, sent } = setup();
    const controller = new AbortController();
    const running = adapter.execute(request('HANG', { sessionId: 'c' }), {
      signal: controller.signal,
      onEvent: () => undefined,
      onContinuation: () => setTimeout(() => controller.abort(), 0),
    });
    const result = await running;
    expect(result).toMatchObject({ status: 'failed', metadata: { cancelled: true } });
    expect(sent().some((message) => message.method === 'turn/interrupt')).toBe(true);
    const next = await adapter.execute(request('hello', { sessionId: 'c' }));
    expect(next.status).toBe('completed');
    expect(sent().filter((message) => message.method === 'initialize')).toHaveLength(1);
  });

  it('lets the next turn of a session wait while a cancelled turn is still being interrupted', async () => {
    const { adapter, sent } = setup();
    const controller = new AbortController();
    const running = adapter.execute(request('HANG', { sessionId: 'w' }), { signal: controller.signal, onContinuation: () => setTimeout(() => controller.abort(), 0) });
    // The harness stops waiting on abort; the next turn starts while the adapter still interrupts.
    await new Promise<void>((resolve) => controller.signal.addEventListener('abort', () => resolve(), { once: true }));
    const next = await adapter.execute(request('hello', { sessionId: 'w' }));
    expect(next.status).toBe('completed');
    expect((await running).status).toBe('failed');
    expect(sent().filter((message) => message.method === 'initialize')).toHaveLength(1);
  });

  it('times out a silent turn as timeout, interrupting it', async () => {
    const { adapter } = setup({ timeoutMs: 300 });
    const result = await adapter.execute(request('HANG'));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'timeout', retryable: true } });
  });

  it('reports a crash mid-turn as a retryable failure and starts a new process next time', async () => {
    const { adapter, sent } = setup();
    const crashed = await adapter.execute(request('CRASH', { sessionId: 'x' }));
    expect(crashed).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: true }, metadata: { engineExited: true } });
    expect(crashed.error?.message).toContain('code 3');
    const next = await adapter.execute(request('hello', { sessionId: 'x', metadata: { backendContinuation: crashed.continuation } }));
    expect(next).toMatchObject({ status: 'completed', metadata: { engineRestarted: true, threadResumed: true } });
    expect(sent().filter((message) => message.method === 'initialize')).toHaveLength(2);
  });

  it('maps a failed turn to failed with codex’s message', async () => {
    const { adapter } = setup();
    expect(await adapter.execute(request('FAIL'))).toMatchObject({ status: 'failed', error: { message: 'Codex failed: fake injected HTTP 400', retryable: false } });
  });

  it('reports plan updates', async () => {
    const { adapter } = setup();
    const events: ExecutionStreamEvent[] = [];
    await adapter.execute(request('PLAN'), { onEvent: (event) => events.push(event) });
    expect(events).toContainEqual({
      type: 'plan_update',
      entries: [
        { content: 'look', status: 'completed' },
        { content: 'answer', status: 'in_progress' },
        { content: 'rest', status: 'pending' },
      ],
    });
  });

  it('delivers steering input with turn/steer', async () => {
    const { adapter, sent } = setup();
    const delivered: string[] = [];
    const steer = {
      receive(deliver: (message: ExecutionSteerMessage) => Promise<void> | void) {
        void Promise.resolve(deliver({ id: 'steer-1', text: 'also say hi' })).then(() => delivered.push('steer-1'));
        return () => undefined;
      },
    };
    const result = await adapter.execute(request('WAIT_STEER'), { steer });
    expect(result).toMatchObject({ status: 'completed', output: { text: 'got: also say hi' } });
    expect(delivered).toEqual(['steer-1']);
    expect(sent().find((message) => message.method === 'turn/steer')?.params).toMatchObject({ expectedTurnId: 'turn-1', input: [{ type: 'text', text: 'also say hi' }] });
  });

  it('fails cleanly when the binary is missing', async () => {
    const { adapter } = setup({ command: '/nonexistent/codex' });
    const result = await adapter.execute(request('hello'));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: false } });
  });

  it('refuses bad options with HarnessConfigError', () => {
    expect(() => new CodexAppServerAdapter({ approvalPolicy: 'sometimes' as never })).toThrow(/approvalPolicy/);
    expect(() => new CodexAppServerAdapter({ model: '--evil' })).toThrow(/model/);
    expect(() => new CodexAppServerAdapter({ config: { 'bad key': 1 } })).toThrow(/config/);
    expect(() => new CodexAppServerAdapter({ timeoutMs: -1 })).toThrow(/timeoutMs/);
  });

  it('goes through createHarness: awaiting_approval, then resumeTurn approves in the live session', async () => {
    const { adapter, files } = setup();
    const harness = createHarness({ backend: adapter });
    const paused = await harness.runTurn(createTurnInput({ text: 'APPROVE_ME', sessionId: 'h' }));
    expect(paused.outcome).toBe('awaiting_approval');
    const approvals = (paused.metadata as { approvalRequests: { id: string }[] }).approvalRequests;
    expect(existsSync(files.marker)).toBe(false);
    const done = await harness.resumeTurn(paused.continuation!, { type: 'approval', decisions: { [approvals[0]!.id]: 'approved' } });
    expect(done).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Done after accept' } });
    expect(existsSync(files.marker)).toBe(true);
  });

  it('streams live through streamTurn and ends continuation_invalid when resumed without the live session', async () => {
    const { adapter } = setup();
    const harness = createHarness({ backend: adapter });
    const stream = harness.streamTurn(createTurnInput({ text: 'hello' }));
    const deltas: string[] = [];
    for await (const event of stream) if (event.type === 'text_delta') deltas.push(event.text);
    expect(deltas.join('')).toBe('Hello from fixture');
    expect(deltas.length).toBe(2);
    const paused = await harness.runTurn(createTurnInput({ text: 'APPROVE_ME' }));
    const approvals = (paused.metadata as { approvalRequests: { id: string }[] }).approvalRequests;
    await adapter.dispose();
    const gone = await harness.resumeTurn(paused.continuation!, { type: 'approval', decisions: { [approvals[0]!.id]: 'approved' } });
    expect(gone).toMatchObject({ outcome: 'failed', stopReason: 'continuation_invalid' });
  });
});
