// OpenCodeExecutionAdapter against a fake `opencode` reproducing `opencode run --format json`
// (see __fixtures__/fake-opencode.mjs).
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import { cleanupTempDirs, executionRequest, fixtureExecutable, loggedCalls, tempDir, turnInput } from './__fixtures__/test-helpers.js';
import { backendContinuationFrom } from './backend-continuation.js';
import { createOpenCodeAdapter, OpenCodeExecutionAdapter, type OpenCodeAdapterOptions } from './opencode-adapter.js';

let home: string;
let log: string;
let opencode: string;

beforeEach(() => {
  home = tempDir('opencode-home-');
  log = join(home, 'calls.jsonl');
  opencode = fixtureExecutable(home, 'opencode', 'fake-opencode.mjs');
});
afterEach(cleanupTempDirs);

const adapter = (options: OpenCodeAdapterOptions = {}) =>
  new OpenCodeExecutionAdapter({ command: opencode, env: { HOME: home, FAKE_CLI_LOG: log }, killGraceMs: 200, ...options });

describe('OpenCodeExecutionAdapter', () => {
  it('runs `opencode run --format json` with the prompt on stdin and reads the last step’s text', async () => {
    const result = await adapter({ model: 'fake/fake-model', agent: 'build' }).execute(executionRequest('hello'));
    const [call] = loggedCalls(log);
    expect(call!.argv).toEqual(['run', '--format', 'json', '--model=fake/fake-model', '--agent=build']);
    expect(call!.stdin).toBe('# Instructions\n\nBe brief.\n\n# Message\n\nhello');
    expect(result).toMatchObject({
      backendId: 'opencode',
      status: 'completed',
      output: { text: 'PONG from fake (message 1)' },
      usage: { inputTokens: 27, outputTokens: 12, costUnits: 0.003 },
      continuation: { kind: 'opencode.session', continuationId: expect.stringMatching(/^ses_/) },
      metadata: { toolCallCount: 1 },
    });
  });

  it('resumes with --session in a new turn', async () => {
    const harness = createHarness({ backend: adapter() });
    const first = await harness.runTurn(turnInput('first'));
    const id = backendContinuationFrom(first)!.continuationId!;
    const second = await harness.runTurn(turnInput('second', { turnId: 't2', metadata: { backendContinuation: backendContinuationFrom(first) } }));
    expect(second.assistantMessage?.text).toBe('PONG from fake (message 2)');
    expect(loggedCalls(log)[1]!.argv).toContain(`--session=${id}`);
    expect(loggedCalls(log)[1]!.stdin).toBe('second');
  });

  it('maps an error event to failed, trusting its isRetryable', async () => {
    const bad = await adapter().execute(executionRequest('FAKE_HTTP_400'));
    expect(bad).toMatchObject({ status: 'failed', error: { retryable: false, metadata: { name: 'APIError', status: 400 } } });
    expect(bad.error?.message).toBe('opencode failed: fake injected HTTP 400');
    expect((await adapter().execute(executionRequest('FAKE_HTTP_500'))).error?.retryable).toBe(true);
  });

  it('ends a hanging run at the harness deadline as deferred', async () => {
    const result = await createHarness({ backend: adapter(), limits: { maxElapsedMs: 400 } }).runTurn(turnInput('FAKE_HANG'));
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'timeout_reached' });
  });

  it('has a factory and checks its options', () => {
    expect(createOpenCodeAdapter().backendId).toBe('opencode');
    expect(() => new OpenCodeExecutionAdapter({ agent: '--evil' })).toThrow(/agent/);
  });
});
