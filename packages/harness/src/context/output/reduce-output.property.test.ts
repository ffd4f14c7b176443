// For any streams, argv, exit code and budget ≥ MIN_REDUCED_OUTPUT_BUDGET: the serialised result
// fits the budget, the exit code, signal and captureComplete come back as given, shown blocks and
// omitted ranges cover every line once, each shown line is that line of the input (as on screen),
// and the store holds the input's exact bytes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../__fixtures__/property-runs.js';
import { MIN_REDUCED_OUTPUT_BUDGET, reduceOutput, type ReducedOutputStream } from '../../index.js';
import { createMapOutputStore } from './__fixtures__/map-output-store.js';
import { cutLine, jsonStringBytes, screenLine } from './output-lines.js';

const encoder = new TextEncoder();

const logLine = fc.constantFrom(
  'AssertionError: expected 3 to be 4',
  '   ✓ src/a.test.ts > handles errors 2ms',
  ' FAIL  src/cart.test.ts > cart > total',
  '    at Object.<anonymous> (src/a.js:1:2)',
  'E       assert 3 == 4',
  '      Tests  1 failed | 9 passed (10)',
  'warning: unused variable',
  '',
  '\u001b[31mred\u001b[39m',
  'progress 10%\rprogress 100%',
  'x'.repeat(1500),
);
const anyLine = fc.oneof(logLine, fc.string({ unit: 'binary', maxLength: 80 }), fc.string({ unit: fc.constantFrom('\u0000', '\u001f', '"', '\\', '\r', '\ud800', '\udc00', 'é', '😀'), maxLength: 20 }));
const textStream = fc.tuple(fc.array(anyLine, { maxLength: 120 }), fc.boolean()).map(([lines, newline]) => lines.join('\n') + (newline && lines.length > 0 ? '\n' : ''));
const byteStream = fc.uint8Array({ maxLength: 3000 }).map((bytes) => bytes.map((byte) => (byte % 7 === 0 ? 0x0a : byte)));
const stream = fc.oneof(textStream, byteStream);

function expectCovers(result: ReducedOutputStream, input: Uint8Array) {
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(input);
  const lines = text === '' ? [] : (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
  expect(result.lines).toBe(lines.length);
  const covered = new Array<number>(lines.length).fill(0);
  for (const block of result.shown) {
    const shown = block.text.split('\n');
    expect(shown.length).toBe(block.to - block.from + 1);
    shown.forEach((line, offset) => {
      expect(line).toBe(cutLine(screenLine(lines[block.from - 1 + offset]!)));
      covered[block.from - 1 + offset]! += 1;
    });
  }
  for (const [from, to] of result.omitted) for (let line = from; line <= to; line += 1) covered[line - 1]! += 1;
  expect(covered.every((times) => times === 1)).toBe(true);
}

describe('reduceOutput (property)', () => {
  it('fits the budget, keeps the exit code, covers every line once and stores the exact bytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        stream,
        stream,
        fc.array(fc.oneof(fc.string({ unit: 'binary', maxLength: 30 }), fc.string({ unit: fc.constantFrom('\u0001', '"', 'a'), maxLength: 3000 })), { minLength: 1, maxLength: 6 }),
        fc.oneof(fc.constant(null), fc.integer({ min: -(2 ** 31), max: 2 ** 31 })),
        fc.option(fc.constantFrom('SIGTERM', 'SIGKILL', 'SIGSEGV'), { nil: undefined }),
        fc.boolean(),
        fc.integer({ min: MIN_REDUCED_OUTPUT_BUDGET, max: MIN_REDUCED_OUTPUT_BUDGET + 12_000 }),
        async (stdout, stderr, argv, exitCode, signal, captureComplete, budget) => {
          const store = createMapOutputStore();
          const result = await reduceOutput({ argv, exitCode, signal, stdout, stderr, captureComplete }, { budget, store });
          expect(encoder.encode(JSON.stringify(result)).byteLength).toBeLessThanOrEqual(budget);
          expect(result.exitCode).toBe(exitCode);
          expect(result.captureComplete).toBe(captureComplete);
          expect(result.signal).toBe(signal);
          const bytes = (value: string | Uint8Array) => (typeof value === 'string' ? encoder.encode(value) : value);
          expectCovers(result.stdout, bytes(stdout));
          expectCovers(result.stderr, bytes(stderr));
          expect(store.artifacts.get(result.artifact.id)).toEqual({ stdout: bytes(stdout), stderr: bytes(stderr) });
        },
      ),
      { numRuns: propertyRuns() },
    );
  }, 600_000);

  it('counts the JSON bytes of any string exactly', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom('\u0000', '\b', '\u007f', '\u2028', '"', '\\', '\ud800', '\udfff', '😀', 'é', '€') })), (text) => {
        expect(jsonStringBytes(text)).toBe(encoder.encode(JSON.stringify(text)).byteLength - 2);
      }),
      { numRuns: propertyRuns() },
    );
  });
});

describe('MIN_REDUCED_OUTPUT_BUDGET', () => {
  it('holds the largest frame: 8 MiB of empty lines cut from 16 MiB, an argv of control characters, extreme exit code and signal', async () => {
    const newlines = '\n'.repeat(8 * 1024 * 1024);
    const result = await reduceOutput(
      { argv: ['\u0001'.repeat(5000), '\u0002'], exitCode: Number.MIN_SAFE_INTEGER, signal: 'S'.repeat(32), stdout: newlines, stderr: newlines, captureComplete: false },
      { budget: MIN_REDUCED_OUTPUT_BUDGET, store: createMapOutputStore() },
    );
    expect(encoder.encode(JSON.stringify(result)).byteLength).toBeLessThanOrEqual(MIN_REDUCED_OUTPUT_BUDGET);
    expect(result.stdout).toMatchObject({ droppedBytes: 4 * 1024 * 1024, lines: 4 * 1024 * 1024 });
  });
});
