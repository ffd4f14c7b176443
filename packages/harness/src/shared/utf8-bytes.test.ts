import { describe, expect, it } from 'vitest';
import { utf8Length, utf8Window } from './utf8-bytes.js';

describe('utf8Window', () => {
  const text = 'aé日😀b'; // bytes: a=0, é=1–2, 日=3–5, 😀=6–9, b=10

  it('measures UTF-8 length', () => {
    expect(utf8Length(text)).toBe(11);
  });

  it('cuts the end back to a character boundary', () => {
    expect(utf8Window(text, 0, 5)).toEqual({ text: 'aé', start: 0, end: 3, total: 11 });
    expect(utf8Window(text, 0, 100)).toEqual({ text, start: 0, end: 11, total: 11 });
  });

  it('moves a start inside a character forward', () => {
    expect(utf8Window(text, 4, 100)).toEqual({ text: '😀b', start: 6, end: 11, total: 11 });
  });

  it('always returns at least one character when one is left', () => {
    expect(utf8Window(text, 6, 1)).toEqual({ text: '😀', start: 6, end: 10, total: 11 });
  });

  it('returns nothing past the end', () => {
    expect(utf8Window(text, 50, 5)).toEqual({ text: '', start: 11, end: 11, total: 11 });
  });
});
