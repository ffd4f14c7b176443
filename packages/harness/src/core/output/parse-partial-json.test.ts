import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../__fixtures__/property-runs.js';
import { parsePartialJson } from './parse-partial-json.js';

const prefixes = (text: string) => Array.from({ length: text.length + 1 }, (_, index) => text.slice(0, index));

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

  it('for every prefix of any JSON text: never throws, and each value shown is kept by the finished text', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.boolean(), (value, spaced) => {
        const text = JSON.stringify(value, null, spaced ? 1 : undefined);
        let previous: unknown;
        for (const prefix of prefixes(text)) {
          const partial = parsePartialJson(prefix);
          if (partial !== undefined && previous !== undefined) expect(isGrowthOf(previous, partial), `${JSON.stringify(previous)} → ${JSON.stringify(partial)}`).toBe(true);
          if (partial !== undefined) previous = partial;
        }
        const finished = JSON.parse(text) as unknown;
        const whole = parsePartialJson(text);
        // Only a bare number is never shown (nothing after it says it is finished).
        if (whole === undefined) expect(typeof finished).toBe('number');
        else expect(whole).toEqual(finished);
      }),
      { numRuns: propertyRuns() },
    );
  });
});

/** Whether `next` keeps everything `earlier` showed: strings may only grow, containers only gain. */
function isGrowthOf(earlier: unknown, next: unknown): boolean {
  if (typeof earlier === 'string') return typeof next === 'string' && next.startsWith(earlier);
  if (Array.isArray(earlier)) {
    if (!Array.isArray(next) || next.length < earlier.length) return false;
    return earlier.every((item, index) => (index === earlier.length - 1 ? isGrowthOf(item, next[index]) : JSON.stringify(item) === JSON.stringify(next[index]) || isGrowthOf(item, next[index])));
  }
  if (typeof earlier === 'object' && earlier !== null) {
    if (typeof next !== 'object' || next === null || Array.isArray(next)) return false;
    return Object.keys(earlier).every((key) => Object.hasOwn(next, key) && isGrowthOf((earlier as Record<string, unknown>)[key], (next as Record<string, unknown>)[key]));
  }
  return Object.is(earlier, next);
}
