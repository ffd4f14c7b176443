// ClaudeCodeSessionAdapter against a fixture process that speaks Claude Code's stream-json session
// protocol (__fixtures__/fake-claude-session.mjs), alone and under createHarness.
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { HarnessStreamEvent } from '../../core/types/runtime.js';
import type { ExecutionStreamEvent } from '../../execution/types.js';
import { cleanupTempDirs, executionRequest, isAlive, killQuietly, readPids, tempDir, turnInput } from '../../local/__fixtures__/test-helpers.js';
import { backendContinuationFrom } from '../../local/backend-continuation.js';
import {
  CLAUDE_CODE_SESSION_KIND,
  ClaudeCodeSessionAdapter,
  createClaudeCodeSessionAdapter,
} from './claude-code-session-execution-adapter.js';
import type { ClaudeCodeSessionAdapterOptions } from './claude-code-session-options.js';

const FIXTURE = fileURLToPath(new URL('./__fixtures__/fake-claude-session.mjs', import.meta.url));

let home: string;
let pidFile: string;
let claude: string;
const adapters: ClaudeCodeSessionAdapter[] = [];

beforeEach(() => {
  home = tempDir('claude-session-');
  pidFile = join(home, 'pids');
  claude = join(home, 'claude');
  writeFileSync(claude, `#!/bin/sh\nexec '${process.execPath}' '${FIXTURE}' "$@"\n`);
  chmodSync(claude, 0o755);
});
afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.dispose()));
  killQuietly(readPids(pidFile));
  cleanupTempDirs();
});

const adapter = (options: ClaudeCodeSessionAdapterOptions = {}) => {
  const created = createClaudeCodeSessionAdapter({ command: claude, cwd: home, env: { HOME: home, FAKE_PID_FILE: pidFile }, inheritEnv: ['PATH'], killGraceMs: 500, ...options });
  adapters.push(created);
  return created;
};
const collect = () => {
  const events: ExecutionStreamEvent[] = [];
  return { events, onEvent: (event: ExecutionStreamEvent) => events.push(event) };
};
const deltas = (events: ExecutionStreamEvent[]) => events.flatMap((event) => (event.type === 'text_delta' ? [event.text] : [])).join('');

describe('ClaudeCodeSessionAdapter — turns in a live process', () => {
  it('streams a turn: text deltas as they come, the whole text, usage, and the session continuation', async () => {
    const { events, onEvent } = collect();
    const result = await adapter().execute(executionRequest('hi'), { onEvent });
    expect(result).toMatchObject({ status: 'completed', output: { text: 'Hello from the fixture' }, usage: { inputTokens: 12, outputTokens: 5 } });
    expect(deltas(events)).toBe('Hello from the fixture');
    expect(events.filter((event) => event.type === 'text_delta').length).toBeGreaterThan(1);
    expect(result.continuation).toMatchObject({ kind: CLAUDE_CODE_SESSION_KIND, continuationId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(result.usage?.costUnits).toBeCloseTo(0.0001, 9);
  });

  it('starts claude with stream-json in and out, stdio permission prompts, partial messages and a chosen session id', async () => {
    const result = await adapter({ model: 'sonnet', allowedTools: ['Read'], extraArgs: ['--bare'] }).execute(executionRequest('ARGS'));
    const argv = JSON.parse(result.output!.text!) as string[];
    expect(argv.slice(0, 11)).toEqual([
      '-p',
      '--input-format',
      'stream-json',
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-prompt-tool',
      'stdio',
      '--include-partial-messages',
      '--permission-mode=default',
      `--session-id=${result.continuation!.continuationId!}`,
    ]);
    expect(argv.slice(11)).toEqual(['--model=sonnet', '--append-system-prompt=Be brief.', '--allowedTools=Read', '--bare']);
  });

  it('reuses one live process for two turns of a session (createHarness, continuation in metadata)', async () => {
    const harness = createHarness({ backend: adapter() });
    const first = await harness.runTurn(turnInput('WHOAMI'));
    const continuation = backendContinuationFrom(first);
    const second = await harness.runTurn(turnInput('WHOAMI again', { turnId: 'turn-2', metadata: { backendContinuation: continuation } }));
    const pid = /pid=(\d+) turn=1/.exec(first.assistantMessage!.text)![1];
    expect(second.assistantMessage?.text).toMatch(new RegExp(`^pid=${pid} turn=2 session=${continuation!.continuationId!} resumed=none$`));
    expect(second.metadata?.backendMetadata).toMatchObject({ engine: { reused: true } });
    expect(readPids(pidFile)).toHaveLength(1);
  });

  it('reports TodoWrite as a plan and tool calls as activity', async () => {
    const { events, onEvent } = collect();
    await adapter().execute(executionRequest('TODO'), { onEvent });
    expect(events).toContainEqual({ type: 'plan_update', entries: [{ content: 'Read the code', status: 'completed' }, { content: 'Write the fix', status: 'in_progress' }] });
    expect(events).toContainEqual({ type: 'tool_activity', phase: 'finished', toolCallId: 'toolu_todo', name: 'TodoWrite', kind: 'other', status: 'succeeded' });
  });

  it('skips lines that are not JSON and unknown message types, and counts them', async () => {
    const result = await adapter().execute(executionRequest('GARBAGE'));
    expect(result).toMatchObject({ status: 'completed', output: { text: 'Hello from the fixture' }, metadata: { invalidLines: 1 } });
  });

  it('maps an API error result to failed, not retryable', async () => {
    const result = await adapter().execute(executionRequest('FAIL400'));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: false } });
    expect(result.error?.message).toMatch(/400/);
  });
});

