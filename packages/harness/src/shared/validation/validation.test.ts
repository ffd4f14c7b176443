import { describe, expect, it } from 'vitest';
import * as v from './index.js';
import { formatIssues } from '../schemas/format-issues.js';

const failure = (schema: v.Schema, value: unknown): string => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected a failure');
  return formatIssues(parsed.error.issues);
};

describe('objects', () => {
  const shape = { id: v.string(), note: v.optional(v.string()) };

  it('drops unknown keys, keeps them, refuses them or parses them with a catch-all', () => {
    const input = { id: 'a', extra: 1 };
    expect(v.object(shape).safeParse(input)).toEqual({ success: true, data: { id: 'a' } });
    expect(v.looseObject(shape).safeParse(input)).toEqual({ success: true, data: { id: 'a', extra: 1 } });
    expect(failure(v.strictObject(shape), input)).toBe('(root): unknown keys extra');
    expect(failure(v.catchall(v.object(shape), v.string()), input)).toBe('extra: expected string');
    expect(v.catchall(v.object(shape), v.number()).safeParse(input)).toEqual({ success: true, data: { id: 'a', extra: 1 } });
  });

  it('never copies an own __proto__ key, and reports it when keys are refused', () => {
    const input = JSON.parse('{"id":"a","__proto__":{"polluted":true}}') as unknown;
    for (const schema of [v.looseObject(shape), v.catchall(v.object(shape), v.unknown()), v.record(v.string(), v.unknown())]) {
      const parsed = schema.safeParse(input);
      expect(parsed.success).toBe(true);
      expect(Object.getPrototypeOf(parsed.data)).toBe(Object.prototype);
      expect(Object.keys(parsed.data as object)).toEqual(['id']);
    }
    expect(failure(v.strictObject(shape), input)).toBe('(root): unknown keys __proto__');
  });

  it('reads no inherited keys as extra keys', () => {
    const input = Object.assign(Object.create({ inherited: 'x' }) as object, { id: 'a' });
    expect(v.looseObject(shape).safeParse(input)).toEqual({ success: true, data: { id: 'a' } });
  });

  it('lets an optional key be absent, keeps a present undefined, and requires every other key', () => {
    expect(v.object(shape).safeParse({ id: 'a' })).toEqual({ success: true, data: { id: 'a' } });
    const present = v.object(shape).safeParse({ id: 'a', note: undefined });
    expect(present.success && Object.hasOwn(present.data, 'note')).toBe(true);
    expect(failure(v.object(shape), {})).toBe('id: expected string');
    expect(failure(v.object({ value: v.unknown() }), {})).toBe('value: expected nonoptional');
    expect(failure(v.object(shape), [])).toBe('(root): expected object');
    expect(failure(v.object(shape), null)).toBe('(root): expected object');
  });

  it('reports every issue with its path', () => {
    const schema = v.object({ items: v.array(v.object({ n: v.number() })) });
    expect(failure(schema, { items: [{ n: 1 }, { n: 'x' }, {}] })).toBe('items.1.n: expected number; items.2.n: expected number');
  });
});

