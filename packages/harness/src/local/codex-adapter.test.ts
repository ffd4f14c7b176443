// CodexExecutionAdapter against a fake `codex` that reproduces `codex exec --json` (see
// __fixtures__/fake-codex.mjs), alone and under createHarness.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import { cleanupTempDirs, executionRequest, fixtureExecutable, loggedCalls, tempDir, turnInput } from './__fixtures__/test-helpers.js';
import { backendContinuationFrom } from './backend-continuation.js';
import { CodexExecutionAdapter, createCodexAdapter, type CodexAdapterOptions } from './codex-adapter.js';

let home: string;
let log: string;
let codex: string;

beforeEach(() => {
  home = tempDir('codex-home-');
  log = join(home, 'calls.jsonl');
  codex = fixtureExecutable(home, 'codex', 'fake-codex.mjs');
});
afterEach(cleanupTempDirs);

const adapter = (options: CodexAdapterOptions = {}) =>
  new CodexExecutionAdapter({ command: codex, env: { HOME: home, FAKE_CLI_LOG: log }, killGraceMs: 200, ...options });

describe('CodexExecutionAdapter', () => {
  it('runs `codex exec --json --skip-git-repo-check -` with the prompt and instructions on stdin', async () => {
    const result = await adapter({ model: 'gpt-5.5', sandbox: 'read-only', config: { model_provider: 'fake', 'features.plugins': false, retries: 2 } }).execute(
      executionRequest('-hello'),
    );
    const [call] = loggedCalls(log);
    expect(call!.argv).toEqual([
      'exec', '--json', '--skip-git-repo-check', '--model=gpt-5.5', '--sandbox=read-only',
      '-c', 'model_provider="fake"', '-c', 'features.plugins=false', '-c', 'retries=2', '-',
    ]);
    expect(call!.stdin).toBe('# Instructions\n\nBe brief.\n\n# Message\n\n-hello');
    expect(result).toMatchObject({
      backendId: 'codex',
      status: 'completed',
      output: { text: 'PONG from fake (message 1)' },
      usage: { inputTokens: 24, outputTokens: 12 },
      continuation: { kind: 'codex.session', continuationId: expect.any(String), state: { inputTokens: 24, outputTokens: 12 } },
      metadata: { toolCallCount: 1 },
    });
  });

  it('resumes the thread with `exec … resume <id> -`, reporting this run’s tokens, not the thread’s total', async () => {
    const harness = createHarness({ backend: adapter() });
    const first = await harness.runTurn(turnInput('first'));
    const continuation = backendContinuationFrom(first);
    const second = await harness.runTurn(turnInput('second', { turnId: 'turn-2', metadata: { backendContinuation: continuation } }));
    expect(second).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake (message 2)' } });
    expect(second.usage).toMatchObject({ totalInputTokens: 24, totalOutputTokens: 12 });
    const calls = loggedCalls(log);
    expect(calls[1]!.argv.slice(-3)).toEqual(['resume', continuation!.continuationId, '-']);
    expect(calls[1]!.stdin).toBe('second');
  });

  it('maps turn.failed with an HTTP 400 to a non-retryable failure, and to failed through the harness', async () => {
    const result = await adapter().execute(executionRequest('FAKE_HTTP_400'));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: false, metadata: { status: 400 } } });
    expect(result.error?.message).toBe('Codex failed: fake injected HTTP 400');
    const turn = await createHarness({ backend: adapter() }).runTurn(turnInput('FAKE_HTTP_503'));
    expect(turn).toMatchObject({ outcome: 'failed', metadata: { error: { retryable: true } } });
  });

  it('ends a hanging run at the harness deadline (deferred) and at its own timeoutMs (failed / timeout)', async () => {
    const timedOut = await createHarness({ backend: adapter(), limits: { maxElapsedMs: 400 } }).runTurn(turnInput('FAKE_HANG'));
    expect(timedOut).toMatchObject({ outcome: 'deferred', stopReason: 'timeout_reached' });
    const own = await adapter({ timeoutMs: 300 }).execute(executionRequest('FAKE_HANG'));
    expect(own).toMatchObject({ status: 'failed', error: { code: 'timeout' } });
  });

  it('can run inside a Git repository check (skipGitRepoCheck: false) and has a factory', async () => {
    await adapter({ skipGitRepoCheck: false }).execute(executionRequest('hi'));
    expect(loggedCalls(log)[0]!.argv).toEqual(['exec', '--json', '-']);
    expect(createCodexAdapter().backendId).toBe('codex');
  });

  it.each([
    ['sandbox', { sandbox: 'everything' }],
    ['config.bad key', { config: { 'bad key': 1 } }],
    ['config.x', { config: { x: { nested: true } } }],
    ['model', { model: '' }],
  ])('rejects a bad %s', (field, options) => {
    try {
      new CodexExecutionAdapter(options as unknown as CodexAdapterOptions);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(HarnessConfigError);
      expect((error as HarnessConfigError).field).toBe(field);
    }
  });
});
