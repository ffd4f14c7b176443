import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDirectoryOutputStore,
  HarnessConfigError,
  MAX_OUTPUT_ARTIFACT_BYTES,
  MIN_REDUCED_OUTPUT_BUDGET,
  OutputArtifactError,
  recoverOutput,
  reduceOutput,
  type ReducedOutput,
} from '../../index.js';
import { createMapOutputStore } from './__fixtures__/map-output-store.js';
import { makeTestLog } from './__fixtures__/test-log.mjs';
import { TOOL_LOGS, withNoise } from './__fixtures__/tool-logs.js';

const encoder = new TextEncoder();
const bytesOf = (value: unknown) => encoder.encode(JSON.stringify(value)).byteLength;

/** Every shown line, as a set of whole lines. */
function shownLines(result: ReducedOutput): string[] {
  return [...result.stdout.shown, ...result.stderr.shown].flatMap((block) => block.text.split('\n'));
}

/** Shown blocks and omitted ranges cover 1..lines once each, in order. */
function expectPartition(stream: ReducedOutput['stdout']) {
  const ranges = [...stream.shown.map((block) => [block.from, block.to, block.text.split('\n').length] as const), ...stream.omitted.map(([from, to]) => [from, to, to - from + 1] as const)];
  ranges.sort((left, right) => left[0] - right[0]);
  let next = 1;
  for (const [from, to, count] of ranges) {
    expect(from).toBe(next);
    expect(to - from + 1).toBe(count);
    next = to + 1;
  }
  expect(next - 1).toBe(stream.lines);
}

let folder = '';
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'reduce-output-'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

describe('reduceOutput on real-looking tool output', () => {
  it.each(TOOL_LOGS.map((log) => [log.name, log] as const))('%s: the failure and the summary are shown within 4 KiB, the rest is listed as omitted', async (_name, log) => {
    const store = createMapOutputStore();
    const stdout = withNoise(log.stdout, log.noise, 400);
    const stderr = withNoise(log.stderr, log.noise, 400);
    const result = await reduceOutput({ argv: log.argv, exitCode: log.exitCode, stdout, stderr, captureComplete: true }, { budget: 4096, store });
    expect(bytesOf(result)).toBeLessThanOrEqual(4096);
    const shown = shownLines(result);
    for (const line of log.mustKeep) expect(shown, line).toContain(line);
    expect(result).toMatchObject({ exitCode: log.exitCode, captureComplete: true, complete: false, argv: log.argv, argvComplete: true });
    expect(result.stdout.omitted.length + result.stderr.omitted.length).toBeGreaterThan(0);
    expectPartition(result.stdout);
    expectPartition(result.stderr);
    expect(new TextDecoder().decode(store.artifacts.get(result.artifact.id)?.stdout)).toBe(stdout);
  });

  it.each(['vitest', 'pytest', 'go'] as const)('an 8 MiB %s log with one failing test in the middle: its lines are shown', async (kind) => {
    const { text, failingLines } = makeTestLog(kind, MAX_OUTPUT_ARTIFACT_BYTES);
    const result = await reduceOutput({ argv: ['run-tests'], exitCode: 1, stdout: text, stderr: '', captureComplete: true }, { budget: 16_384, store: createMapOutputStore() });
    expect(bytesOf(result)).toBeLessThanOrEqual(16_384);
    expect(result.stdout.droppedBytes).toBe(0);
    expect(result.stdout.lines).toBeGreaterThan(90_000);
    const shown = shownLines(result);
    for (const line of failingLines) expect(shown, line).toContain(line);
    expectPartition(result.stdout);
  });
});

describe('reduceOutput: time linear in the input', () => {
  // Lines shaped to make a backtracking pattern quadratic (a nested `.*` once took 20× longer on
  // the first). Each shape, 2 MiB of it, against an ordinary 2 MiB test log, best of two runs each.
  const size = 2 * 1024 * 1024;
  const best = async (stdout: string) => {
    let fastest = Number.POSITIVE_INFINITY;
    for (let run = 0; run < 2; run += 1) {
      const started = performance.now();
      await reduceOutput({ argv: ['x'], exitCode: 1, stdout, stderr: '', captureComplete: true }, { budget: 4096, store: createMapOutputStore() });
      fastest = Math.min(fastest, performance.now() - started);
    }
    return fastest;
  };
  it('hostile lines take about as long as a test log of the same size', async () => {
    const ordinary = await best(makeTestLog('pytest', size).text);
    const shapes = ['= ' + 'passed '.repeat(280) + 'x', '= a ' + '='.repeat(1990) + 'x', '   at ' + ':1'.repeat(995) + 'x', 'a' + ':1:1'.repeat(500) + 'x', 'A'.repeat(1999), 'test ' + ' ... '.repeat(399) + 'x', `error${' '.repeat(1990)}x`];
    for (const shape of shapes) {
      const line = `${shape}\n`;
      expect(await best(line.repeat(Math.floor(size / line.length))), shape.slice(0, 20)).toBeLessThan(6 * ordinary);
    }
  }, 60_000);
});

