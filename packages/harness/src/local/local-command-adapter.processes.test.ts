// Real processes that hang, ignore SIGTERM, fork grandchildren and flood their output: the
// adapter must stop all of them, report why, and leave no process behind. "Alive" is checked
// without waiting and without depending on scheduling: `isAlive` counts a process that has a
// SIGKILL pending or is already exiting as dead, and tells a reused pid from the fixture's own
// (its start time is recorded in the pid file).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cleanupTempDirs,
  executionRequest,
  fixture,
  isAlive,
  killQuietly,
  PLAIN_CAPABILITIES,
  readPids,
  tempDir,
} from './__fixtures__/test-helpers.js';
import { LocalCommandExecutionAdapter } from './local-command-adapter.js';
import type { LocalCommandAdapterConfig } from './local-command-options.js';

const misbehave = fixture('misbehave.mjs');
const leftovers: number[] = [];

afterEach(() => {
  killQuietly(leftovers.splice(0));
  cleanupTempDirs();
});

/** The fixture in `mode`, writing its pids to a fresh pid file; aborts `controller` on its "ready" line. */
function scenario(mode: string, extra: Partial<LocalCommandAdapterConfig> & { abortOnReady?: AbortController; args?: string[] } = {}) {
  const pidFile = join(tempDir(), 'pids');
  const { abortOnReady, args = [], ...config } = extra;
  const adapter = new LocalCommandExecutionAdapter({
    backendId: 'fixture',
    command: process.execPath,
    capabilities: PLAIN_CAPABILITIES,
    buildArgs: () => [misbehave, mode, ...args],
    parseOutput: (stdout) => {
      const parsed = JSON.parse(stdout) as { text?: string };
      return parsed.text === undefined ? null : { text: parsed.text };
    },
    env: { PID_FILE: pidFile },
    killGraceMs: 200,
    ...(abortOnReady === undefined ? {} : { onStdoutLine: (line: string) => line === 'ready' && abortOnReady.abort() }),
    ...config,
  });
  const pids = () => {
    const found = readPids(pidFile);
    leftovers.push(...found);
    return found;
  };
  return { adapter, pids };
}

describe('the liveness check these tests rely on', () => {
  it('counts a process as dead as soon as SIGKILL was sent, however slowly the kernel reaps it', async () => {
    const pidFile = join(tempDir(), 'pids');
    const child = spawn(process.execPath, [misbehave, 'hang'], { env: { ...process.env, PID_FILE: pidFile }, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = once(child, 'exit');
    await once(child.stdout, 'data'); // "ready": the pid file is written
    const [pid] = readPids(pidFile);
    leftovers.push(pid!);
    expect(pid).toBe(child.pid);
    expect(isAlive(pid!)).toBe(true);
    process.kill(pid!, 'SIGKILL');
    // No waiting: a pending SIGKILL (or an exit in progress) already counts as dead.
    expect(isAlive(pid!)).toBe(false);
    await exited;
    expect(isAlive(pid!)).toBe(false);
  });
});

describe('LocalCommand — stopping processes', () => {
  it('stops a hanging process at timeoutMs: failed / timeout, retryable', async () => {
    const { adapter } = scenario('hang', { timeoutMs: 300 });
    const result = await adapter.execute(executionRequest('hi'));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'timeout', retryable: true } });
    expect(result.error?.message).toBe('fixture command did not finish within 300 ms and was stopped.');
  });

  it('uses the request deadline (request.timeoutMs) when it is shorter', async () => {
    const { adapter } = scenario('hang', { timeoutMs: 600_000 });
    const result = await adapter.execute(executionRequest('hi', { timeoutMs: 250 }));
    expect(result.error).toMatchObject({ code: 'timeout' });
    expect(result.error?.message).toMatch(/within 250 ms/);
  });

  it('kills the process group when the signal aborts, and reports a cancellation', async () => {
    const controller = new AbortController();
    const { adapter, pids } = scenario('hang', { abortOnReady: controller });
    const result = await adapter.execute(executionRequest('hi'), { signal: controller.signal });
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: true }, metadata: { cancelled: true } });
    expect(pids().filter(isAlive)).toEqual([]);
  });

  it('reports a timeout when the signal was aborted by a turn deadline', async () => {
    const controller = new AbortController();
    const { adapter } = scenario('hang', {
      onStdoutLine: (line) => line === 'ready' && controller.abort(Object.assign(new Error('deadline'), { reason: 'timeout' })),
    });
    const result = await adapter.execute(executionRequest('hi'), { signal: controller.signal });
    expect(result.error).toMatchObject({ code: 'timeout', retryable: true });
  });

  it('does not start at all when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { adapter } = scenario('echo');
    const result = await adapter.execute(executionRequest('hi'), { signal: controller.signal });
    expect(result.metadata).toMatchObject({ cancelled: true });
  });

  it('escalates to SIGKILL for a process that ignores SIGTERM', async () => {
    const controller = new AbortController();
    const { adapter, pids } = scenario('ignore-term', { abortOnReady: controller });
    const result = await adapter.execute(executionRequest('hi'), { signal: controller.signal });
    expect(result.status).toBe('failed');
    const [pid] = pids();
    expect(isAlive(pid!)).toBe(false);
  });

  it('leaves no grandchild alive: a forked child that ignores SIGTERM dies with the group', async () => {
    const controller = new AbortController();
    const { adapter, pids } = scenario('grandchild', { abortOnReady: controller });
    const result = await adapter.execute(executionRequest('hi'), { signal: controller.signal });
    expect(result.status).toBe('failed');
    const all = pids();
    expect(all).toHaveLength(2);
    expect(all.filter(isAlive)).toEqual([]);
  });

  it('leaves no tool child alive that ignores SIGTERM and holds no pipe, after the engine itself died of SIGTERM', async () => {
    const controller = new AbortController();
    const { adapter, pids } = scenario('tool-child', { abortOnReady: controller });
    const result = await adapter.execute(executionRequest('hi'), { signal: controller.signal });
    expect(result.status).toBe('failed');
    const all = pids();
    expect(all).toHaveLength(2);
    expect(all.filter(isAlive)).toEqual([]);
  });

  it('leaves no grandchild alive on a timeout either', async () => {
    const { adapter, pids } = scenario('grandchild', { timeoutMs: 1_500 });
    const result = await adapter.execute(executionRequest('hi'));
    expect(result.error?.code).toBe('timeout');
    // The pid file exists only if the fixture got that far; whatever it started is gone.
    expect(pids().filter(isAlive)).toEqual([]);
  });

  it('cleans up a grandchild left running after a normal exit, and still completes', async () => {
    const { adapter, pids } = scenario('daemon');
    const result = await adapter.execute(executionRequest('hi'));
    expect(result).toMatchObject({ status: 'completed', output: { text: 'answered before exiting' } });
    const all = pids();
    expect(all).toHaveLength(2);
    expect(all.filter(isAlive)).toEqual([]);
  });
});