describe('ClaudeCodeSessionAdapter — native approvals', () => {
  it('pauses on can_use_tool; approving in the live process runs the command and finishes the turn', async () => {
    const marker = join(home, 'MARKER');
    const harness = createHarness({ backend: adapter() });
    const paused = await harness.runTurn(turnInput(`ASK[${marker}]`));
    expect(paused).toMatchObject({ outcome: 'awaiting_approval', stopReason: 'approval_required' });
    const [request] = paused.metadata!.approvalRequests as { id: string; summary: string; metadata: Record<string, unknown> }[];
    expect(request!.summary).toBe(`Claude Code asks to use Bash: touch ${marker}`);
    expect(request!.metadata).toMatchObject({ toolName: 'Bash', command: `touch ${marker}`, kind: 'command', input: { command: `touch ${marker}` } });
    expect(existsSync(marker)).toBe(false);

    const resumed = await harness.resumeTurn(paused.continuation!, { type: 'approval', decisions: { [request!.id]: 'approved' } });
    expect(resumed).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'DONE after tool' } });
    expect(existsSync(marker)).toBe(true);
    expect(readPids(pidFile)).toHaveLength(1);
  });

  it('reports the request and the tool activity as events', async () => {
    const marker = join(home, 'MARKER');
    const backend = adapter();
    const { events, onEvent } = collect();
    const paused = await backend.execute(executionRequest(`ASK[${marker}]`), { onEvent });
    expect(paused.status).toBe('awaiting_approval');
    const key = paused.approvalRequest!.approvalKey!;
    expect(events).toContainEqual(expect.objectContaining({ type: 'tool_activity', phase: 'started', name: 'Bash', kind: 'command', command: `touch ${marker}` }));
    expect(events.at(-1)).toMatchObject({
      type: 'approval_requested',
      approvalKey: key,
      title: `touch ${marker}`,
      kind: 'command',
      options: [{ kind: 'allow_once' }, { kind: 'allow_always' }, { kind: 'reject_once' }],
    });
    const later = collect();
    const done = await backend.execute(
      { ...executionRequest(`ASK[${marker}]`), continuation: paused.continuation, resume: { type: 'approval', decisions: { [key]: 'approved' } } },
      { onEvent: later.onEvent },
    );
    expect(done).toMatchObject({ status: 'completed', output: { text: 'DONE after tool' }, metadata: { approvalDecision: 'approved' } });
    expect(later.events).toContainEqual(expect.objectContaining({ type: 'tool_activity', phase: 'finished', name: 'Bash', status: 'succeeded' }));
    expect(deltas(later.events)).toBe('DONE after tool');
  });

  it("lets the host's rules answer can_use_tool in the live process (onPermissionRequest); ask pauses as before", async () => {
    const backend = adapter();
    const marker = join(home, 'MARKER');
    const seen: unknown[] = [];
    const approved = await backend.execute(executionRequest(`ASK[${marker}]`), {
      onPermissionRequest: (asked) => {
        seen.push(asked);
        return 'approve';
      },
    });
    expect(approved).toMatchObject({ status: 'completed', output: { text: 'DONE after tool' } });
    expect(approved.trace?.events).toContainEqual(expect.objectContaining({ type: 'note', data: { message: `Permission granted by the host's rules: touch ${marker}` } }));
    expect(seen).toEqual([{ title: `touch ${marker}`, toolName: 'Bash', kind: 'command', command: `touch ${marker}` }]);
    expect(existsSync(marker)).toBe(true);

    const other = join(home, 'OTHER');
    const refused = await backend.execute(executionRequest(`ASK[${other}]`), { onPermissionRequest: () => 'reject' });
    expect(refused).toMatchObject({ status: 'completed', output: { text: 'DONE without tool' } });
    expect(existsSync(other)).toBe(false);
    const asked = await backend.execute(executionRequest(`ASK[${other}]`), { onPermissionRequest: () => 'ask' });
    expect(asked.status).toBe('awaiting_approval');
    expect(backend.describeCapabilities().agentProject).toEqual({ instructions: true, permissionRules: true });
  });

  it('a rejection never runs the command; the model is told and the turn completes', async () => {
    const marker = join(home, 'MARKER');
    const harness = createHarness({ backend: adapter({ rejectionMessage: 'Not on this machine.' }) });
    const paused = await harness.runTurn(turnInput(`ASK[${marker}]`));
    const [request] = paused.metadata!.approvalRequests as { id: string }[];
    const resumed = await harness.resumeTurn(paused.continuation!, { type: 'approval', decisions: { [request!.id]: 'rejected' } });
    expect(resumed).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'DONE without tool' } });
    expect(resumed.metadata?.backendMetadata).toMatchObject({ permissionDenials: 1, approvalDecision: 'rejected' });
    expect(existsSync(marker)).toBe(false);
    expect(resumed.metadata?.backendMetadata).toMatchObject({ engine: { reused: true } });
  });

  it('streamTurn streams the live events up to the approval request; the rejected tool is reported as rejected', async () => {
    const marker = join(home, 'MARKER');
    const backend = adapter();
    const harness = createHarness({ backend });
    const stream = harness.streamTurn(turnInput(`ASK[${marker}]`));
    const events: HarnessStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const paused = await stream.result;
    expect(events.filter((event) => event.type === 'text_delta').map((event) => (event as { text: string }).text).join('')).toBe('Running it. ');
    expect(events).toContainEqual(expect.objectContaining({ type: 'approval_requested', approvalKey: (paused.metadata!.approvalRequests as { id: string }[])[0]!.id, command: `touch ${marker}` }));
    // The same paused request answered straight on the adapter, with its events.
    const [request] = paused.metadata!.approvalRequests as { id: string }[];
    const later = collect();
    const done = await backend.execute(
      { ...executionRequest('x'), continuation: backendContinuationFrom(paused), resume: { type: 'approval', decisions: { [request!.id]: 'rejected' } } },
      { onEvent: later.onEvent },
    );
    expect(done.output?.text).toBe('DONE without tool');
    expect(later.events).toContainEqual(expect.objectContaining({ type: 'tool_activity', phase: 'finished', name: 'Bash', status: 'rejected' }));
  });

  it("approvalScope 'session' answers with Claude's own permission suggestions", async () => {
    const marker = join(home, 'MARKER');
    const harness = createHarness({ backend: adapter({ approvalScope: 'session' }) });
    const paused = await harness.runTurn(turnInput(`ASK[${marker}]`));
    const [request] = paused.metadata!.approvalRequests as { id: string }[];
    const resumed = await harness.resumeTurn(paused.continuation!, { type: 'approval', decisions: { [request!.id]: 'approved' } });
    expect(resumed.assistantMessage?.text).toBe('DONE after tool always');
  });

  it('an approval whose live process is gone ends continuation_invalid, and nothing runs', async () => {
    const marker = join(home, 'MARKER');
    const first = adapter();
    const paused = await createHarness({ backend: first }).runTurn(turnInput(`ASK[${marker}]`));
    const [request] = paused.metadata!.approvalRequests as { id: string }[];
    // Another process (a fresh adapter) gets the continuation.
    const resumed = await createHarness({ backend: adapter() }).resumeTurn(paused.continuation!, { type: 'approval', decisions: { [request!.id]: 'approved' } });
    expect(resumed).toMatchObject({ outcome: 'failed', stopReason: 'continuation_invalid' });
    expect(resumed.metadata?.error).toMatchObject({ code: 'other', retryable: false, source: 'backend:claude-code-session' });
    expect(JSON.stringify(resumed.metadata)).toContain('continuation_invalid');
    expect(existsSync(marker)).toBe(false);
    // The same after the original process was stopped.
    await first.dispose();
    const again = await first.execute({ ...executionRequest('x'), continuation: backendContinuationFrom(paused), resume: { type: 'approval', decisions: { [request!.id]: 'approved' } } });
    expect(again).toMatchObject({ status: 'failed', error: { metadata: { reason: 'continuation_invalid' } } });
  });

  it('refuses a new turn while the session waits for an approval', async () => {
    const backend = adapter();
    const paused = await backend.execute(executionRequest(`ASK[${join(home, 'MARKER')}]`));
    const next = await backend.execute({ ...executionRequest('hello'), continuation: paused.continuation });
    expect(next).toMatchObject({ status: 'failed', error: { metadata: { reason: 'approval_pending' } } });
  });
});

