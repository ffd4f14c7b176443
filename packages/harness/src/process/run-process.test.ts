import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, fixture, tempDir } from '../local/__fixtures__/test-helpers.js';
import { loadNodeModules } from './load-node-modules.js';
import { runProcess, type RunProcessOptions } from './run-process.js';

afterEach(cleanupTempDirs);

const run = async (options: Partial<RunProcessOptions> & Pick<RunProcessOptions, 'args'>) =>
  runProcess(await loadNodeModules(), {
    command: process.execPath,
    env: { PATH: process.env['PATH'] ?? '' },
    timeoutMs: 60_000,
    killGraceMs: 200,
    maxOutputBytes: 1024 * 1024,
    ...options,
  });

describe('runProcess', () => {
  it('captures stdout, stderr and the exit code', async () => {
    const outcome = await run({ args: ['-e', 'process.stdout.write("out"); process.stderr.write("err"); process.exitCode = 3'] });
    expect(outcome).toMatchObject({ ending: { kind: 'exited', exitCode: 3, exitSignal: null }, stdout: 'out', stderr: 'err', stdoutBytes: 3 });
    expect(outcome.finishedAt).toBeGreaterThanOrEqual(outcome.startedAt);
  });

  it("blanks the secrets of the child's environment out of stderr, also one the cap cuts off", async () => {
    const env = { PATH: process.env['PATH'] ?? '', SERVICE_PASSWORD: 'abcdefghijkl' };
    const whole = await run({ env, args: ['-e', 'process.stderr.write("fatal: password abcdefghijkl rejected"); process.exitCode = 5'] });
    expect(whole.stderr).toBe('fatal: password [REDACTED] rejected');
    const cut = await run({ env, maxOutputBytes: 22, args: ['-e', 'process.stderr.write("fatal: password abcdefghijkl rejected")'] });
    expect(cut.ending).toEqual({ kind: 'output_limit', stream: 'stderr' });
    expect(cut.stderr).toBe('fatal: password …');
  });

  it('writes stdin and closes it', async () => {
    const outcome = await run({ args: [fixture('misbehave.mjs'), 'stdin-forever'], stdin: 'héllo' });
    expect(outcome.stdout).toBe('{"text":"read 6 bytes"}');
  });

  it('reports a program that cannot start', async () => {
    const outcome = await run({ command: join(tempDir(), 'missing'), args: [] });
    expect(outcome.ending).toMatchObject({ kind: 'spawn_failed', error: { code: 'ENOENT' } });
  });

  it('does not start when the signal is already aborted, and reads a timeout reason', async () => {
    const controller = new AbortController();
    controller.abort(Object.assign(new Error('late'), { name: 'TimeoutError' }));
    expect((await run({ args: ['-e', ''], signal: controller.signal })).ending).toEqual({ kind: 'aborted', reason: 'timeout' });
  });

  it('stops at timeoutMs', async () => {
    expect((await run({ args: [fixture('misbehave.mjs'), 'hang'], timeoutMs: 200 })).ending).toEqual({ kind: 'timed_out' });
  });
});