describe('primitives and checks', () => {
  it('accepts finite numbers only, and safe integers for int', () => {
    expect(failure(v.number(), Number.NaN)).toBe('(root): expected number');
    expect(failure(v.number(), Number.POSITIVE_INFINITY)).toBe('(root): expected number');
    expect(failure(v.int(), 1.5)).toBe('(root): expected int');
    expect(failure(v.int(), 2 ** 53)).toBe('(root): must be at most 9007199254740991');
    expect(v.int().safeParse(-3).success).toBe(true);
  });

  it('runs checks in order on the value the previous check left', () => {
    const schema = v.string().check(v.trim(), v.minLength(1), v.maxLength(3));
    expect(schema.safeParse('  ab  ')).toEqual({ success: true, data: 'ab' });
    expect(failure(schema, '   ')).toBe('(root): must be at least 1');
    expect(failure(schema, 'abcd')).toBe('(root): must be at most 3');
  });

  it('counts string lengths in code points', () => {
    expect(v.string().check(v.maxLength(2)).safeParse('😀😀').success).toBe(true);
    expect(v.string().check(v.maxLength(2)).safeParse('😀😀a').success).toBe(false);
    expect(v.string().check(v.minLength(3)).safeParse('😀😀').success).toBe(false);
    expect(v.string().check(v.minLength(2)).safeParse('😀😀').success).toBe(true);
    expect(v.string().check(v.minLength(2)).safeParse('😀a').success).toBe(true);
    // Far past a bound, the answer needs no counting (a 2-unit code point is the most a character takes).
    expect(v.string().check(v.maxLength(10)).safeParse('😀'.repeat(11)).success).toBe(false);
    expect(v.string().check(v.maxLength(10)).safeParse('😀'.repeat(10)).success).toBe(true);
    expect(v.string().check(v.maxLength(10)).safeParse('a'.repeat(50_000_000)).success).toBe(false);
    expect(v.string().check(v.minLength(10)).safeParse('😀'.repeat(10)).success).toBe(true);
  });

  it('bounds numbers inclusively or exclusively', () => {
    expect(failure(v.number().check(v.positive()), 0)).toBe('(root): must be more than 0');
    expect(failure(v.number().check(v.gte(1), v.lte(2)), 3)).toBe('(root): must be at most 2');
    expect(v.number().check(v.gt(1), v.lte(2)).safeParse(2).success).toBe(true);
  });

  it('skips checks when the type is wrong, and reports refinements with their message', () => {
    expect(failure(v.string().check(v.minLength(2)), 5)).toBe('(root): expected string');
    expect(failure(v.number().check(v.refine(Number.isSafeInteger, { error: 'expected an integer' })), 1.5)).toBe('(root): expected an integer');
    expect(failure(v.string().check(v.regex(/^a/)), 'b')).toBe('(root): must match /^a/');
    const refined = v.object({ a: v.string() }).check(
      v.superRefine((value, context) => {
        if (value.a === 'x') context.addIssue({ code: 'custom', path: ['a'], message: 'not x' });
      }),
    );
    expect(failure(refined, { a: 'x' })).toBe('a: not x');
  });

  it('accepts literals and enum members only', () => {
    expect(failure(v.enum(['a', 'b']), 'c')).toBe('(root): expected one of "a", "b"');
    expect(failure(v.literal('x'), 'y')).toBe('(root): expected one of "x"');
    expect(v.custom((value) => typeof value === 'function').safeParse(() => 1).success).toBe(true);
    expect(failure(v.custom(() => false, 'must be a function'), 1)).toBe('(root): must be a function');
  });
});

describe('unions', () => {
  it('takes the first option that matches', () => {
    const schema = v.union([v.object({ a: v.string() }), v.looseObject({ a: v.string() })]);
    expect(schema.safeParse({ a: 'x', b: 1 })).toEqual({ success: true, data: { a: 'x' } });
  });

  it('reports the one option whose shape matched, else that none did', () => {
    const schema = v.union([v.number(), v.string().check(v.maxLength(1))]);
    expect(failure(schema, 'ab')).toBe('(root): must be at most 1');
    expect(failure(schema, true)).toBe('(root): matches none of the allowed shapes');
  });

  it('reports every issue of the one matching option, however many (no spread into push)', () => {
    const schema = v.union([v.array(v.string().check(v.minLength(1))), v.number()]);
    const parsed = schema.safeParse(Array.from({ length: 200_000 }, () => ''));
    expect(parsed.success).toBe(false);
    expect(parsed.success ? 0 : parsed.error.issues.length).toBe(200_000);
  });

  it('chooses a discriminated option by its literal', () => {
    const schema = v.discriminatedUnion('type', [v.object({ type: v.literal('a'), n: v.number() }), v.object({ type: v.literal('b') })]);
    expect(schema.safeParse({ type: 'b', extra: 1 })).toEqual({ success: true, data: { type: 'b' } });
    expect(failure(schema, { type: 'a' })).toBe('n: expected number');
    expect(failure(schema, { type: '__proto__' })).toBe('type: matches none of the allowed shapes');
    expect(failure(schema, 'a')).toBe('(root): expected object');
  });

  it('makes a nullable optional key optional, and pipes through a transform', () => {
    expect(v.object({ a: v.nullable(v.optional(v.string())) }).safeParse({})).toEqual({ success: true, data: {} });
    const lengthOf = v.pipe(v.string(), v.transform((value: string) => value.length));
    expect(lengthOf.safeParse('abc')).toEqual({ success: true, data: 3 });
    expect(failure(lengthOf, 1)).toBe('(root): expected string');
  });
});
