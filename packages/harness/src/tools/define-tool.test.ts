import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import * as zm from 'zod/mini';
import * as z41 from 'zod-4-1';
import { z } from 'zod';
import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import type { HarnessToolCall, HarnessToolExecutionContext } from '../shared/types/tools.js';
import { createToolRegistry } from './create-tool-registry.js';
import { defineTool, type ToolContext } from './define-tool.js';
import { ToolExecutionError } from './tool-execution-error.js';
import { toolOutput } from './tool-output.js';

function context(signal: AbortSignal = new AbortController().signal): HarnessToolExecutionContext {
  return { assistantId: 'a', turnId: 't', iteration: 1, toolCallIndex: 0, signal };
}

function call(name: string, input: Record<string, unknown>, id = 'c1'): HarnessToolCall {
  return { id, name, input };
}

const weatherInput = z.object({
  city: z.string().min(1).describe('City name, e.g. Oslo'),
  units: z.enum(['celsius', 'fahrenheit']).optional().describe('Temperature units'),
  days: z.number().int().min(1).max(7).default(1),
});

describe('defineTool with a zod schema', () => {
  const weather = defineTool({
    name: 'get_weather',
    description: 'Weather forecast for a city.',
    input: weatherInput,
    execute: ({ city, units, days }) => ({ city, units: units ?? 'celsius', days }),
  });
  const registry = createToolRegistry([weather]);

  it('gives models JSON Schema with descriptions, optional fields and enums', async () => {
    const [definition] = await registry.listAvailable();
    expect(definition).toEqual({
      name: 'get_weather',
      description: 'Weather forecast for a city.',
      inputSchema: {
        type: 'object',
        properties: {
          city: { type: 'string', minLength: 1, description: 'City name, e.g. Oslo' },
          units: { type: 'string', enum: ['celsius', 'fahrenheit'], description: 'Temperature units' },
          days: { type: 'integer', minimum: 1, maximum: 7, default: 1 },
        },
        required: ['city'],
      },
    });
    expect(definition?.inputSchema).not.toHaveProperty('$schema');
  });

  it('runs execute with parsed input (defaults applied) and maps an object to structuredOutput', async () => {
    const result = await registry.execute(call('get_weather', { city: 'Oslo' }), context());
    expect(result).toEqual({
      callId: 'c1',
      toolName: 'get_weather',
      status: 'success',
      structuredOutput: { city: 'Oslo', units: 'celsius', days: 1 },
    });
  });

  it('returns a retryable invalid_input error naming every bad field, without running execute', async () => {
    let ran = false;
    const tool = defineTool({
      name: 'get_weather',
      description: 'Weather.',
      input: weatherInput,
      execute: () => {
        ran = true;
        return 'never';
      },
    });
    const result = await createToolRegistry([tool]).execute(call('get_weather', { city: 42, days: 9 }), context());
    expect(ran).toBe(false);
    expect(result.status).toBe('error');
    expect(result.error).toMatchObject({ code: 'invalid_input', retryable: true, metadata: { fields: ['city', 'days'] } });
    expect(result.error?.message).toMatch(
      /^Invalid input for get_weather: city: .+; days: .+\. Fix city, days and call the tool again\.$/
    );
  });

  it('types execute input from the schema', () => {
    defineTool({
      name: 'typed',
      description: 'Type check only.',
      input: weatherInput,
      requiresApproval: (input) => {
        expectTypeOf(input).toEqualTypeOf<{ city: string; units?: 'celsius' | 'fahrenheit' | undefined; days: number }>();
        return false;
      },
      execute: (input, ctx) => {
        expectTypeOf(input).toEqualTypeOf<{ city: string; units?: 'celsius' | 'fahrenheit' | undefined; days: number }>();
        expectTypeOf(ctx).toEqualTypeOf<ToolContext>();
        expectTypeOf(ctx.signal).toEqualTypeOf<AbortSignal>();
        return 'ok';
      },
    });
  });
});

