import { describe, expect, it } from 'vitest';
import * as z from './index.js';
import { formatIssues } from '../schemas/format-issues.js';

const failure = (schema: z.Schema, value: unknown): string => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected a failure');
  return formatIssues(parsed.error.issues);
};

describe('objects', () => {
  const shape = { id: z.string(), note: z.optional(z.string()) };

  it('drops unknown keys, keeps them, refuses them or parses them with a catch-all', () => {
    const input = { id: 'a', extra: 1 };
    expect(z.object(shape).safeParse(input)).toEqual({ success: true, data: { id: 'a' } });
    expect(z.looseObject(shape).safeParse(input)).toEqual({ success: true, data: { id: 'a', extra: 1 } });
    expect(failure(z.strictObject(shape), input)).toBe('(root): unknown keys extra');
    expect(failure(z.catchall(z.object(shape), z.string()), input)).toBe('extra: expected string');
    expect(z.catchall(z.object(shape), z.number()).safeParse(input)).toEqual({ success: true, data: { id: 'a', extra: 1 } });
  });

  it('never copies an own __proto__ key, and reports it when keys are refused', () => {
    const input = JSON.parse('{"id":"a","__proto__":{"polluted":true}}') as unknown;
    for (const schema of [z.looseObject(shape), z.catchall(z.object(shape), z.unknown()), z.record(z.string(), z.unknown())]) {
      const parsed = schema.safeParse(input);
      expect(parsed.success).toBe(true);
      expect(Object.getPrototypeOf(parsed.data)).toBe(Object.prototype);
      expect(Object.keys(parsed.data as object)).toEqual(['id']);
    }
    expect(failure(z.strictObject(shape), input)).toBe('(root): unknown keys __proto__');
  });

  it('reads no inherited keys as extra keys', () => {
    const input = Object.assign(Object.create({ inherited: 'x' }) as object, { id: 'a' });
    expect(z.looseObject(shape).safeParse(input)).toEqual({ success: true, data: { id: 'a' } });
  });

  it('lets an optional key be absent, keeps a present undefined, and requires every other key', () => {
    expect(z.object(shape).safeParse({ id: 'a' })).toEqual({ success: true, data: { id: 'a' } });
    const present = z.object(shape).safeParse({ id: 'a', note: undefined });
    expect(present.success && Object.hasOwn(present.data, 'note')).toBe(true);
    expect(failure(z.object(shape), {})).toBe('id: expected string');
    expect(failure(z.object({ value: z.unknown() }), {})).toBe('value: expected nonoptional');
    expect(failure(z.object(shape), [])).toBe('(root): expected object');
    expect(failure(z.object(shape), null)).toBe('(root): expected object');
  });

  it('reports every issue with its path', () => {
    const schema = z.object({ items: z.array(z.object({ n: z.number() })) });
    expect(failure(schema, { items: [{ n: 1 }, { n: 'x' }, {}] })).toBe('items.1.n: expected number; items.2.n: expected number');
  });
});

