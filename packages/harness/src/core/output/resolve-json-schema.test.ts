import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkSchemaShape, resolveJsonSchema } from './resolve-json-schema.js';

describe('resolveJsonSchema', () => {
  it('caches the derived schema per schema object, whoever asks', () => {
    const schema = z.object({ a: z.string() });
    const first = resolveJsonSchema({ label: 'Tool t', field: 'input' }, schema);
    expect(resolveJsonSchema({ label: 'createHarness', field: 'output' }, schema)).toBe(first);
  });

  it('words its errors with the owner and field', () => {
    expect(() => checkSchemaShape({ label: 'Tool t', field: 'input' }, 1)).toThrow('Tool t: input must be a schema.');
    expect(() => checkSchemaShape({ label: 'createHarness', field: 'output' }, { jsonSchema: null })).toThrow(
      'createHarness: output.jsonSchema must be a JSON Schema object.',
    );
  });
});
