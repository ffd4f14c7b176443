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