describe('ClaudeCodeSessionAdapter — cancel, timeout, crash, dispose', () => {
  it('cancel mid-turn interrupts Claude; the live process serves the next turn', async () => {
    const backend = adapter();
    const controller = new AbortController();
    const { events, onEvent } = collect();
    const running = backend.execute(executionRequest('HANG'), {
      signal: controller.signal,
      onEvent,
      onContinuation: () => queueMicrotask(() => controller.abort()),
    });
    const result = await running;
    expect(result).toMatchObject({ status: 'failed', error: { metadata: { reason: 'cancelled' } } });
    expect(events).toEqual([]);
    const next = await backend.execute({ ...executionRequest('WHOAMI'), continuation: result.continuation });
    expect(next.output?.text).toMatch(/turn=2 /);
    expect(readPids(pidFile)).toHaveLength(1);
  });

  it('a turn past timeoutMs is interrupted and reported as a retryable timeout', async () => {
    const result = await adapter({ timeoutMs: 300 }).execute(executionRequest('HANG'));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'timeout', retryable: true } });
  });

  it('a crash mid-turn fails the turn with stderr; the next turn resumes the session in a new process (--resume)', async () => {
    const backend = adapter();
    const crashed = await backend.execute(executionRequest('CRASH'));
    expect(crashed).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: true } });
    expect(crashed.error?.message).toMatch(/exited mid-turn \(code 3\).*fake-claude-session: started/s);
    const sessionId = crashed.continuation!.continuationId!;
    const next = await backend.execute({ ...executionRequest('WHOAMI'), continuation: crashed.continuation });
    expect(next.output?.text).toMatch(new RegExp(`turn=1 session=${sessionId} resumed=${sessionId}$`));
    expect(next.metadata).toMatchObject({ engine: { reused: false, resumedWithFlag: true } });
    expect(readPids(pidFile)).toHaveLength(2);
  });

  it('dispose() leaves no process behind', async () => {
    const backend = adapter();
    await backend.execute(executionRequest('hi'));
    await backend.execute(executionRequest('hi'));
    const pids = readPids(pidFile);
    expect(pids).toHaveLength(2);
    expect(pids.every(isAlive)).toBe(true);
    await backend.dispose();
    expect(pids.some(isAlive)).toBe(false);
    expect(await backend.execute(executionRequest('hi'))).toMatchObject({ status: 'failed' });
  });

  it('a missing binary fails the turn, not the caller', async () => {
    const result = await adapter({ command: join(home, 'no-such-claude') }).execute(executionRequest('hi'));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: false } });
    expect(result.error?.message).toMatch(/could not start/);
  });
});

