import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseSchemaValue } from './parse-schema-value.js';

describe('parseSchemaValue', () => {
  it('validates with a Standard Schema and formats issue paths', async () => {
    expect(await parseSchemaValue(z.object({ a: z.number() }), { a: 1 })).toEqual({ ok: true, value: { a: 1 } });
    expect(await parseSchemaValue(z.object({ a: z.object({ b: z.number() }) }), { a: { b: 'x' } })).toMatchObject({
      ok: false,
      issues: [{ path: 'a.b' }],
    });
  });

  it('checks the { jsonSchema } form lightly without a validator', () => {
    const schema = { jsonSchema: { type: 'object', properties: { a: { type: 'string', enum: ['x'] } }, required: ['a'] } };
    expect(parseSchemaValue(schema, [])).toEqual({ ok: false, issues: [{ path: '', message: 'expected an object' }] });
    expect(parseSchemaValue(schema, {})).toEqual({ ok: false, issues: [{ path: 'a', message: 'required' }] });
    expect(parseSchemaValue(schema, { a: 'y' })).toEqual({ ok: false, issues: [{ path: 'a', message: 'expected one of "x"' }] });
    expect(parseSchemaValue(schema, { a: 'x' })).toEqual({ ok: true, value: { a: 'x' } });
  });

  it('reads only own keys in the light check: __proto__ and constructor are plain names', () => {
    const schema = { jsonSchema: { type: 'object', properties: { constructor: { type: 'string' } }, required: ['__proto__', 'toString'] } };
    expect(parseSchemaValue(schema, {})).toEqual({
      ok: false,
      issues: [
        { path: '__proto__', message: 'required' },
        { path: 'toString', message: 'required' },
      ],
    });
    const hostile = JSON.parse('{"__proto__": 1, "toString": 2, "constructor": 5}') as Record<string, unknown>;
    expect(parseSchemaValue(schema, hostile)).toEqual({ ok: false, issues: [{ path: 'constructor', message: 'expected string' }] });
    const typed = { jsonSchema: { type: 'object', properties: { a: { type: 'constructor' }, hasOwnProperty: { type: 'string' } } } };
    expect(parseSchemaValue(typed, { a: 1, hasOwnProperty: 'x', valueOf: 3 })).toEqual({ ok: true, value: { a: 1, hasOwnProperty: 'x', valueOf: 3 } });
  });
});