describe('reduceOutput', () => {
  it('shows small output whole (complete), as a terminal shows it: colours and progress redraws removed', async () => {
    const stdout = 'Downloading 10%\rDownloading 100%\n\u001b[32m✓\u001b[39m ok\r\nlast line without newline';
    const result = await reduceOutput({ argv: ['x'], exitCode: 0, stdout, stderr: 'warn\n', captureComplete: true }, { budget: MIN_REDUCED_OUTPUT_BUDGET, store: createMapOutputStore() });
    expect(result).toMatchObject({
      complete: true,
      stdout: { lines: 3, shown: [{ from: 1, to: 3, text: 'Downloading 100%\n✓ ok\nlast line without newline' }], omitted: [] },
      stderr: { lines: 1, shown: [{ from: 1, to: 1, text: 'warn' }], omitted: [] },
    });
  });

  it('passes the exit code, the signal and captureComplete through exactly as given', async () => {
    const store = createMapOutputStore();
    const failing = 'Error: boom\n'.repeat(3);
    const zero = await reduceOutput({ argv: ['x'], exitCode: 0, stdout: failing, stderr: '', captureComplete: true }, { budget: 4096, store });
    expect(zero).toMatchObject({ exitCode: 0, captureComplete: true });
    expect(zero).not.toHaveProperty('signal');
    const killed = await reduceOutput({ argv: ['x'], exitCode: null, signal: 'SIGKILL', stdout: '', stderr: '', captureComplete: false }, { budget: 4096, store });
    expect(killed).toMatchObject({ exitCode: null, signal: 'SIGKILL', captureComplete: false, complete: true });
    const negative = await reduceOutput({ argv: ['x'], exitCode: -1073741819, stdout: '', stderr: '', captureComplete: true }, { budget: 4096, store });
    expect(negative.exitCode).toBe(-1073741819);
  });

  it('cuts a very long line and says so; the artifact keeps it whole', async () => {
    const store = createMapOutputStore();
    const long = `Error: ${'x'.repeat(5000)}`;
    const result = await reduceOutput({ argv: ['x'], exitCode: 1, stdout: long, stderr: '', captureComplete: true }, { budget: 8192, store });
    expect(result.complete).toBe(false);
    expect(result.stdout.shown[0]?.text).toBe(`${long.slice(0, 1000)}…[+4007 chars]`);
    expect(new TextDecoder().decode(store.artifacts.get(result.artifact.id)?.stdout)).toBe(long);
  });

  it('shortens a long argv to about 1 KiB', async () => {
    const script = `echo ${'"\u0001'.repeat(10_000)}`;
    const result = await reduceOutput({ argv: ['bash', '-c', script, 'more'], exitCode: 0, stdout: '', stderr: '', captureComplete: true }, { budget: MIN_REDUCED_OUTPUT_BUDGET, store: createMapOutputStore() });
    expect(result.argvComplete).toBe(false);
    expect(result.argv.slice(0, 2)).toEqual(['bash', '-c']);
    expect(result.argv[2]?.endsWith('…')).toBe(true);
    expect(bytesOf(result.argv)).toBeLessThanOrEqual(1024);
  });

  it('keeps 8 MiB in all: past it each stream keeps its end, the cut start is counted and not stored', async () => {
    const dir = join(folder, 'over-cap');
    const store = createDirectoryOutputStore({ directory: dir });
    const head = 'x'.repeat(MAX_OUTPUT_ARTIFACT_BYTES);
    const stdout = `${head}\nError: the end of stdout\n`;
    const stderr = 'stderr line\n'.repeat(1000);
    const result = await reduceOutput({ argv: ['x'], exitCode: 1, stdout, stderr, captureComplete: true }, { budget: 4096, store });
    expect(result.stderr).toMatchObject({ bytes: 12_000, droppedBytes: 0, lines: 1000 });
    expect(result.stdout.bytes).toBe(stdout.length);
    expect(result.stdout.droppedBytes).toBe(stdout.length + 12_000 - MAX_OUTPUT_ARTIFACT_BYTES);
    expect(result.complete).toBe(false);
    expect(shownLines(result)).toContain('Error: the end of stdout');
    const recovered = await recoverOutput(result.artifact.id, { store, into: join(folder, 'over-cap-recovered') });
    expect(recovered.stdout.bytes + recovered.stderr.bytes).toBe(MAX_OUTPUT_ARTIFACT_BYTES);
    expect((await readFile(recovered.stdout.path, 'utf8')).endsWith('x\nError: the end of stdout\n')).toBe(true);
  });

  it('refuses malformed output and options with HarnessConfigError, and a store that throws with store_failed', async () => {
    const store = createMapOutputStore();
    const good = { argv: ['x'], exitCode: 0, stdout: '', stderr: '', captureComplete: true };
    const hostile = Object.defineProperty({ ...good }, 'stdout', {
      get() {
        throw new Error('getter');
      },
    });
    const argvWithGetter = Object.defineProperty(['x'], 1, {
      get() {
        throw new Error('getter');
      },
      enumerable: true,
    });
    for (const [output, budget] of [
      [good, MIN_REDUCED_OUTPUT_BUDGET - 1],
      [good, 4096.5],
      [{ ...good, exitCode: 1.5 }, 4096],
      [{ ...good, exitCode: '1' }, 4096],
      [{ ...good, signal: 'SIG\nTERM' }, 4096],
      [{ ...good, argv: 'x' }, 4096],
      [{ ...good, argv: [1] }, 4096],
      [{ ...good, argv: argvWithGetter }, 4096],
      [{ ...good, stdout: 5 }, 4096],
      [{ ...good, captureComplete: 'yes' }, 4096],
      [hostile, 4096],
      [null, 4096],
    ] as const) {
      await expect(reduceOutput(output as never, { budget, store })).rejects.toSatisfy(HarnessConfigError.isInstance);
    }
    await expect(reduceOutput(good, { budget: 4096, store: {} as never })).rejects.toSatisfy(HarnessConfigError.isInstance);
    const failing = { put: () => Promise.reject(new Error('disk full')), get: () => Promise.resolve(undefined) };
    const error: unknown = await reduceOutput(good, { budget: 4096, store: failing }).catch((caught: unknown) => caught);
    expect(OutputArtifactError.isInstance(error) && error.reason).toBe('store_failed');
  });
});
