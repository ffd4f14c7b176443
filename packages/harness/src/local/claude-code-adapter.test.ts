// ClaudeCodeExecutionAdapter against a fake `claude` executable that reproduces the real CLI's
// flags and output shapes (see __fixtures__/fake-claude.mjs), alone and under createHarness.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import type { ExecutionRequest } from '../execution/types.js';
import {
  cleanupTempDirs,
  executionRequest,
  fixtureExecutable,
  loggedCalls,
  tempDir,
  turnInput,
} from './__fixtures__/test-helpers.js';
import { backendContinuationFrom } from './backend-continuation.js';
import { ClaudeCodeExecutionAdapter, createClaudeCodeAdapter, type ClaudeCodeAdapterOptions } from './claude-code-adapter.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let home: string;
let log: string;
let claude: string;

beforeEach(() => {
  home = tempDir('claude-home-');
  log = join(home, 'calls.jsonl');
  claude = fixtureExecutable(home, 'claude', 'fake-claude.mjs');
});
afterEach(cleanupTempDirs);

const adapter = (options: ClaudeCodeAdapterOptions = {}) =>
  new ClaudeCodeExecutionAdapter({ command: claude, env: { HOME: home, FAKE_CLI_LOG: log }, killGraceMs: 200, ...options });

describe('ClaudeCodeExecutionAdapter — invocation', () => {
  it('runs `claude -p --output-format json` with a chosen session id, instructions as a flag and the prompt on stdin', async () => {
    const request = executionRequest('-p is not a flag here', {
      instructions: { systemPrompt: 'Be brief.', developerPrompt: 'Answer in English.' },
      context: { blocks: [{ id: 'b1', label: 'Memory', content: 'The user likes tea.' }] },
    });
    const result = await adapter().execute(request);
    expect(result.status).toBe('completed');
    const [call] = loggedCalls(log);
    const sessionArg = call!.argv.find((arg) => arg.startsWith('--session-id='))!;
    expect(call!.argv).toEqual(['-p', '--output-format', 'json', sessionArg, '--append-system-prompt=Be brief.\n\nAnswer in English.']);
    expect(sessionArg.slice('--session-id='.length)).toMatch(UUID);
    expect(call!.stdin).toBe('# Context\n\n## Memory\n\nThe user likes tea.\n\n# Message\n\n-p is not a flag here');
    expect(result.continuation).toEqual({
      kind: 'claude-code.session',
      continuationId: sessionArg.slice('--session-id='.length),
      state: { totalCostUsd: 0.000148 },
    });
  });

  it('passes model, permission mode, tools, a replaced system prompt and extra args', async () => {
    await adapter({
      model: 'sonnet',
      permissionMode: 'acceptEdits',
      allowedTools: ['Read', 'Bash(git *)'],
      disallowedTools: ['WebFetch'],
      systemPromptMode: 'replace',
      extraArgs: ['--max-budget-usd', '1'],
    }).execute(executionRequest('hi'));
    const argv = loggedCalls(log)[0]!.argv;
    expect(argv.slice(4)).toEqual([
      '--model=sonnet',
      '--system-prompt=Be brief.',
      '--permission-mode=acceptEdits',
      '--allowedTools=Read,Bash(git *)',
      '--disallowedTools=WebFetch',
      '--max-budget-usd',
      '1',
    ]);
  });

  it('inherits ANTHROPIC_* and CLAUDE_* but no other secrets; `env` adds to them', async () => {
    process.env['ANTHROPIC_API_KEY'] = 'sk-from-parent';
    process.env['OPENAI_API_KEY'] = 'sk-not-for-claude';
    try {
      await adapter().execute(executionRequest('hi'));
      const env = loggedCalls(log)[0]!.env;
      expect(env['ANTHROPIC_API_KEY']).toBe('sk-from-parent');
      expect(env['OPENAI_API_KEY']).toBeUndefined();
      expect(env['HOME']).toBe(home);
      expect(loggedCalls(log)[0]!.argv.join(' ')).not.toContain('sk-from-parent');
    } finally {
      delete process.env['ANTHROPIC_API_KEY'];
      delete process.env['OPENAI_API_KEY'];
    }
  });

  it('has a factory', () => {
    expect(createClaudeCodeAdapter()).toBeInstanceOf(ClaudeCodeExecutionAdapter);
    expect(createClaudeCodeAdapter().backendId).toBe('claude-code');
  });

  it.each([
    ['model', { model: '--dangerous' }],
    ['allowedTools', { allowedTools: ['-x'] }],
    ['permissionMode', { permissionMode: 'yolo' }],
    ['systemPromptMode', { systemPromptMode: 'prepend' }],
    ['extraArgs', { extraArgs: 'oops' }],
    ['timeoutMs', { timeoutMs: -5 }],
  ])('rejects a bad %s', (field, options) => {
    try {
      new ClaudeCodeExecutionAdapter(options as unknown as ClaudeCodeAdapterOptions);
      expect.unreachable();
    } catch (error) {
      expect(HarnessConfigError.isInstance(error)).toBe(true);
      expect((error as HarnessConfigError).field).toBe(field);
    }
  });
});

