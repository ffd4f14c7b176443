// GeminiCliExecutionAdapter against a fake `gemini` reproducing its JSON output, its stderr error
// report and its exit codes (see __fixtures__/fake-gemini.mjs).
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import { cleanupTempDirs, executionRequest, fixtureExecutable, loggedCalls, tempDir, turnInput } from './__fixtures__/test-helpers.js';
import { backendContinuationFrom } from './backend-continuation.js';
import { createGeminiCliAdapter, GeminiCliExecutionAdapter, type GeminiCliAdapterOptions } from './gemini-cli-adapter.js';

let home: string;
let log: string;
let gemini: string;

beforeEach(() => {
  home = tempDir('gemini-home-');
  log = join(home, 'calls.jsonl');
  gemini = fixtureExecutable(home, 'gemini', 'fake-gemini.mjs');
});
afterEach(cleanupTempDirs);

const adapter = (options: GeminiCliAdapterOptions = {}) =>
  new GeminiCliExecutionAdapter({ command: gemini, env: { HOME: home, FAKE_CLI_LOG: log }, killGraceMs: 200, ...options });

describe('GeminiCliExecutionAdapter', () => {
  it('runs `gemini --output-format json` with a chosen session id and the prompt on stdin', async () => {
    const result = await adapter({ model: 'gemini-2.5-flash', approvalMode: 'yolo', trustWorkspace: true }).execute(executionRequest('hello'));
    const [call] = loggedCalls(log);
    const session = call!.argv.find((arg) => arg.startsWith('--session-id='))!;
    expect(call!.argv).toEqual(['--output-format', 'json', session, '--model=gemini-2.5-flash', '--approval-mode=yolo', '--skip-trust']);
    expect(call!.stdin).toBe('# Instructions\n\nBe brief.\n\n# Message\n\nhello');
    expect(result).toMatchObject({
      backendId: 'gemini-cli',
      status: 'completed',
      output: { text: 'PONG from fake (message 1)' },
      usage: { inputTokens: 12, outputTokens: 6 },
      continuation: { kind: 'gemini-cli.session', continuationId: session.slice('--session-id='.length) },
    });
  });

  it('starts Gemini in `--approval-mode=default` unless told otherwise (headless: no shell tool)', async () => {
    await adapter().execute(executionRequest('hello'));
    expect(loggedCalls(log)[0]!.argv).toContain('--approval-mode=default');
    expect(loggedCalls(log)[0]!.argv.filter((arg) => arg.startsWith('--approval-mode'))).toHaveLength(1);
    expect(adapter().describeCapabilities().notes?.join(' ')).toContain('--approval-mode=default');
  });

  it('resumes the session with --resume in a new turn', async () => {
    const harness = createHarness({ backend: adapter() });
    const first = await harness.runTurn(turnInput('first'));
    const second = await harness.runTurn(turnInput('second', { turnId: 't2', metadata: { backendContinuation: backendContinuationFrom(first) } }));
    expect(second.assistantMessage?.text).toBe('PONG from fake (message 2)');
    expect(loggedCalls(log)[1]!.argv).toContain(`--resume=${backendContinuationFrom(first)!.continuationId}`);
  });

  it('reads the error report from stderr after an HTTP 400 (exit 144): failed, not retryable', async () => {
    const result = await adapter().execute(executionRequest('FAKE_HTTP_400'));
    expect(result).toMatchObject({
      status: 'failed',
      error: { code: 'backend_execution_error', retryable: false, metadata: { status: 400 } },
      metadata: { exitCode: 144 },
    });
    expect(result.error?.message).toBe('Gemini CLI failed: fake injected HTTP 400');
  });

  it('explains exit code 41 (auth) and 55 (untrusted folder) in actionable words', async () => {
    const auth = await adapter().execute(executionRequest('FAKE_AUTH'));
    expect(auth).toMatchObject({ status: 'failed', error: { retryable: false } });
    expect(auth.error?.message).toMatch(/GEMINI_API_KEY/);
    const untrusted = await adapter().execute(executionRequest('FAKE_UNTRUSTED'));
    expect(untrusted.error?.message).toMatch(/trustWorkspace: true/);
  });

  it('falls back to the exit code for other failures', async () => {
    const result = await adapter().execute(executionRequest('hi', { metadata: { backendContinuation: { continuationId: 'missing-session' } } }));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error' }, metadata: { exitCode: 42 } });
  });

  it('ends a hanging run at the harness deadline as deferred', async () => {
    const result = await createHarness({ backend: adapter(), limits: { maxElapsedMs: 400 } }).runTurn(turnInput('FAKE_HANG'));
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'timeout_reached' });
  });

  it('has a factory and checks its options', () => {
    expect(createGeminiCliAdapter().backendId).toBe('gemini-cli');
    expect(() => new GeminiCliExecutionAdapter({ approvalMode: 'always' as 'yolo' })).toThrow(/approvalMode/);
  });
});
