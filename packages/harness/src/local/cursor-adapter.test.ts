// CursorExecutionAdapter against a fake `cursor-agent` that prints the documented stream-json
// shapes (cursor.com/docs/cli/reference/output-format, captures in ZhengyiLuo/AgentsServer; see
// __fixtures__/fake-cursor.mjs). The Cursor CLI cannot be installed here (its installer downloads
// from cursor.com) and needs a Cursor login.
import { describe, expect, it } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import type { ExecutionStreamEvent } from '../execution/types.js';
import { abortAt, useFakeCli } from './__fixtures__/fake-cli-rig.js';
import { executionRequest, isAlive, turnInput } from './__fixtures__/test-helpers.js';
import { backendContinuationFrom } from './backend-continuation.js';
import { createLocalBackendAdapter } from './create-local-backend-adapter.js';
import { createCursorAdapter, CursorExecutionAdapter, type CursorAdapterOptions } from './cursor-adapter.js';

const cli = useFakeCli({
  executable: 'cursor-agent',
  script: 'fake-cursor.mjs',
  create: ({ command, env }, options: CursorAdapterOptions = {}) =>
    new CursorExecutionAdapter({ command, env: env({ CURSOR_API_KEY: 'cursor-key-123456' }), killGraceMs: 200, ...options }),
});
const adapter = cli.adapter;

describe('CursorExecutionAdapter', () => {
  it('runs `cursor-agent -p --output-format stream-json --trust` (never --force) with the prompt after `--`, in a private HOME', async () => {
    const result = await adapter({ model: 'gpt-5' }).execute(executionRequest('-hello'));
    const [call] = cli.calls();
    expect(call!.argv).toEqual(['-p', '--output-format', 'stream-json', '--trust', '--model', 'gpt-5', '--', '# Instructions\n\nBe brief.\n\n# Message\n\n-hello']);
    expect(call!.env['HOME']).not.toBe(process.env['HOME']);
    expect(result).toMatchObject({
      backendId: 'cursor',
      status: 'completed',
      output: { text: 'PONG from fake cursor (message 1)' },
      usage: { inputTokens: 14948, outputTokens: 103 },
      continuation: { kind: 'cursor.session', continuationId: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    });
  });

  it('resumes with --resume <session_id> in a new turn', async () => {
    const harness = createHarness({ backend: adapter() });
    const first = await harness.runTurn(turnInput('first'));
    const id = backendContinuationFrom(first)!.continuationId!;
    const second = await harness.runTurn(turnInput('second', { turnId: 't2', metadata: { backendContinuation: backendContinuationFrom(first) } }));
    expect(second.assistantMessage?.text).toBe('PONG from fake cursor (message 2)');
    const resumed = cli.calls()[1]!;
    expect(resumed.argv.slice(4, 6)).toEqual(['--resume', id]);
    expect(resumed.argv.at(-1)).toBe('second');
  });

  it('keeps the safe posture: a shell call comes back rejected and is reported so; force: true is the opt-in', async () => {
    const events: ExecutionStreamEvent[] = [];
    const safe = await adapter().execute(executionRequest('FAKE_TOOL'), { onEvent: (event) => events.push(event) });
    expect(safe).toMatchObject({ status: 'completed', output: { text: 'The shell command was rejected.' }, metadata: { toolCallCount: 1, rejectedToolCalls: 1 } });
    expect(events.filter((event) => event.type === 'tool_activity')).toEqual([
      { type: 'tool_activity', phase: 'started', toolCallId: 'call-shell-1', name: 'shell', kind: 'command', command: 'echo TOOL_OK' },
      { type: 'tool_activity', phase: 'finished', toolCallId: 'call-shell-1', name: 'shell', kind: 'command', command: 'echo TOOL_OK', status: 'rejected' },
    ]);
    const forced = await adapter({ force: true }).execute(executionRequest('FAKE_TOOL'));
    expect(cli.calls()[1]!.argv).toContain('--force');
    expect(forced.output?.text).toBe('DONE after tool: TOOL_OK');
  });

  it('streams text deltas with --stream-partial-output, each chunk once (not the repeated or cumulative forms)', async () => {
    const events: ExecutionStreamEvent[] = [];
    const result = await adapter().execute(executionRequest('hello'), { onEvent: (event) => events.push(event) });
    expect(cli.calls()[0]!.argv).toContain('--stream-partial-output');
    const deltas = events.flatMap((event) => (event.type === 'text_delta' ? [event.text] : []));
    expect(deltas).toHaveLength(2);
    expect(deltas.join('')).toBe('PONG from fake cursor (message 1)');
    expect(result.output?.text).toBe('PONG from fake cursor (message 1)');
  });

  it('maps an error result to failed, and a missing login to a failure that carries the CLI sentence', async () => {
    const bad = await adapter().execute(executionRequest('FAKE_HTTP_400'));
    expect(bad).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: false } });
    expect(bad.error?.message).toBe('Cursor CLI failed: API Error: 400 fake injected HTTP 400');
    const noLogin = await adapter({ env: cli.env() }).execute(executionRequest('hello'));
    expect(noLogin.status).toBe('failed');
    expect(noLogin.error?.message).toMatch(/Cursor CLI exited with code 1: .*CURSOR_API_KEY/);
  });

  it('cancels a streaming run and leaves no process behind (the tool child ignores SIGTERM)', async () => {
    const result = await adapter({ env: cli.env({ CURSOR_API_KEY: 'k-123456', PID_FILE: cli.pidFile }) }).execute(executionRequest('FAKE_HANG'), abortAt('text_delta'));
    expect(result).toMatchObject({ status: 'failed', metadata: { cancelled: true } });
    const pids = cli.hangPids();
    expect(pids).toHaveLength(2);
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it('refuses a hostile continuation id; nothing starts', async () => {
    const result = await adapter().execute(executionRequest('x', { continuation: { kind: 'cursor.session', continuationId: '../x', state: {} } }));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: false } });
    expect(cli.calls()).toEqual([]);
  });

  it('has a factory, a createLocalBackendAdapter id, honest capabilities, and checks its options', () => {
    expect(createCursorAdapter().backendId).toBe('cursor');
    expect(createLocalBackendAdapter('cursor')).toBeInstanceOf(CursorExecutionAdapter);
    expect(createCursorAdapter().describeCapabilities()).toMatchObject({ approvalInterrupts: 'none', streaming: true, steer: false, customProvider: false });
    expect(() => new CursorExecutionAdapter({ force: 'yes' as unknown as boolean })).toThrow(/force/);
    expect(() => new CursorExecutionAdapter(null as unknown as CursorAdapterOptions)).toThrow(expect.objectContaining({ code: 'HARNESS_ERR_INVALID_CONFIG' }));
  });
});