describe('ClaudeCodeExecutionAdapter — results', () => {
  it('reports text, tokens (cache included) and cost', async () => {
    const result = await adapter().execute(executionRequest('hi'));
    expect(result).toMatchObject({
      backendId: 'claude-code',
      status: 'completed',
      output: { text: 'PONG from fake (message 1)' },
      usage: { inputTokens: 19, outputTokens: 5, costUnits: 0.000148 },
      metadata: { numTurns: 1, subtype: 'success', stopReason: 'end_turn', exitCode: 0 },
    });
  });

  it('reports is_error with an HTTP 400 as a non-retryable failure, not as completed', async () => {
    const result = await adapter().execute(executionRequest('please FAKE_HTTP_400'));
    expect(result).toMatchObject({
      status: 'failed',
      error: { code: 'backend_execution_error', retryable: false, metadata: { status: 400, type: 'invalid_request_error' } },
      metadata: { exitCode: 1, apiErrorStatus: 400 },
    });
    expect(result.error?.message).toBe('Claude Code failed: API Error: 400 fake injected HTTP 400');
    expect(result.output?.text).toBeUndefined();
  });

  it('reports an overloaded API (529) as retryable', async () => {
    expect((await adapter().execute(executionRequest('FAKE_HTTP_529'))).error?.retryable).toBe(true);
  });

  it('reports unreadable output as invalid_backend_output', async () => {
    const result = await adapter().execute(executionRequest('FAKE_GARBAGE'));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'invalid_backend_output' } });
  });

  it('warns that the request tools are not bridged, and refuses when tool use is required', () => {
    const tools = [{ name: 'lookup_weather', description: 'weather' }];
    const warned = adapter().negotiate(executionRequest('hi', { tools }));
    expect(warned).toMatchObject({ supported: true, degraded: true });
    expect(warned.reasons[0]?.message).toMatch(/lookup_weather/);
    const refused = adapter().negotiate(executionRequest('hi', { tools, requirements: { toolUse: 'required' } }));
    expect(refused.supported).toBe(false);
  });

  it('declares honest capabilities', () => {
    expect(adapter().describeCapabilities()).toMatchObject({
      toolUse: 'native-iterative',
      structuredToolCalls: false,
      continuationSupport: 'opaque-resume',
      approvalInterrupts: 'none',
      attachments: false,
    });
  });
});

