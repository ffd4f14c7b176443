import { describe, expect, it } from 'vitest';
import { OutputCapture } from './output-capture.js';

const bytes = (text: string) => new TextEncoder().encode(text);

type IndexOf = (this: { length: number }, search: never, fromIndex?: number) => number;

/**
 * Runs `run` while counting the characters and bytes that `String.prototype.indexOf` and
 * `%TypedArray%.prototype.indexOf` look at (the builtins a line splitter searches with; each call
 * is passed through to the real one): how much a splitter re-scans, independent of the machine.
 */
function countSearchedElements(run: () => void): number {
  const prototypes = [String.prototype, Object.getPrototypeOf(Uint8Array.prototype) as { indexOf: IndexOf }] as { indexOf: IndexOf }[];
  const originals = prototypes.map((prototype) => prototype.indexOf);
  let searched = 0;
  prototypes.forEach((prototype, index) => {
    const original = originals[index]!;
    prototype.indexOf = function (this: { length: number }, search: never, fromIndex?: number) {
      const found = original.call(this, search, fromIndex);
      const from = Math.max(0, Math.trunc(fromIndex ?? 0));
      searched += (found === -1 ? this.length : found + 1) - from;
      return found;
    };
  });
  try {
    run();
  } finally {
    prototypes.forEach((prototype, index) => (prototype.indexOf = originals[index]!));
  }
  return searched;
}

/** Pushes one line of `lineBytes` bytes in 64 KiB chunks; returns the bytes searched and the lines delivered. */
function pushOneLongLine(lineBytes: number): { searched: number; lines: number[] } {
  const lines: number[] = [];
  const capture = new OutputCapture(lineBytes + 1, (line) => lines.push(line.length));
  const chunk = new Uint8Array(64 * 1024).fill(0x78);
  const searched = countSearchedElements(() => {
    for (let sent = 0; sent < lineBytes; sent += chunk.byteLength) capture.push(chunk);
    capture.push(bytes('\n'));
    capture.finish();
  });
  return { searched, lines };
}

describe('OutputCapture', () => {
  it('keeps bytes up to the cap, counts the rest, and reports the crossing once', () => {
    const capture = new OutputCapture(5);
    expect(capture.push(bytes('abc'))).toBe(true);
    expect(capture.push(bytes('defg'))).toBe(false);
    expect(capture.push(bytes('hij'))).toBe(true);
    expect(capture.text()).toBe('abcde');
    expect(capture.totalBytes).toBe(10);
    expect(capture.overflowed).toBe(true);
  });

  it('shares a pool between streams: the stream that passes it reports the crossing; bytes() gives the kept bytes', () => {
    const pool = { remaining: 6 };
    const stdout = new OutputCapture(100, undefined, pool);
    const stderr = new OutputCapture(100, undefined, pool);
    expect(stdout.push(Uint8Array.of(1, 2, 3, 4))).toBe(true);
    expect(stderr.push(Uint8Array.of(5, 6, 7))).toBe(false);
    expect(stdout.push(Uint8Array.of(8))).toBe(false);
    expect(stdout.bytes()).toEqual(Uint8Array.of(1, 2, 3, 4));
    expect(stderr.bytes()).toEqual(Uint8Array.of(5, 6));
    expect([stdout.totalBytes, stderr.totalBytes, pool.remaining]).toEqual([5, 3, 0]);
  });

  it('splits lines across chunks and multi-byte characters', () => {
    const lines: string[] = [];
    const capture = new OutputCapture(1024, (line) => lines.push(line));
    const encoded = bytes('é1\r\nline ü\npartial');
    for (const byte of encoded) capture.push(Uint8Array.of(byte));
    capture.finish();
    expect(lines).toEqual(['é1', 'line ü', 'partial']);
    expect(capture.text()).toBe('é1\r\nline ü\npartial');
  });

  it('splits a 16 MiB line arriving in 64 KiB chunks in linear work: each byte is searched for a newline about once', () => {
    const small = pushOneLongLine(1024 * 1024);
    const large = pushOneLongLine(16 * 1024 * 1024);
    expect(small.lines).toEqual([1024 * 1024]);
    expect(large.lines).toEqual([16 * 1024 * 1024]);
    // Quadratic re-scanning searched ~2^31 characters here (every chunk re-read the whole pending line).
    expect(large.searched).toBeLessThanOrEqual(16 * 1024 * 1024 + 1024);
    expect(large.searched / small.searched).toBeLessThan(17);
  });

  it('delivers lines split across chunks unchanged, keeps CRLF out, and a throwing listener breaks nothing', () => {
    const lines: string[] = [];
    const capture = new OutputCapture(1024, (line) => {
      lines.push(line);
      if (line === 'boom') throw new Error('listener failed');
    });
    const eAcute = bytes('é');
    for (const piece of [bytes('ab'), bytes('c\r'), bytes('\nboom\nd'), eAcute.subarray(0, 1), eAcute.subarray(1), bytes('\n\r')]) expect(capture.push(piece)).toBe(true);
    capture.finish();
    expect(lines).toEqual(['abc', 'boom', 'dé', '']);
    expect(capture.text()).toBe('abc\r\nboom\ndé\n\r');
  });
});
