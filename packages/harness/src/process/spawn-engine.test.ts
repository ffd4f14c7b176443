// Real child processes: the engine layer must frame lines, bound them, keep stderr apart, and
// leave no member of the process group behind when disposed — even one that ignores SIGTERM.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, isAlive, killQuietly, readPids, tempDir } from '../local/__fixtures__/test-helpers.js';
import { loadNodeModules } from './load-node-modules.js';
import { spawnEngine, type SpawnEngineOptions } from './spawn-engine.js';

const fixture = join(import.meta.dirname, '..', 'sessions', '__fixtures__', 'engine-process.mjs');
const leftovers: number[] = [];

afterEach(() => {
  killQuietly(leftovers.splice(0));
  cleanupTempDirs();
});

async function start(mode: string, extra: Partial<SpawnEngineOptions> = {}) {
  const node = await loadNodeModules();
  const lines: string[] = [];
  const waiters: { match: (line: string) => boolean; resolve: () => void }[] = [];
  const engine = spawnEngine(node, {
    command: process.execPath,
    args: [fixture, mode],
    env: { PATH: process.env['PATH'] ?? '' },
    maxLineBytes: 1024,
    maxStderrBytes: 16,
    killGraceMs: 200,
    onLine: (line) => {
      lines.push(line);
      for (const waiter of waiters.filter((candidate) => candidate.match(line))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    },
    ...extra,
  });
  const lineMatching = (match: (line: string) => boolean) =>
    lines.some(match) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ match, resolve }));
  await lineMatching((line) => line === 'ready');
  return { engine, lines, lineMatching };
}

describe('spawnEngine', () => {
  it('writes lines and reads framed answers, and ends cleanly when stdin closes', async () => {
    const { engine, lines, lineMatching } = await start('echo');
    expect(engine.alive).toBe(true);
    expect(engine.write('hello')).toBe(true);
    expect(engine.write('wörld')).toBe(true);
    await lineMatching((line) => line === 'echo:wörld');
    expect(lines).toEqual(['ready', 'echo:hello', 'echo:wörld']);
    const exit = await engine.dispose();
    expect(exit).toEqual({ kind: 'disposed', exitCode: 0, exitSignal: null });
    expect(engine.alive).toBe(false);
    expect(engine.write('late')).toBe(false);
  });

  it('keeps only the most recent stderr bytes, apart from stdout', async () => {
    const { engine, lines, lineMatching } = await start('echo');
    engine.write('stderr:0123456789abcdefghij');
    engine.write('after');
    await lineMatching((line) => line === 'echo:after');
    await engine.dispose();
    expect(engine.stderrTail()).toBe('456789abcdefghij');
    expect(lines.some((line) => line.includes('0123'))).toBe(false);
  });

  it('blanks the secrets of its environment out of the stderr tail, also one the tail window cuts in two', async () => {
    const env = { PATH: process.env['PATH'] ?? '', MY_API_TOKEN: 'abcdefghij' };
    const whole = await start('echo', { env, maxStderrBytes: 1024 });
    whole.engine.write('stderr:fatal: token abcdefghij rejected');
    await whole.engine.dispose();
    expect(whole.engine.stderrTail()).toBe('fatal: token [REDACTED] rejected');

    const cut = await start('echo', { env });
    cut.engine.write('stderr:abcdefghij then more');
    await cut.engine.dispose();
    expect(cut.engine.stderrTail()).toBe('… then more');
  });

  it('stops an engine whose line goes past the cap', async () => {
    const { engine } = await start('echo');
    engine.write('long:100');
    engine.write('long:5000');
    const exit = await engine.exited;
    expect(exit).toEqual({ kind: 'line_too_long', maxLineBytes: 1024 });
  });

  it('reports a crash as an exit with its code', async () => {
    const { engine } = await start('echo');
    engine.write('crash');
    expect(await engine.exited).toEqual({ kind: 'exited', exitCode: 3, exitSignal: null });
    expect(engine.alive).toBe(false);
  });

  it('reports a missing program as spawn_failed, without throwing', async () => {
    const node = await loadNodeModules();
    const engine = spawnEngine(node, {
      command: join(tempDir(), 'no-such-engine'),
      args: [],
      env: {},
      maxLineBytes: 1024,
      maxStderrBytes: 1024,
      killGraceMs: 100,
      onLine: () => undefined,
    });
    const exit = await engine.exited;
    expect(exit).toMatchObject({ kind: 'spawn_failed', code: 'ENOENT' });
    expect(engine.write('x')).toBe(false);
  });

  it('disposes a process group that ignores stdin closing and SIGTERM, grandchild included', async () => {
    const pidFile = join(tempDir(), 'pids');
    const { engine } = await start('stubborn', { env: { PATH: process.env['PATH'] ?? '', PID_FILE: pidFile } });
    const pids = readPids(pidFile);
    leftovers.push(...pids);
    expect(pids).toHaveLength(2);
    expect(pids.every(isAlive)).toBe(true);
    const exit = await engine.dispose();
    expect(exit.kind).toBe('disposed');
    expect(pids.some(isAlive)).toBe(false);
  });

  it('leaves no tool child alive that ignores SIGTERM and holds none of its pipes, once the engine itself has exited', async () => {
    const pidFile = join(tempDir(), 'pids');
    const { engine } = await start('tool-child', { env: { PATH: process.env['PATH'] ?? '', PID_FILE: pidFile } });
    const pids = readPids(pidFile);
    leftovers.push(...pids);
    expect(pids).toHaveLength(2);
    const exit = await engine.dispose();
    expect(exit.kind).toBe('disposed');
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it('passes only the given environment', async () => {
    const node = await loadNodeModules();
    let output = '';
    const engine = spawnEngine(node, {
      command: process.execPath,
      args: ['-e', 'process.stdout.write(JSON.stringify(Object.keys(process.env).sort()) + "\\n")'],
      env: { ONLY_THIS: '1' },
      maxLineBytes: 4096,
      maxStderrBytes: 1024,
      killGraceMs: 100,
      onLine: (line) => {
        output = line;
      },
    });
    await engine.exited;
    expect(JSON.parse(output)).toEqual(['ONLY_THIS']);
  });
});