describe('ClaudeCodeExecutionAdapter — sessions', () => {
  it('continues the session in a new turn via metadata.backendContinuation, reporting only this run’s cost', async () => {
    const harness = createHarness({ backend: adapter() });
    const first = await harness.runTurn(turnInput('first question'));
    const continuation = backendContinuationFrom(first);
    expect(continuation).toMatchObject({ kind: 'claude-code.session', continuationId: expect.stringMatching(UUID) });
    const second = await harness.runTurn(turnInput('second question', { turnId: 'turn-2', metadata: { backendContinuation: continuation } }));
    expect(second).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake (message 2)' } });
    expect(second.usage.totalCostUnits).toBeCloseTo(0.000148, 9);
    const calls = loggedCalls(log);
    expect(calls[1]!.argv).toContain(`--resume=${continuation!.continuationId}`);
    expect(calls[1]!.argv.some((arg) => arg.startsWith('--session-id'))).toBe(false);
    expect(calls[1]!.stdin).toBe('second question');
  });

  it('refuses a continuation that belongs to another backend, without running the CLI', async () => {
    const request: ExecutionRequest = executionRequest('hi', { metadata: { backendContinuation: { kind: 'codex.session', continuationId: 'x' } } });
    const result = await adapter().execute(request);
    expect(result).toMatchObject({ status: 'failed', error: { retryable: false } });
    expect(result.error?.message).toMatch(/codex.session, not a claude-code.session/);
    expect(loggedCalls(log)).toEqual([]);
  });

  it('maps --max-turns exhaustion to deferred / max_iterations_reached and resumes the same session', async () => {
    const harness = createHarness({ backend: adapter() });
    const paused = await harness.runTurn(turnInput('FAKE_MAX_TURNS please'));
    expect(paused).toMatchObject({ outcome: 'deferred', stopReason: 'max_iterations_reached' });
    const resumed = await harness.resumeTurn(paused.continuation!, { type: 'deferred' });
    expect(resumed).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake (message 2)' } });
    const calls = loggedCalls(log);
    const sessionId = calls[0]!.argv.find((arg) => arg.startsWith('--session-id='))!.slice('--session-id='.length);
    expect(calls[1]!.argv).toContain(`--resume=${sessionId}`);
    expect(calls[1]!.stdin).toBe('The previous attempt was interrupted before it finished. Please continue where you left off and answer my last message.');
  });

  it('reports its own timeout with the session chosen up front, so the deferred turn resumes that session', async () => {
    // Long enough for the fake CLI to start and record the session before it hangs.
    const harness = createHarness({ backend: adapter({ timeoutMs: 1_500 }) });
    const paused = await harness.runTurn(turnInput('FAKE_HANG then continue'));
    expect(paused).toMatchObject({ outcome: 'deferred', stopReason: 'timeout_reached' });
    const resumed = await harness.resumeTurn(paused.continuation!, { type: 'deferred' });
    expect(resumed.outcome).toBe('completed');
    const calls = loggedCalls(log);
    const sessionId = calls[0]!.argv.find((arg) => arg.startsWith('--session-id='))!.slice('--session-id='.length);
    expect(calls[1]!.argv).toContain(`--resume=${sessionId}`);
    expect(resumed.assistantMessage?.text).toBe('PONG from fake (message 2)');
  });

  it('ends a turn at the harness deadline as deferred / timeout_reached, keeping the session it started', async () => {
    const result = await createHarness({ backend: adapter(), limits: { maxElapsedMs: 400 } }).runTurn(turnInput('FAKE_HANG'));
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'timeout_reached' });
    const sessionId = loggedCalls(log)[0]!.argv.find((arg) => arg.startsWith('--session-id='))!.slice('--session-id='.length);
    expect(result.continuation?.state).toMatchObject({ mode: 'backend', backendContinuation: { continuationId: sessionId } });
  });

  it('ends an aborted turn as deferred / cancelled', async () => {
    const controller = new AbortController();
    const pending = createHarness({ backend: adapter() }).runTurn(turnInput('FAKE_HANG'), { signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ outcome: 'deferred', stopReason: 'cancelled' });
  });

  it('maps an HTTP 400 to failed through the harness', async () => {
    const result = await createHarness({ backend: adapter() }).runTurn(turnInput('FAKE_HTTP_400'));
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'runtime_error' });
    expect(result.metadata?.error).toMatchObject({ code: 'backend_execution_error', retryable: false });
  });
});

describe('ClaudeCodeExecutionAdapter — streaming', () => {
  it('streams text deltas with stream-json and partial messages, and still returns the result', async () => {
    const deltas: string[] = [];
    const request = executionRequest('hi');
    const result = await adapter({
      onTextDelta: (text, seen) => {
        expect(seen).toEqual(request); // the checked copy of the request, not the caller's object
        deltas.push(text);
      },
    }).execute(request);
    expect(deltas).toEqual(['PONG ', 'from ', 'fake (message 1)']);
    expect(result).toMatchObject({ status: 'completed', output: { text: 'PONG from fake (message 1)' } });
    expect(loggedCalls(log)[0]!.argv.slice(0, 5)).toEqual(['-p', '--output-format', 'stream-json', '--verbose', '--include-partial-messages']);
  });

  it('falls back to whole assistant messages when the CLI sends no partial deltas', async () => {
    const deltas: string[] = [];
    await adapter({ onTextDelta: (text) => deltas.push(text) }).execute(executionRequest('FAKE_NO_PARTIAL'));
    expect(deltas.join('')).toBe('PONG from fake (message 1)');
  });
});