describe('tool listings', () => {
  it('share one deep-frozen copy of each schema across listings, and leave the caller\'s JSON Schema as it was', async () => {
    const jsonSchema = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] };
    const registry = createToolRegistry([defineTool({ name: 'add', description: 'Adds.', input: { jsonSchema }, execute: () => 'ok' })]);
    const first = (await registry.listAvailable())[0]?.inputSchema as Record<string, { a: Record<string, unknown> }>;
    const second = (await registry.listAvailable())[0]?.inputSchema;
    expect(second).toBe(first);
    expect(first).toEqual(jsonSchema);
    expect(first).not.toBe(jsonSchema);
    expect(Object.isFrozen(first) && Object.isFrozen(first.properties) && Object.isFrozen(first.properties?.a)).toBe(true);
    expect(() => {
      first.properties!.a.type = 'string';
    }).toThrow(TypeError);
    expect(Object.isFrozen(jsonSchema.properties.a)).toBe(false);
    jsonSchema.properties.a.type = 'string';
    expect((await registry.listAvailable())[0]?.inputSchema).toEqual({ type: 'object', properties: { a: { type: 'number' } }, required: ['a'] });
  });
});

describe('defineTool with other schema forms', () => {
  it('accepts a hand-made Standard Schema that carries its own JSON Schema', async () => {
    type Input = { query: string };
    const schema: StandardSchemaV1<unknown, Input> & StandardJSONSchemaV1<unknown, Input> = {
      '~standard': {
        version: 1,
        vendor: 'hand-made',
        validate: (value) => {
          const query = (value as { query?: unknown }).query;
          return typeof query === 'string'
            ? { value: { query: query.trim() } }
            : { issues: [{ message: 'must be text', path: [{ key: 'query' }] }] };
        },
        jsonSchema: {
          input: () => ({ $schema: 'x', type: 'object', properties: { query: { type: 'string' } }, required: ['query'] }),
          output: () => ({ type: 'object' }),
        },
      },
    };
    const tool = defineTool({
      name: 'search',
      description: 'Search.',
      input: schema,
      execute: (input) => {
        expectTypeOf(input).toEqualTypeOf<Input>();
        return `found ${input.query}`;
      },
    });
    const registry = createToolRegistry([tool]);
    expect((await registry.listAvailable())[0]?.inputSchema).toEqual({
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
    });
    expect(await registry.execute(call('search', { query: '  cats ' }), context())).toMatchObject({
      status: 'success',
      output: 'found cats',
    });
    const bad = await registry.execute(call('search', { query: 1 }), context());
    expect(bad.error).toMatchObject({ code: 'invalid_input', retryable: true, metadata: { fields: ['query'] } });
    expect(bad.error?.message).toContain('query: must be text');
  });

  it('refuses a Standard Schema without JSON Schema and points to the JSON form', () => {
    const schema: StandardSchemaV1<unknown, { a: string }> = {
      '~standard': { version: 1, vendor: 'nojson', validate: (value) => ({ value: value as { a: string } }) },
    };
    // @ts-expect-error -- no ~standard.jsonSchema: the types refuse it as well
    expect(() => defineTool({ name: 'x', description: 'x', input: schema, execute: () => 'ok' })).toThrow(
      expect.objectContaining({ field: 'input', message: expect.stringMatching(/nojson.*jsonSchema, validate/) })
    );
  });

  it('names the installed zod version when a zod 4.1 schema lacks Standard JSON Schema, and says 4.2 is needed', () => {
    const input = z41.object({ id: z41.string() });
    // @ts-expect-error -- zod 4.1 has no ~standard.jsonSchema: the types refuse it as well
    expect(() => defineTool({ name: 'old', description: 'Old zod.', input, execute: () => 'x' })).toThrow(
      expect.objectContaining({ field: 'input', message: expect.stringMatching(/zod 4\.1\.12 schema.*zod \^4\.2\.0/) })
    );
    // @ts-expect-error -- zod/mini has no ~standard.jsonSchema: the types refuse it as well
    expect(() => defineTool({ name: 'mini', description: 'Mini.', input: zm.object({ id: zm.string() }), execute: () => 'x' })).toThrow(
      expect.objectContaining({ message: expect.stringMatching(/zod 4\.6\.7 schema/) })
    );
  });

  it('explains how to pass a zod/mini schema, which lacks a Standard JSON Schema converter, and the recipe works', async () => {
    const input = zm.object({ id: zm.string(), limit: zm.optional(zm.number()) });
    expect((input['~standard'] as Partial<StandardJSONSchemaV1.Props>).jsonSchema).toBeUndefined();
    // @ts-expect-error -- zod/mini has no ~standard.jsonSchema: the types refuse it as well
    expect(() => defineTool({ name: 'mini', description: 'Mini.', input, execute: () => 'x' })).toThrow(
      expect.objectContaining({ field: 'input', message: expect.stringContaining('z.toJSONSchema(schema)') })
    );
    const tool = defineTool({
      name: 'mini',
      description: 'Mini.',
      input: { jsonSchema: zm.toJSONSchema(input), validate: input['~standard'].validate },
      execute: ({ id, limit }) => {
        expectTypeOf(id).toEqualTypeOf<string>();
        return `${id}:${String(limit)}`;
      },
    });
    const registry = createToolRegistry([tool]);
    expect((await registry.listAvailable())[0]?.inputSchema).toMatchObject({
      type: 'object',
      properties: { id: { type: 'string' }, limit: { type: 'number' } },
      required: ['id'],
    });
    expect(await registry.execute(call('mini', { id: 'a', limit: 2 }), context())).toMatchObject({ output: 'a:2' });
    expect((await registry.execute(call('mini', { id: 1 }), context())).error).toMatchObject({
      code: 'invalid_input',
      metadata: { fields: ['id'] },
    });
  });

  it('accepts plain JSON Schema with a validator function', async () => {
    const tool = defineTool({
      name: 'lookup',
      description: 'Lookup.',
      input: {
        jsonSchema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
        validate: (raw: Record<string, unknown>): StandardSchemaV1.Result<{ id: number }> =>
          Number.isInteger(raw.id)
            ? { value: { id: raw.id as number } }
            : { issues: [{ message: 'expected an integer', path: ['id'] }] },
      },
      execute: ({ id }) => {
        expectTypeOf(id).toEqualTypeOf<number>();
        return String(id * 2);
      },
    });
    const registry = createToolRegistry([tool]);
    expect((await registry.listAvailable())[0]?.inputSchema).toEqual({
      type: 'object',
      properties: { id: { type: 'integer' } },
      required: ['id'],
    });
    expect(await registry.execute(call('lookup', { id: 21 }), context())).toMatchObject({ output: '42' });
    const bad = await registry.execute(call('lookup', { id: 1.5 }), context());
    expect(bad.error).toMatchObject({ code: 'invalid_input', retryable: true, metadata: { fields: ['id'] } });
  });

  it('checks required keys, types and enums of plain JSON Schema without a validator', async () => {
    const tool = defineTool({
      name: 'plain',
      description: 'Plain.',
      input: {
        jsonSchema: { type: 'object', properties: { mode: { enum: ['a', 'b'] }, n: { type: 'number' } }, required: ['mode'] },
      },
      execute: (input) => {
        expectTypeOf(input).toEqualTypeOf<Record<string, unknown>>();
        return JSON.stringify(input);
      },
    });
    const registry = createToolRegistry([tool]);
    expect(await registry.execute(call('plain', { mode: 'a', n: 1 }), context())).toMatchObject({ output: '{"mode":"a","n":1}' });
    const missing = await registry.execute(call('plain', { n: 'x' }), context());
    expect(missing.error?.metadata).toMatchObject({ fields: ['mode', 'n'] });
    const badEnum = await registry.execute(call('plain', { mode: 'c' }), context());
    expect(badEnum.error?.message).toContain('mode: expected one of "a", "b"');
  });

  it('refuses schemas that do not describe an object, and bad options, with HarnessConfigError', () => {
    const execute = () => 'ok';
    expect(() => defineTool({ name: 'x', description: 'x', input: z.string(), execute })).toThrow(HarnessConfigError);
    expect(() => defineTool({ name: 'bad name', description: 'x', input: weatherInput, execute })).toThrow(
      expect.objectContaining({ field: 'name' })
    );
    expect(() => defineTool({ name: 'x', description: ' ', input: weatherInput, execute })).toThrow(
      expect.objectContaining({ field: 'description' })
    );
    expect(() => defineTool({ name: 'x', description: 'x', input: weatherInput, timeoutMs: 0, execute })).toThrow(
      expect.objectContaining({ field: 'timeoutMs' })
    );
    expect(() => defineTool({ name: 'x', description: 'x', input: { jsonSchema: { type: 'string' } }, execute })).toThrow(
      expect.objectContaining({ field: 'input' })
    );
    expect(() => defineTool({ name: 'x', description: 'x', input: z.object({ when: z.date() }), execute })).toThrow(
      expect.objectContaining({ field: 'input', message: expect.stringContaining('cannot be expressed as JSON Schema') })
    );
    expect(() => defineTool({ name: 'x', description: 'x', input: {} as never, execute })).toThrow(
      expect.objectContaining({ field: 'input' })
    );
  });

  it('refuses malformed JSON Schema shapes at definition, naming the keyword and its path', () => {
    const execute = () => 'ok';
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { self: cyclic };
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'object', properties: 5 }, 'properties must be an object of schemas, not number 5'],
      [{ type: 'object', properties: { a: 'string' } }, 'properties.a must be a schema (object or boolean), not the string "string"'],
      [{ type: 'object', properties: { a: { type: 'text' } } }, 'properties.a.type must be one of string, number'],
      [{ type: 'object', required: 'a' }, 'required must be an array of property names'],
      [{ type: 'object', properties: { a: { type: 'array', items: 3 } } }, 'properties.a.items must be a schema'],
      [{ type: 'object', properties: { a: { anyOf: [] } } }, 'properties.a.anyOf must be a non-empty array of schemas'],
      [{ type: 'object', properties: { a: { enum: 'x' } } }, 'properties.a.enum must be an array'],
      [{ type: 'object', properties: { a: { type: 'string', pattern: '(' } } }, 'properties.a.pattern must be a regular expression'],
      [{ type: 'object', properties: { a: { type: 'string', maxLength: -1 } } }, 'properties.a.maxLength must be a whole number'],
      [cyclic, 'properties.self refers back to itself'],
    ];
    for (const [jsonSchema, message] of cases) {
      let thrown: unknown;
      try {
        defineTool({ name: 'x', description: 'x', input: { jsonSchema }, execute });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(HarnessConfigError);
      expect(thrown).toMatchObject({ field: 'input', message: expect.stringContaining(message) });
    }
    // Well-formed schemas of every common shape still pass, as do zod's own.
    const fine = {
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
        pair: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'string' }] },
        mode: { enum: ['a', 'b'], default: 'a' },
        any: true,
        either: { anyOf: [{ type: 'string', pattern: '^[a-z]+$' }, { type: 'null' }] },
      },
      required: ['tags'],
      additionalProperties: false,
      $defs: { node: { type: 'object' } },
    };
    expect(() => defineTool({ name: 'x', description: 'x', input: { jsonSchema: fine }, execute })).not.toThrow();
    expect(() => defineTool({ name: 'x', description: 'x', input: weatherInput, execute })).not.toThrow();
  });
});

