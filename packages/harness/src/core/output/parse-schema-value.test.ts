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
});