describe('ClaudeCodeSessionAdapter — boundaries', () => {
  it('declares streaming and native approvals, no steering', () => {
    expect(adapter().describeCapabilities()).toMatchObject({ approvalInterrupts: 'native', streaming: true, steer: false, continuationSupport: 'opaque-resume' });
  });

  it('rejects invalid options with HarnessConfigError naming the field', () => {
    expect(() => new ClaudeCodeSessionAdapter({ permissionMode: 'bypassPermissions' as never })).toThrow(HarnessConfigError);
    expect(() => new ClaudeCodeSessionAdapter({ model: '--dangerously-skip-permissions' })).toThrow(/model/);
    expect(() => new ClaudeCodeSessionAdapter({ timeoutMs: 0 })).toThrow(HarnessConfigError);
    expect(() => new ClaudeCodeSessionAdapter({ unknown: true } as never)).toThrow(HarnessConfigError);
  });

  it('refuses a continuation of another backend or with a flag-like session id, without starting anything', async () => {
    const backend = adapter();
    const other = await backend.execute({ ...executionRequest('hi'), continuation: { kind: 'codex.session', continuationId: 'abc' } });
    expect(other).toMatchObject({ status: 'failed', error: { code: 'invalid_request' } });
    const flag = await backend.execute({ ...executionRequest('hi'), continuation: { continuationId: '--dangerously-skip-permissions' } });
    expect(flag).toMatchObject({ status: 'failed', error: { code: 'invalid_request' } });
    const proto = await backend.execute({ ...executionRequest('hi'), continuation: { continuationId: 'x', state: { pendingRequestId: '__proto__' } }, resume: { type: 'approval', decisions: {} } });
    expect(proto).toMatchObject({ status: 'failed', error: { metadata: { reason: 'continuation_invalid' } } });
    expect(readPids(pidFile)).toEqual([]);
  });

  it('a listener that throws does not break the turn', async () => {
    const result = await adapter().execute(executionRequest('hi'), {
      onEvent: () => {
        throw new Error('listener broke');
      },
    });
    expect(result.status).toBe('completed');
  });
});