describe('primitives and checks', () => {
  it('accepts finite numbers only, and safe integers for int', () => {
    expect(failure(z.number(), Number.NaN)).toBe('(root): expected number');
    expect(failure(z.number(), Number.POSITIVE_INFINITY)).toBe('(root): expected number');
    expect(failure(z.int(), 1.5)).toBe('(root): expected int');
    expect(failure(z.int(), 2 ** 53)).toBe('(root): expected int');
    expect(z.int().safeParse(-3).success).toBe(true);
  });

  it('runs checks in order on the value the previous check left', () => {
    const schema = z.string().check(z.trim(), z.minLength(1), z.maxLength(3));
    expect(schema.safeParse('  ab  ')).toEqual({ success: true, data: 'ab' });
    expect(failure(schema, '   ')).toBe('(root): must be at least 1');
    expect(failure(schema, 'abcd')).toBe('(root): must be at most 3');
  });

  it('counts string lengths in code points', () => {
    expect(z.string().check(z.maxLength(2)).safeParse('😀😀').success).toBe(true);
    expect(z.string().check(z.maxLength(2)).safeParse('😀😀a').success).toBe(false);
    expect(z.string().check(z.minLength(3)).safeParse('😀😀').success).toBe(false);
    expect(z.string().check(z.minLength(2)).safeParse('😀😀').success).toBe(true);
    expect(z.string().check(z.minLength(2)).safeParse('😀a').success).toBe(true);
    // Far past a bound, the answer needs no counting (a 2-unit code point is the most a character takes).
    expect(z.string().check(z.maxLength(10)).safeParse('😀'.repeat(11)).success).toBe(false);
    expect(z.string().check(z.maxLength(10)).safeParse('😀'.repeat(10)).success).toBe(true);
    expect(z.string().check(z.maxLength(10)).safeParse('a'.repeat(50_000_000)).success).toBe(false);
    expect(z.string().check(z.minLength(10)).safeParse('😀'.repeat(10)).success).toBe(true);
  });

  it('bounds numbers inclusively or exclusively', () => {
    expect(failure(z.number().check(z.positive()), 0)).toBe('(root): must be more than 0');
    expect(failure(z.number().check(z.gte(1), z.lte(2)), 3)).toBe('(root): must be at most 2');
    expect(z.number().check(z.gt(1), z.lte(2)).safeParse(2).success).toBe(true);
  });

  it('skips checks when the type is wrong, and reports refinements with their message', () => {
    expect(failure(z.string().check(z.minLength(2)), 5)).toBe('(root): expected string');
    expect(failure(z.number().check(z.refine(Number.isSafeInteger, { error: 'expected an integer' })), 1.5)).toBe('(root): expected an integer');
    expect(failure(z.string().check(z.regex(/^a/)), 'b')).toBe('(root): must match /^a/');
    const refined = z.object({ a: z.string() }).check(
      z.superRefine((value, context) => {
        if (value.a === 'x') context.addIssue({ code: 'custom', path: ['a'], message: 'not x' });
      }),
    );
    expect(failure(refined, { a: 'x' })).toBe('a: not x');
  });

  it('accepts literals and enum members only', () => {
    expect(failure(z.enum(['a', 'b']), 'c')).toBe('(root): expected one of "a", "b"');
    expect(failure(z.literal('x'), 'y')).toBe('(root): expected one of "x"');
    expect(z.custom((value) => typeof value === 'function').safeParse(() => 1).success).toBe(true);
    expect(failure(z.custom(() => false, 'must be a function'), 1)).toBe('(root): must be a function');
  });
});

describe('unions', () => {
  it('takes the first option that matches', () => {
    const schema = z.union([z.object({ a: z.string() }), z.looseObject({ a: z.string() })]);
    expect(schema.safeParse({ a: 'x', b: 1 })).toEqual({ success: true, data: { a: 'x' } });
  });

  it('reports the one option whose shape matched, else that none did', () => {
    const schema = z.union([z.number(), z.string().check(z.maxLength(1))]);
    expect(failure(schema, 'ab')).toBe('(root): must be at most 1');
    expect(failure(schema, true)).toBe('(root): matches none of the allowed shapes');
  });

  it('reports every issue of the one matching option, however many (no spread into push)', () => {
    const schema = z.union([z.array(z.string().check(z.minLength(1))), z.number()]);
    const parsed = schema.safeParse(Array.from({ length: 200_000 }, () => ''));
    expect(parsed.success).toBe(false);
    expect(parsed.success ? 0 : parsed.error.issues.length).toBe(200_000);
  });

  it('chooses a discriminated option by its literal', () => {
    const schema = z.discriminatedUnion('type', [z.object({ type: z.literal('a'), n: z.number() }), z.object({ type: z.literal('b') })]);
    expect(schema.safeParse({ type: 'b', extra: 1 })).toEqual({ success: true, data: { type: 'b' } });
    expect(failure(schema, { type: 'a' })).toBe('n: expected number');
    expect(failure(schema, { type: '__proto__' })).toBe('type: matches none of the allowed shapes');
    expect(failure(schema, 'a')).toBe('(root): expected object');
  });

  it('makes a nullable optional key optional, and pipes through a transform', () => {
    expect(z.object({ a: z.nullable(z.optional(z.string())) }).safeParse({})).toEqual({ success: true, data: {} });
    const lengthOf = z.pipe(z.string(), z.transform((value: string) => value.length));
    expect(lengthOf.safeParse('abc')).toEqual({ success: true, data: 3 });
    expect(failure(lengthOf, 1)).toBe('(root): expected string');
  });
});