describe('tool execution', () => {
  const input = z.object({ value: z.string() });

  it('maps a thrown error to a non-retryable tool_error', async () => {
    const tool = defineTool({
      name: 'boom',
      description: 'Boom.',
      input,
      execute: () => {
        throw new Error('disk full');
      },
    });
    const result = await createToolRegistry([tool]).execute(call('boom', { value: 'x' }), context());
    expect(result).toEqual({
      callId: 'c1',
      toolName: 'boom',
      status: 'error',
      error: { code: 'tool_error', message: 'boom failed: disk full', retryable: false },
    });
  });

  it('maps a ToolExecutionError to its reason, retryable flag and metadata', async () => {
    const tool = defineTool({
      name: 'find',
      description: 'Find.',
      input,
      execute: async ({ value }) => {
        throw new ToolExecutionError(`No record ${value}.`, { reason: 'not_found', retryable: true, metadata: { value } });
      },
    });
    const result = await createToolRegistry([tool]).execute(call('find', { value: 'x' }), context());
    expect(result.error).toEqual({ code: 'not_found', message: 'No record x.', retryable: true, metadata: { value: 'x' } });
    const error = new ToolExecutionError('m');
    expect(error.code).toBe('HARNESS_ERR_TOOL_EXECUTION');
    expect(ToolExecutionError.isInstance(error)).toBe(true);
    expect(ToolExecutionError.isInstance(new Error('m'))).toBe(false);
  });

  it('maps strings, toolOutput, arrays and nothing to results', async () => {
    const outputs: unknown[] = ['text', toolOutput({ text: 'both', data: { n: 1, at: new Date(0) } }), [1, 2], undefined];
    let index = 0;
    const tool = defineTool({ name: 'many', description: 'Many.', input, execute: () => outputs[index++] as never });
    const registry = createToolRegistry([tool]);
    const results = [];
    for (let i = 0; i < outputs.length; i += 1) results.push(await registry.execute(call('many', { value: 'v' }), context()));
    expect(results.map(({ output, structuredOutput }) => ({ output, structuredOutput }))).toEqual([
      { output: 'text', structuredOutput: undefined },
      { output: 'both', structuredOutput: { n: 1, at: '1970-01-01T00:00:00.000Z' } },
      { output: undefined, structuredOutput: { items: [1, 2] } },
      { output: '', structuredOutput: undefined },
    ]);
  });

  it('stops a hanging tool at timeoutMs: aborts its signal and returns a retryable timeout', async () => {
    let toolSignal: AbortSignal | undefined;
    const tool = defineTool({
      name: 'hang',
      description: 'Hangs.',
      input,
      timeoutMs: 20,
      execute: (_input, ctx) => {
        toolSignal = ctx.signal;
        return new Promise<string>(() => undefined);
      },
    });
    vi.useFakeTimers();
    try {
      const pending = createToolRegistry([tool]).execute(call('hang', { value: 'x' }), context());
      await vi.advanceTimersByTimeAsync(19);
      expect(toolSignal?.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const result = await pending;
      expect(result.error).toEqual({
        code: 'timeout',
        message: 'hang did not finish within 20 ms and was stopped.',
        retryable: true,
      });
      expect(toolSignal?.aborted).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('passes the turn signal down: aborting the turn aborts the tool and ends the call', async () => {
    const turn = new AbortController();
    let seen: { callId: string; toolName: string; turnId: string } | undefined;
    const tool = defineTool({
      name: 'wait',
      description: 'Waits for abort.',
      input,
      execute: (_input, ctx) =>
        new Promise<string>((resolve) => {
          seen = { callId: ctx.callId, toolName: ctx.toolName, turnId: ctx.turnId };
          ctx.signal.addEventListener('abort', () => resolve('saw abort'));
          turn.abort();
        }),
    });
    const result = await createToolRegistry([tool]).execute(call('wait', { value: 'x' }, 'call-7'), context(turn.signal));
    expect(seen).toEqual({ callId: 'call-7', toolName: 'wait', turnId: 't' });
    expect(result.error).toMatchObject({ code: 'aborted', retryable: true });
  });

  it('does not start a tool when the turn is already aborted', async () => {
    let ran = false;
    const tool = defineTool({
      name: 'never',
      description: 'x',
      input,
      execute: () => {
        ran = true;
      },
    });
    const turn = new AbortController();
    turn.abort();
    const result = await createToolRegistry([tool]).execute(call('never', { value: 'x' }), context(turn.signal));
    expect(ran).toBe(false);
    expect(result.error?.code).toBe('aborted');
  });

  it('passes requiresApproval through, calling a rule with the parsed input', async () => {
    const seen: unknown[] = [];
    const transfer = defineTool({
      name: 'transfer',
      description: 'Moves money.',
      input: z.object({ amount: z.coerce.number() }),
      requiresApproval: (parsed) => {
        seen.push(parsed);
        return parsed.amount > 100;
      },
      execute: ({ amount }) => `moved ${amount}`,
    });
    const always = defineTool({ name: 'delete_all', description: 'x', input, requiresApproval: true, execute: () => 'gone' });
    const never = defineTool({ name: 'read', description: 'x', input, execute: () => 'read' });
    const definitions = await createToolRegistry([transfer, always, never]).listAvailable();
    const rule = definitions[0]?.requiresApproval;
    expect(typeof rule).toBe('function');
    const check = rule as (input: Record<string, unknown>) => boolean;
    expect(check({ amount: '500' })).toBe(true);
    expect(check({ amount: 5 })).toBe(false);
    expect(check({ amount: 'lots' })).toBe(false);
    expect(seen).toEqual([{ amount: 500 }, { amount: 5 }]);
    expect(definitions[1]?.requiresApproval).toBe(true);
    expect(definitions[2]).not.toHaveProperty('requiresApproval');
  });

  it('asks for approval when the schema validates asynchronously', async () => {
    const asyncSchema = z.object({ a: z.string() }).refine(async () => true);
    const tool = defineTool({
      name: 'async_check',
      description: 'x',
      input: asyncSchema,
      requiresApproval: () => false,
      execute: () => 'ok',
    });
    const [definition] = await createToolRegistry([tool]).listAvailable();
    expect((definition?.requiresApproval as (input: Record<string, unknown>) => boolean)({ a: 'x' })).toBe(true);
  });
});

describe('the typed-tool and tool-output guards on hostile values', () => {
  it('answer false for a Proxy whose traps throw, instead of throwing', async () => {
    const { isTypedTool } = await import('./define-tool.js');
    const { isToolOutput } = await import('./tool-output.js');
    const hostile = new Proxy({}, { has: () => { throw new Error('trap'); }, get: () => { throw new Error('trap'); } });
    expect(isTypedTool(hostile)).toBe(false);
    expect(isToolOutput(hostile)).toBe(false);
  });
});

describe('a typed registry called with hostile arguments', () => {
  const echo = defineTool({ name: 'echo', description: 'Echoes.', input: z.object({ text: z.string() }), execute: ({ text }) => text });

  it('rejects, never throws at the call, when a getter of the call or the context throws', async () => {
    const registry = createToolRegistry([echo]);
    const throwing = (field: string) => {
      throw new Error(`${field} getter`);
    };
    const hostileCall = { id: 'c1', get name(): string { return throwing('name'); }, input: { text: 'x' } };
    const hostileContext = { ...context(), get signal(): AbortSignal { return throwing('signal'); } };
    let pending: Promise<unknown> | undefined;
    expect(() => {
      pending = registry.execute(hostileCall, context());
    }).not.toThrow();
    await expect(pending).rejects.toThrow('name getter');
    expect(() => {
      pending = registry.execute(call('echo', { text: 'x' }), hostileContext);
    }).not.toThrow();
    await expect(pending).rejects.toThrow('signal getter');
  });
});
