import { describe, expect, it } from 'vitest';
import { parsePartialJson } from './parse-partial-json.js';

describe('parsePartialJson', () => {
  it('reads what a prefix of an object stands for so far', () => {
    const text = '{"city": "Oslo", "days": 3, "sights": ["Opera", "Vigeland park"], "ok": true}';
    expect(parsePartialJson('')).toBeUndefined();
    expect(parsePartialJson('{')).toEqual({});
    expect(parsePartialJson('{"ci')).toEqual({});
    expect(parsePartialJson('{"city": "Os')).toEqual({ city: 'Os' });
    expect(parsePartialJson('{"city": "Oslo", "days": 3')).toEqual({ city: 'Oslo' });
    expect(parsePartialJson('{"city": "Oslo", "days": 3,')).toEqual({ city: 'Oslo', days: 3 });
    expect(parsePartialJson('{"city": "Oslo", "days": 3, "sights": ["Opera", "Vig')).toEqual({ city: 'Oslo', days: 3, sights: ['Opera', 'Vig'] });
    expect(parsePartialJson('{"city": "Oslo", "days": 3, "sights": [], "ok": tr')).toEqual({ city: 'Oslo', days: 3, sights: [] });
    expect(parsePartialJson(text)).toEqual(JSON.parse(text));
  });

  it('never shows a number or an escape that may still change', () => {
    expect(parsePartialJson('[1')).toEqual([]);
    expect(parsePartialJson('[1.')).toEqual([]);
    expect(parsePartialJson('[1.5')).toEqual([]);
    expect(parsePartialJson('[1.5,')).toEqual([1.5]);
    expect(parsePartialJson('["a\\')).toEqual(['a']);
    expect(parsePartialJson('["a\\u00')).toEqual(['a']);
    expect(parsePartialJson('["a\\u00e9')).toEqual(['aé']);
    expect(parsePartialJson('["a\\\\')).toEqual(['a\\']);
  });

  it('skips a leading json fence, refuses text that is not JSON, and keeps __proto__ as data', () => {
    expect(parsePartialJson('```json\n{"a": "b')).toEqual({ a: 'b' });
    expect(parsePartialJson('Sure! Here it is')).toBeUndefined();
    const value = parsePartialJson('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'x']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('stops at 64 levels instead of overflowing the stack', () => {
    expect(parsePartialJson('['.repeat(100_000))).toBeDefined();
    expect(JSON.stringify(parsePartialJson(`${'['.repeat(100)}1${']'.repeat(100)}`))).toBe(`${'['.repeat(65)}${']'.repeat(65)}`);
  });

  it('keeps the first value of a repeated key, so a value shown is never taken back', () => {
    const text = '{"a":"xyz","a":"q","b":1,"a":{"c":2}}';
    const shown = Array.from({ length: text.length + 1 }, (_, index) => (parsePartialJson(text.slice(0, index)) as { a?: unknown } | undefined)?.a);
    const first = shown.indexOf('xyz');
    expect(shown.slice(0, first).filter((value) => value !== undefined)).toEqual(['', 'x', 'xy']);
    expect(shown.slice(first).every((value) => value === 'xyz')).toBe(true);
    expect(parsePartialJson(text)).toEqual({ a: 'xyz', b: 1 });
    expect(JSON.parse(text)).toEqual({ a: { c: 2 }, b: 1 }); // The finished answer is read by JSON.parse: the last one wins.
    const proto = parsePartialJson('{"__proto__": 1, "__proto__": 2}') as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(proto, '__proto__')?.value).toBe(1);
  });
});
