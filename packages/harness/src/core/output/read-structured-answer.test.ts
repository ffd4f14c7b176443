import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readStructuredAnswer } from './read-structured-answer.js';

const schema = z.object({ a: z.number() });

describe('readStructuredAnswer', () => {
  it.each([
    ['{"a":1}', '{"a":1}'],
    ['  {"a":1}\n', '{"a":1}'],
    ['```json\n{"a":1}\n```', '{"a":1}'],
    ['```\n{"a":1}\n```', '{"a":1}'],
    ['Sure!\n```JSON\n{"a":1}\n```\nBye', '{"a":1}'],
    ['```json\n{"a":1}\n``` or ```json\n{}\n```', '{"a":1}'],
  ])('reads %j', async (text, json) => {
    expect(await readStructuredAnswer(schema, { text })).toEqual({ ok: true, value: { a: 1 }, text: json });
  });

  it('prefers value over text', async () => {
    expect(await readStructuredAnswer(schema, { text: 'ignored', value: { a: 2 } })).toEqual({ ok: true, value: { a: 2 }, text: '{"a":2}' });
  });

  it.each([
    ['', /^The answer is empty/],
    ['{"a":1', /^The answer is not valid JSON/],
    ['```json\nnot json\n```', /^The answer is not valid JSON/],
    ['{"a":"1"}', /^The answer does not match the output schema: a: /],
    ['[]', /^The answer does not match the output schema: \(root\): /],
  ])('refuses %j', async (text, reason) => {
    const read = await readStructuredAnswer(schema, { text });
    expect(read.ok).toBe(false);
    expect(read.ok ? '' : read.reason).toMatch(reason);
  });

  it('refuses a value too deep to keep', async () => {
    let value: unknown = 1;
    for (let level = 0; level < 100; level += 1) value = { a: value };
    const read = await readStructuredAnswer(z.unknown(), { text: '', value });
    expect(read).toMatchObject({ ok: false, reason: expect.stringMatching(/^The answer cannot be used: it is nested deeper/) });
  });
});
