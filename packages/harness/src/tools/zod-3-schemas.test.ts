// zod 3 schemas have no JSON Schema converter (~standard.jsonSchema). The types refuse them where
// a schema is taken (tsc checks the @ts-expect-error lines), and at run time the error names zod 3
// as the cause and gives the two fixes, both followed here until they work.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod-3';
import { createHarness, defineTool, type JsonSchemaToolInput, type ToolInputSchema } from '../index.js';
import { createScriptedModel, createTurnInput } from '../testing/index.js';
import { createToolRegistry } from './create-tool-registry.js';

const ZOD_3_MESSAGE = /This is a zod 3 schema: zod 3 has no JSON Schema converter \(~standard\.jsonSchema\).*Upgrade to zod \^4\.2\.0/;
const context = { assistantId: 'a', turnId: 't', iteration: 1, toolCallIndex: 0, signal: new AbortController().signal };

describe('zod 3 schemas', () => {
  const zod3 = z3.object({ city: z3.string() });

  it('are what zod 3 is: _def and safeParse, no _zod, and ~standard without jsonSchema', () => {
    expect(typeof zod3._def).toBe('object');
    expect('_zod' in zod3).toBe(false);
    expect(zod3['~standard'].vendor).toBe('zod');
    expect('jsonSchema' in zod3['~standard']).toBe(false);
  });

  it('are refused by the types wherever a schema is taken', () => {
    expectTypeOf<typeof zod3>().not.toMatchTypeOf<ToolInputSchema>();
    expectTypeOf<ReturnType<typeof z.object<{ city: z.ZodString }>>>().toMatchTypeOf<ToolInputSchema>();
    const tool = () =>
      defineTool({
        name: 'weather',
        description: 'Weather.',
        // @ts-expect-error -- a zod 3 schema has no ~standard.jsonSchema
        input: zod3,
        execute: () => 'sunny',
      });
    // @ts-expect-error -- the same for a turn's structured output
    const harness = () => createHarness({ model: createScriptedModel([]), output: zod3 });
    expect(tool).toThrow(expect.objectContaining({ field: 'input', message: expect.stringMatching(ZOD_3_MESSAGE) }));
    expect(harness).toThrow(expect.objectContaining({ field: 'output', message: expect.stringMatching(ZOD_3_MESSAGE) }));
  });

  it('name zod 3 as the cause also for zod before 3.24 (no ~standard at all)', () => {
    const { '~standard': _standard, ...older } = zod3;
    expect(older).not.toHaveProperty('~standard');
    expect(() => defineTool({ name: 'weather', description: 'Weather.', input: older as never, execute: () => 'sunny' })).toThrow(
      expect.objectContaining({ message: expect.stringMatching(ZOD_3_MESSAGE) }),
    );
  });

  it('the first fix works: the same schema in zod ^4.2 (classic)', async () => {
    const tool = defineTool({ name: 'weather', description: 'Weather.', input: z.object({ city: z.string() }), execute: ({ city }) => `${city}: sunny` });
    const registry = createToolRegistry([tool]);
    expect((await registry.listAvailable(context))[0]?.inputSchema).toMatchObject({ type: 'object', required: ['city'] });
    expect(await registry.execute({ id: 'c1', name: 'weather', input: { city: 'Oslo' } }, context)).toMatchObject({ output: 'Oslo: sunny' });
  });

  it('the second fix works: { jsonSchema, validate } around the zod 3 schema, typed from its validate', async () => {
    const input: JsonSchemaToolInput<{ city: string }> = {
      jsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      validate: (raw) => zod3['~standard'].validate(raw),
    };
    const tool = defineTool({
      name: 'weather',
      description: 'Weather.',
      input,
      execute: ({ city }) => {
        expectTypeOf(city).toEqualTypeOf<string>();
        return `${city}: sunny`;
      },
    });
    const harness = createHarness({
      model: createScriptedModel([
        { type: 'tool_request', calls: [{ id: 'c1', name: 'weather', input: { city: 'Oslo' } }] },
        { type: 'final_answer', text: 'Sunny.' },
      ]),
      tools: createToolRegistry([tool]),
    });
    const result = await harness.runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(result.transcript.find((item) => item.type === 'tool_result')).toMatchObject({ result: { status: 'success', output: 'Oslo: sunny' } });
    const registry = createToolRegistry([tool]);
    expect((await registry.execute({ id: 'c2', name: 'weather', input: { city: 1 } }, context)).error).toMatchObject({ code: 'invalid_input' });
  });
});
