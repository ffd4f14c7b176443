import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { outputFormat, outputInstructions, resolveOutput, STRUCTURED_OUTPUT_NAME } from './resolve-output.js';

describe('resolveOutput', () => {
  it('derives the JSON Schema once and hands out fresh copies', () => {
    const resolved = resolveOutput(z.object({ a: z.string() }).describe('The answer'), 'createHarness');
    const first = outputFormat(resolved);
    expect(first).toEqual({ name: STRUCTURED_OUTPUT_NAME, description: 'The answer', jsonSchema: expect.objectContaining({ type: 'object' }) });
    expect(first.jsonSchema).not.toHaveProperty('$schema');
    first.jsonSchema.type = 'array';
    expect(outputFormat(resolved).jsonSchema.type).toBe('object');
  });

  it('names where the schema came from in its errors', () => {
    expect(() => resolveOutput({ jsonSchema: { type: 'array' } }, 'runTurn')).toThrow(
      'runTurn: the output schema must describe an object (type: "object").',
    );
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.self = cyclic;
    expect(() => resolveOutput({ jsonSchema: cyclic }, 'createHarness')).toThrow(/createHarness: the output JSON Schema must be plain JSON/);
  });

  it('writes the instruction for prompts', () => {
    expect(outputInstructions({ jsonSchema: { type: 'object' } })).toBe(
      'Answer with only a JSON value matching this JSON Schema, with no other text:\n{"type":"object"}',
    );
  });
});
