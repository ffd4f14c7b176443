import { describe, expect, it } from 'vitest';
import { OutputCapture } from './output-capture.js';

const bytes = (text: string) => new TextEncoder().encode(text);

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
});
