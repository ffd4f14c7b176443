// LocalCommand under createHarness: the harness maps its results onto outcomes, and its deadline
// and caller signal reach the process.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import type { ExecutionAdapter, ExecutionResult } from '../execution/types.js';
import {
  cleanupTempDirs,
  fixture,
  isAlive,
  killQuietly,
  PLAIN_CAPABILITIES,
  readPids,
  tempDir,
  turnInput,
} from './__fixtures__/test-helpers.js';
import { LocalCommandExecutionAdapter } from './local-command-adapter.js';
import { defineExecutionAdapter } from '../core/define-execution-adapter.js';

const misbehave = fixture('misbehave.mjs');
const leftovers: number[] = [];

afterEach(() => {
  killQuietly(leftovers.splice(0));
  cleanupTempDirs();
});

function adapterFor(mode: string, onReady?: () => void) {
  const pidFile = join(tempDir(), 'pids');
  const adapter = new LocalCommandExecutionAdapter({
    backendId: 'fixture',
    command: process.execPath,
    capabilities: PLAIN_CAPABILITIES,
    buildArgs: () => [misbehave, mode],
    stdin: (request) => request.message.text,
    parseOutput: (stdout) => {
      const parsed = JSON.parse(stdout) as { text?: string; stdin?: string };
      return parsed.stdin === undefined ? null : { text: `you said: ${parsed.stdin}`, usage: { inputTokens: 2, outputTokens: 3 } };
    },
    env: { PID_FILE: pidFile },
    killGraceMs: 200,
    ...(onReady === undefined ? {} : { onStdoutLine: (line: string) => line === 'ready' && onReady() }),
  });
  return { adapter, pids: () => readPids(pidFile) };
}

describe('createHarness({ backend: LocalCommandExecutionAdapter })', () => {
  it('completes a turn with the parsed answer and usage', async () => {
    const result = await createHarness({ backend: adapterFor('echo').adapter }).runTurn(turnInput('hello there'));
    expect(result).toMatchObject({
      outcome: 'completed',
      stopReason: 'answer_finalized',
      assistantMessage: { text: 'you said: hello there' },
      usage: { totalInputTokens: 2, totalOutputTokens: 3, modelCalls: 1 },
    });
  });

  it('maps a CLI error to failed / runtime_error with the error in metadata', async () => {
    const result = await createHarness({ backend: adapterFor('crash').adapter }).runTurn(turnInput('hi'));
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'runtime_error' });
    expect(result.metadata?.error).toMatchObject({ code: 'backend_execution_error', retryable: false, source: 'backend:fixture' });
  });

  it('maps unreadable output to failed / model_invalid_response', async () => {
    const result = await createHarness({ backend: adapterFor('not-json').adapter }).runTurn(turnInput('hi'));
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'model_invalid_response' });
  });

  it('ends a turn that hits maxElapsedMs as deferred / timeout_reached, and the process group is killed', async () => {
    const { adapter, pids } = adapterFor('grandchild');
    const { backend, runs } = tracked(adapter);
    const result = await createHarness({ backend, limits: { maxElapsedMs: 1_000 } }).runTurn(turnInput('hi'));
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'timeout_reached' });
    expect(result.continuation?.type).toBe('deferred');
    // The harness stops waiting at its deadline; the adapter's own run ends once the group is gone.
    const run = await runs[0]!;
    expect(run.error).toMatchObject({ code: 'timeout', retryable: true });
    const started = pids(); // empty if the deadline came before the fixture wrote its pids
    leftovers.push(...started);
    expect(started.filter(isAlive)).toEqual([]);
  });

  it('ends a cancelled turn as deferred / cancelled, and no process of the turn survives', async () => {
    const controller = new AbortController();
    const { adapter, pids } = adapterFor('grandchild', () => controller.abort());
    const { backend, runs } = tracked(adapter);
    const result = await createHarness({ backend }).runTurn(turnInput('hi'), { signal: controller.signal });
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'cancelled' });
    const run = await runs[0]!;
    expect(run.metadata).toMatchObject({ cancelled: true });
    const started = pids();
    leftovers.push(...started);
    expect(started).toHaveLength(2);
    expect(started.filter(isAlive)).toEqual([]);
  });
});

/** Delegates to `adapter`, keeping each `execute` promise so a test can await the run's real end. */
function tracked(adapter: ExecutionAdapter): { backend: ExecutionAdapter; runs: Promise<ExecutionResult>[] } {
  const runs: Promise<ExecutionResult>[] = [];
  return {
    runs,
    backend: defineExecutionAdapter({
      backendId: adapter.backendId,
      describeCapabilities: () => adapter.describeCapabilities(),
      negotiate: (request) => adapter.negotiate(request),
      execute: (request, options) => {
        const run = adapter.execute(request, options);
        runs.push(run);
        return run;
      },
    }),
  };
}
