import { describe, expect, it } from 'vitest';
import { toJsonSchema, validateWorkspaceInput, type WorkspaceInputSpec } from './workspace-input.js';

const spec: WorkspaceInputSpec = {
  name: { type: 'string', required: true, minLength: 1, maxLength: 5, description: 'A name.' },
  count: { type: 'integer', minimum: 1, maximum: 10, description: 'A count.' },
};

describe('workspace input specs', () => {
  it('produce a JSON Schema with required fields and no extra properties', () => {
    expect(toJsonSchema(spec)).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 5, description: 'A name.' },
        count: { type: 'integer', minimum: 1, maximum: 10, description: 'A count.' },
      },
      required: ['name'],
      additionalProperties: false,
    });
  });

  it('validate against the same rules', () => {
    expect(validateWorkspaceInput(spec, { name: 'ab', count: 3.0 })).toEqual({ ok: true, value: { name: 'ab', count: 3 } });
    expect(validateWorkspaceInput(spec, { name: 'ab', count: undefined })).toEqual({ ok: true, value: { name: 'ab' } });
    expect(validateWorkspaceInput(spec, [])).toMatchObject({ ok: false, field: '(input)' });
    expect(validateWorkspaceInput(spec, null)).toMatchObject({ ok: false, field: '(input)' });
    expect(validateWorkspaceInput(spec, { name: 'abcdef' })).toMatchObject({ ok: false, field: 'name', message: expect.stringContaining('at most 5') });
    expect(validateWorkspaceInput(spec, { name: 'a', count: Infinity })).toMatchObject({ ok: false, field: 'count' });
    expect(validateWorkspaceInput(spec, { name: 'a', count: [1] })).toMatchObject({ ok: false, message: expect.stringContaining('an array') });
    expect(validateWorkspaceInput(spec, { name: { first: 'a' } })).toMatchObject({ ok: false, message: expect.stringContaining('an object') });
  });
});