describe('LocalCommand — output caps', () => {
  it('stops a 100 MB stdout flood at maxOutputBytes without buffering it', async () => {
    const before = process.memoryUsage();
    const { adapter } = scenario('flood', { maxOutputBytes: 1024 * 1024 });
    const result = await adapter.execute(executionRequest('hi'));
    expect(result).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_backend_output', retryable: false },
      metadata: { outputLimitExceeded: 'stdout', maxOutputBytes: 1024 * 1024 },
    });
    expect(result.error?.message).toBe('fixture command wrote more than 1048576 bytes to stdout and was stopped.');
    expect((result.metadata?.['stdoutPreview'] as string).length).toBeLessThan(600);
    const after = process.memoryUsage();
    // The process was stopped long before 100 MB; far less than that was retained.
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(50 * 1024 * 1024);
  });

  it('stops a flood that ignores SIGTERM (SIGKILL after the grace period)', async () => {
    const { adapter } = scenario('flood', { args: ['stdout', 'ignore-term'], maxOutputBytes: 256 * 1024 });
    const result = await adapter.execute(executionRequest('hi'));
    expect(result.metadata).toMatchObject({ outputLimitExceeded: 'stdout' });
  });

  it('caps stderr the same way', async () => {
    const { adapter } = scenario('flood', { args: ['stderr'], maxOutputBytes: 256 * 1024 });
    const result = await adapter.execute(executionRequest('hi'));
    expect(result.metadata).toMatchObject({ outputLimitExceeded: 'stderr' });
  });
});

describe('LocalCommand — stdout lines', () => {
  it('delivers complete lines as they arrive, with the request, and survives a throwing listener', async () => {
    const lines: string[] = [];
    const request = executionRequest('hi');
    const adapter = new LocalCommandExecutionAdapter({
      backendId: 'lines',
      command: process.execPath,
      capabilities: PLAIN_CAPABILITIES,
      buildArgs: () => ['-e', 'process.stdout.write("one\\ntwo\\r\\n"); setTimeout(() => process.stdout.write("thr"), 5); setTimeout(() => process.stdout.write("ee"), 10)'],
      parseOutput: (stdout) => ({ text: stdout }),
      onStdoutLine: (line, seen) => {
        expect(seen).toEqual(request); // the checked copy of the request, not the caller's object
        lines.push(line);
        throw new Error('listener fault');
      },
    });
    const result = await adapter.execute(request);
    expect(result.output?.text).toBe('one\ntwo\r\nthree');
    expect(lines).toEqual(['one', 'two', 'three']);
  });
});
