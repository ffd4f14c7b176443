import { describe, expect, it } from 'vitest';
import { decodeText, trimIncompleteUtf8, truncateUtf8 } from './truncate-utf8.js';

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder('utf-8', { fatal: true }).decode(bytes);

describe('truncateUtf8', () => {
  it('keeps short input whole', () => {
    expect(decode(truncateUtf8(encode('héllo'), 100))).toBe('héllo');
  });

  it('never cuts inside a multi-byte character', () => {
    const bytes = encode('aé日😀b'); // 1 + 2 + 3 + 4 + 1 bytes
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((max) => decode(truncateUtf8(bytes, max)))).toEqual([
      'a',
      'a',
      'aé',
      'aé',
      'aé',
      'aé日',
      'aé日',
      'aé日',
      'aé日',
      'aé日😀',
      'aé日😀b',
    ]);
  });
});

describe('trimIncompleteUtf8', () => {
  it('drops a sequence cut at the end and keeps complete ones', () => {
    const bytes = encode('a😀');
    expect(decode(trimIncompleteUtf8(bytes.subarray(0, 3)))).toBe('a');
    expect(decode(trimIncompleteUtf8(bytes))).toBe('a😀');
    expect(trimIncompleteUtf8(new Uint8Array())).toHaveLength(0);
  });
});

describe('decodeText', () => {
  it('decodes UTF-8 and refuses binary data', () => {
    expect(decodeText(encode('line 1\nline 2'))).toBe('line 1\nline 2');
    expect(decodeText(new Uint8Array([0x61, 0x00, 0x62]))).toBeUndefined();
    expect(decodeText(new Uint8Array([0xff, 0xfe, 0x41]))).toBeUndefined();
  });

  it('keeps a byte-order mark, so the text encodes back to the same bytes', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]);
    expect(decodeText(bytes)).toBe('\ufeffhi');
    expect(new TextEncoder().encode(decodeText(bytes))).toEqual(bytes);
  });
});
