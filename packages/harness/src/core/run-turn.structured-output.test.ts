import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import {
  createHarness,
  HarnessConfigError,
  STRUCTURED_OUTPUT_NAME,
  type HarnessModelConfig,
  type HarnessModelOutput,
  type HarnessStreamEvent,
  type JsonSchemaToolInput,
} from '../index.js';
import { createFakeToolRegistry, createManualClock, createScriptedModel, createTurnInput, type ScriptedModel } from '../testing/index.js';

const city = z.object({ city: z.string(), days: z.number().int().min(1) });
const answer = (text: string, extra: Partial<HarnessModelOutput> = {}): HarnessModelOutput => ({ type: 'final_answer', text, ...extra }) as HarnessModelOutput;

function harnessFor(model: ScriptedModel, extra: Partial<Omit<HarnessModelConfig, 'model'>> = {}) {
  return createHarness({ model, clock: createManualClock(), output: city, ...extra });
}

describe('structured final output: accepted answers', () => {
  it('parses a JSON answer into result.output and asks every step for the schema', async () => {
    const model = createScriptedModel([answer('{"city":"Oslo","days":3}')]);
    const result = await harnessFor(model).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'completed', stopReason: 'answer_finalized', output: { city: 'Oslo', days: 3 } });
    expect(result.assistantMessage).toEqual({ text: '{"city":"Oslo","days":3}' });
    const format = model.calls[0]!.output!;
    expect(format.name).toBe(STRUCTURED_OUTPUT_NAME);
    expect(format.name).toBe('structured_output');
    expect(format.jsonSchema).toMatchObject({ type: 'object', properties: { city: { type: 'string' } }, required: ['city', 'days'] });
    expect(format.jsonSchema).not.toHaveProperty('$schema');
  });

  it('tolerates a fenced ```json block, alone or inside prose', async () => {
    const model = createScriptedModel([
      answer('```json\n{ "city": "Bergen", "days": 1 }\n```'),
      answer('Here you go:\n\n```json\n{"city":"Oslo","days":2}\n```\nEnjoy!'),
    ]);
    const harness = harnessFor(model);
    const fenced = await harness.runTurn(createTurnInput());
    expect(fenced.output).toEqual({ city: 'Bergen', days: 1 });
    expect(fenced.assistantMessage?.text).toBe('{ "city": "Bergen", "days": 1 }');
    const embedded = await harness.runTurn(createTurnInput());
    expect(embedded.output).toEqual({ city: 'Oslo', days: 2 });
    expect(embedded.assistantMessage?.text).toBe('{"city":"Oslo","days":2}');
  });

  it('takes the value a provider received (a forced answer tool) over the text', async () => {
    const model = createScriptedModel([answer('', { value: { city: 'Tromsø', days: 2 } } as Partial<HarnessModelOutput>)]);
    const result = await harnessFor(model).runTurn(createTurnInput());
    expect(result.output).toEqual({ city: 'Tromsø', days: 2 });
    expect(result.assistantMessage?.text).toBe('{"city":"Tromsø","days":2}');
    expect(result.transcript.at(-1)).toMatchObject({ type: 'assistant_step', outputType: 'final_answer', text: '{"city":"Tromsø","days":2}' });
  });

  it('gives the validator’s value (defaults and transforms applied)', async () => {
    const schema = z.object({ name: z.string().transform((name) => name.toUpperCase()), tags: z.array(z.string()).default([]) });
    const model = createScriptedModel([answer('{"name":"oslo"}')]);
    const result = await createHarness({ model, output: schema }).runTurn(createTurnInput());
    expect(result.output).toEqual({ name: 'OSLO', tags: [] });
  });

  it('leaves answers alone without a schema', async () => {
    const model = createScriptedModel([answer('not json')]);
    const result = await createHarness({ model }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'not json' } });
    expect(result).not.toHaveProperty('output');
    expect(model.calls[0]!.output).toBeUndefined();
  });

  it('sends each step a fresh copy of the JSON Schema', async () => {
    const model = createScriptedModel([
      (input) => {
        (input.output!.jsonSchema as Record<string, unknown>).type = 'array';
        return answer('nope');
      },
      answer('{"city":"Oslo","days":1}'),
    ]);
    const result = await harnessFor(model).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(model.calls[1]!.output!.jsonSchema.type).toBe('object');
  });
});

describe('structured final output: answers that do not validate', () => {
  it('retries with the validation issues told to the model, then accepts the corrected answer', async () => {
    const onInvalidModelOutput = vi.fn();
    const model = createScriptedModel([answer('{"city":42}'), answer('{"city":"Oslo","days":3}')]);
    const result = await harnessFor(model, { hooks: { onInvalidModelOutput } }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'completed', output: { city: 'Oslo', days: 3 } });
    const invalid = result.transcript[0];
    expect(invalid).toMatchObject({ type: 'invalid_output', iteration: 1, kind: 'schema_mismatch' });
    const reason = invalid?.type === 'invalid_output' ? invalid.reason : '';
    expect(reason).toMatch(/^The answer does not match the output schema: /);
    expect(reason).toContain('city: ');
    expect(reason).toContain('days: ');
    // The next step sees it in its transcript (providers replay it as a note).
    expect(model.calls[1]!.transcript).toEqual([invalid]);
    expect(onInvalidModelOutput).toHaveBeenCalledTimes(1);
    expect(onInvalidModelOutput.mock.calls[0]![0]).toEqual({ type: 'invalid', kind: 'schema_mismatch', reason });
  });

  it('treats text that is not JSON as an invalid output', async () => {
    const model = createScriptedModel([answer('Oslo, for three days.'), answer('  '), answer('{"city":"Oslo","days":3}')]);
    const result = await harnessFor(model).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(result.transcript.slice(0, 2).map((item) => (item.type === 'invalid_output' ? item.reason : item.type))).toEqual([
      'The answer is not valid JSON; answer with only a JSON value matching the output schema.',
      'The answer is empty; answer with only a JSON value matching the output schema.',
    ]);
  });

  it('fails model_invalid_response once maxConsecutiveInvalidModelOutputs is spent', async () => {
    const model = createScriptedModel([answer('{"city":1}'), answer('[1,2]'), answer('{"city":"Oslo","days":3}')]);
    const result = await harnessFor(model, { limits: { maxConsecutiveInvalidModelOutputs: 1 } }).runTurn(createTurnInput());
    expect(result).toMatchObject({
      outcome: 'failed',
      stopReason: 'model_invalid_response',
      error: { code: 'schema_mismatch', source: 'model', retryable: true },
      metadata: { consecutiveInvalidOutputs: 2 },
    });
    expect(result.error?.message).toMatch(/^The answer does not match the output schema: \(root\): /);
    expect(result).not.toHaveProperty('output');
    expect(result.assistantMessage).toBeUndefined();
    expect(model.remaining()).toBe(1);
  });

  it('lists at most ten issues, each bounded', async () => {
    const shape = Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`field${index}`, z.string()]));
    const model = createScriptedModel([answer('{}')]);
    const result = await createHarness({ model, output: z.object(shape), limits: { maxConsecutiveInvalidModelOutputs: 0 } }).runTurn(
      createTurnInput(),
    );
    expect(result.error?.message).toContain('field9: ');
    expect(result.error?.message).not.toContain('field10: ');
    expect(result.error?.message).toMatch(/; and 20 more\.$/);
  });

  it('fails runtime_error when the schema’s own validator throws', async () => {
    const throwing: JsonSchemaToolInput<{ a: string }> = {
      jsonSchema: { type: 'object' },
      validate: () => {
        throw new Error('validator broke');
      },
    };
    const model = createScriptedModel([answer('{"a":"x"}')]);
    const result = await createHarness({ model, output: throwing }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'runtime_error', error: { source: 'output.validate' } });
    expect(result.error?.message).toContain('validator broke');
  });

  it('refuses a turn that also offers a tool named structured_output', async () => {
    const model = createScriptedModel([answer('{"city":"Oslo","days":1}')]);
    const tools = createFakeToolRegistry({ structured_output: () => 'x' });
    const result = await harnessFor(model, { tools }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'runtime_error', error: { source: 'output' } });
    expect(result.error?.message).toContain('A tool is named "structured_output"');
    expect(model.calls).toHaveLength(0);
  });
});

describe('structured final output: schemas per call', () => {
  const list = z.object({ items: z.array(z.string()) });

  it('lets runTurn replace the harness schema for one turn', async () => {
    const model = createScriptedModel([answer('{"items":["a","b"]}'), answer('{"city":"Oslo","days":1}')]);
    const harness = harnessFor(model);
    const overridden = await harness.runTurn(createTurnInput(), { output: list });
    expect(overridden.output).toEqual({ items: ['a', 'b'] });
    expect(model.calls[0]!.output!.jsonSchema).toMatchObject({ properties: { items: { type: 'array' } } });
    const next = await harness.runTurn(createTurnInput());
    expect(next.output).toEqual({ city: 'Oslo', days: 1 });
  });

  it('gives a harness without a schema one for a single turn', async () => {
    const model = createScriptedModel([answer('{"items":[]}'), answer('plain')]);
    const harness = createHarness({ model });
    expect((await harness.runTurn(createTurnInput(), { output: list })).output).toEqual({ items: [] });
    const plain = await harness.runTurn(createTurnInput());
    expect(plain).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'plain' } });
    expect(plain).not.toHaveProperty('output');
  });
});

describe('structured final output: configuration errors', () => {
  const model = createScriptedModel([]);

  it.each([
    ['a string', 'schema', /createHarness: output must be a schema\./, 'output'],
    ['no validate', { '~standard': { vendor: 'x', version: 1 } }, /must be a zod 4 schema, a Standard Schema/, 'output'],
    ['a non-object JSON Schema', { jsonSchema: { type: 'array', items: {} } }, /the output schema must describe an object/, 'output'],
    ['a bad validate', { jsonSchema: { type: 'object' }, validate: 'yes' }, /output\.validate must be a function/, 'output.validate'],
    ['a zod/mini schema', zm.object({ a: zm.string() }), /has no ~standard\.jsonSchema.*pass output: \{ jsonSchema: z\.toJSONSchema/, 'output'],
    ['a non-JSON schema', { jsonSchema: { type: 'object', default: 10n } }, /the output JSON Schema must be plain JSON/, 'output'],
  ])('createHarness refuses %s naming the field', (_name, output, message, field) => {
    let thrown: unknown;
    try {
      createHarness({ model, output: output as never });
    } catch (error) {
      thrown = error;
    }
    expect(HarnessConfigError.isInstance(thrown)).toBe(true);
    expect((thrown as HarnessConfigError).message).toMatch(message);
    expect((thrown as HarnessConfigError).field).toBe(field);
  });

  it('runTurn rejects and streamTurn throws for a bad per-call schema; nothing runs', async () => {
    const scripted = createScriptedModel([answer('x')]);
    const harness = createHarness({ model: scripted });
    await expect(harness.runTurn(createTurnInput(), { output: { jsonSchema: { type: 'string' } } })).rejects.toMatchObject({
      name: 'HarnessConfigError',
      field: 'output',
      message: expect.stringContaining('runTurn: the output schema must describe an object'),
    });
    expect(() => harness.streamTurn(createTurnInput(), { output: null as never })).toThrow(/streamTurn: output must be a schema/);
    expect(scripted.calls).toHaveLength(0);
  });
});

describe('structured final output: streaming', () => {
  it('streams an output event right before the result', async () => {
    const model = createScriptedModel([
      answer('{"city":1}'),
      { deltas: ['{"city":', '"Oslo","days":2}'], output: answer('{"city":"Oslo","days":2}') },
    ]);
    const stream = harnessFor(model).streamTurn(createTurnInput());
    const events: HarnessStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.slice(-3).map((event) => event.type)).toEqual(['step_finished', 'output', 'result']);
    expect(events.at(-2)).toEqual({ type: 'output', output: { city: 'Oslo', days: 2 } });
    expect(events.filter((event) => event.type === 'output')).toHaveLength(1);
    const result = await stream.result;
    expect(result.output).toEqual({ city: 'Oslo', days: 2 });
    expect(events.filter((event) => event.type === 'text_delta' && event.iteration === 2).map((event) => (event as { text: string }).text)).toEqual([
      '{"city":',
      '"Oslo","days":2}',
    ]);
  });

  it('streams the answer as it grows as output_partial events, per step, before the output event', async () => {
    const text = '{"city": "Oslo", "days": 2, "sights": ["Opera", "Vigeland park"]}';
    const deltas = text.match(/.{1,6}/gs) ?? [];
    const model = createScriptedModel([{ deltas: ['{"city": 1', '}'], output: answer('{"city": 1}') }, { deltas, output: answer(text) }]);
    const events: HarnessStreamEvent[] = [];
    for await (const event of harnessFor(model).streamTurn(createTurnInput())) events.push(event);
    const partials = events.flatMap((event) => (event.type === 'output_partial' ? [event] : []));
    expect(partials.filter((event) => event.iteration === 1).map((event) => event.output)).toEqual([{}, { city: 1 }]);
    const second = partials.filter((event) => event.iteration === 2).map((event) => event.output);
    expect(second[0]).toEqual({});
    expect(second).toContainEqual({ city: 'Os' });
    const cutSight = second.find((value) => {
      const sights = (value as { sights?: string[] }).sights;
      return sights?.length === 2 && sights[1] !== 'Vigeland park' && 'Vigeland park'.startsWith(sights[1] ?? 'x');
    });
    expect(cutSight).toMatchObject({ city: 'Oslo', days: 2 });
    expect(second.at(-1)).toEqual({ city: 'Oslo', days: 2, sights: ['Opera', 'Vigeland park'] });
    expect(new Set(second.map((value) => JSON.stringify(value))).size).toBe(second.length);
    const types = events.map((event) => event.type);
    expect(types.lastIndexOf('output_partial')).toBeLessThan(types.indexOf('output'));
  });

  it('streams no output_partial without an output schema, or for an answer that is not JSON', async () => {
    const prose = createScriptedModel([{ deltas: ['Sure, ', '{"a": 1}'], output: { type: 'final_answer', text: 'Sure, {"a": 1}' } }]);
    const plain: string[] = [];
    for await (const event of createHarness({ model: prose }).streamTurn(createTurnInput())) plain.push(event.type);
    expect(plain).not.toContain('output_partial');
    const notJson = createScriptedModel([{ deltas: ['Sure, ', 'here'], output: answer('{"city":"Oslo","days":1}') }]);
    const typed: string[] = [];
    for await (const event of harnessFor(notJson).streamTurn(createTurnInput())) typed.push(event.type);
    expect(typed).not.toContain('output_partial');
    expect(typed).toContain('output');
  });

  it('sends no output event when the answer never validates', async () => {
    const model = createScriptedModel([answer('x'), answer('y')]);
    const stream = harnessFor(model, { limits: { maxConsecutiveInvalidModelOutputs: 1 } }).streamTurn(createTurnInput());
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).not.toContain('output');
    expect((await stream.result).stopReason).toBe('model_invalid_response');
  });
});

describe('structured final output: resumed turns', () => {
  const clarify: HarnessModelOutput = { type: 'clarification', question: 'Which city?' };

  it('enforces the schema given to resumeTurn, with retries', async () => {
    const model = createScriptedModel([clarify, answer('{"city":"Oslo"}'), answer('{"city":"Oslo","days":4}')]);
    const harness = createHarness({ model, clock: createManualClock() });
    const paused = await harness.runTurn(createTurnInput(), { output: city });
    expect(paused).toMatchObject({ outcome: 'needs_clarification' });
    expect(paused).not.toHaveProperty('output');
    const resumed = await harness.resumeTurn(paused.continuation, { type: 'clarification', answer: 'Oslo' }, { output: city });
    expect(resumed).toMatchObject({ outcome: 'completed', output: { city: 'Oslo', days: 4 } });
    expect(model.calls[1]!.output?.name).toBe('structured_output');
    expect(resumed.transcript.filter((item) => item.type === 'invalid_output')).toHaveLength(1);
  });

  it('uses the harness schema on resume, and a resume’s own schema over it', async () => {
    const model = createScriptedModel([clarify, answer('{"city":"Oslo","days":1}'), clarify, answer('{"items":["x"]}')]);
    const harness = harnessFor(model);
    const first = await harness.runTurn(createTurnInput());
    const resumed = await harness.resumeTurn(first.continuation, { type: 'clarification', answer: 'Oslo' });
    expect(resumed.output).toEqual({ city: 'Oslo', days: 1 });
    const second = await harness.runTurn(createTurnInput({ turnId: 'turn-2' }));
    const list = z.object({ items: z.array(z.string()) });
    const own = await harness.resumeTurn(second.continuation, { type: 'clarification', answer: 'a list' }, { output: list });
    expect(own.output).toEqual({ items: ['x'] });
  });

  it('enforces it after an approval resume too', async () => {
    const tools = createFakeToolRegistry({ book: { execute: () => 'booked', requiresApproval: true } });
    const model = createScriptedModel([
      { type: 'tool_request', calls: [{ id: 'b1', name: 'book', input: {} }] },
      answer('Booked!'),
      answer('{"city":"Oslo","days":2}'),
    ]);
    const harness = createHarness({ model, tools, clock: createManualClock() });
    const paused = await harness.runTurn(createTurnInput(), { output: city });
    expect(paused.outcome).toBe('awaiting_approval');
    const resumed = await harness.resumeTurn(paused.continuation, { type: 'approval', decisions: { b1: 'approved' } }, { output: city });
    expect(resumed).toMatchObject({ outcome: 'completed', output: { city: 'Oslo', days: 2 } });
  });

  it('rejects a bad schema given to resumeTurn', async () => {
    const harness = createHarness({ model: createScriptedModel([]) });
    await expect(harness.resumeTurn({}, { type: 'deferred' }, { output: 'x' as never })).rejects.toMatchObject({
      name: 'HarnessConfigError',
      field: 'output',
    });
  });
});

describe('structured final output: hostile answers', () => {
  const loose: JsonSchemaToolInput = { jsonSchema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } };

  it('keeps a __proto__ key in a JSON answer as plain data', async () => {
    const model = createScriptedModel([answer('{"__proto__":{"polluted":true},"a":"x"}')]);
    const result = await createHarness({ model, output: loose }).runTurn(createTurnInput());
    const output = result.output as Record<string, unknown>;
    expect(result.outcome).toBe('completed');
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect(Object.keys(output)).toEqual(['__proto__', 'a']);
    expect(Object.getOwnPropertyDescriptor(output, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps a __proto__ key in a provider value as plain data', async () => {
    const value = JSON.parse('{"a":"x","__proto__":{"polluted":true}}') as unknown;
    const model = createScriptedModel([answer('', { value } as Partial<HarnessModelOutput>)]);
    const result = await createHarness({ model, output: loose }).runTurn(createTurnInput());
    const output = result.output as Record<string, unknown>;
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect(Object.hasOwn(output, '__proto__')).toBe(true);
    expect(result.assistantMessage?.text).toBe('{"a":"x","__proto__":{"polluted":true}}');
  });

  it('accepts a huge valid answer and refuses one nested too deep, with a short reason', async () => {
    const big = 'x'.repeat(4 * 1024 * 1024);
    const deep = `${'{"a":'.repeat(5_000)}"x"${'}'.repeat(5_000)}`;
    const model = createScriptedModel([answer(JSON.stringify({ a: big })), answer(deep), answer(`${'{'.repeat(100_000)} not json`)]);
    const harness = createHarness({ model, output: loose, limits: { maxConsecutiveInvalidModelOutputs: 1 } });
    const huge = await harness.runTurn(createTurnInput());
    expect((huge.output as { a: string }).a).toHaveLength(big.length);
    const refused = await harness.runTurn(createTurnInput());
    expect(refused).toMatchObject({ outcome: 'failed', stopReason: 'model_invalid_response' });
    const reasons = refused.transcript.flatMap((item) => (item.type === 'invalid_output' ? [item.reason] : []));
    expect(reasons[0]).toMatch(/^The answer cannot be used: it is nested deeper than \d+ levels/);
    expect(reasons[1]).toMatch(/^The answer is not valid JSON/);
    for (const reason of reasons) expect(reason.length).toBeLessThan(300);
  });

  it('clips long issue messages from a validator', async () => {
    const noisy: JsonSchemaToolInput<{ a: string }> = {
      jsonSchema: { type: 'object' },
      validate: () => ({ issues: [{ message: 'm'.repeat(10_000), path: ['p'.repeat(10_000)] }] }),
    };
    const model = createScriptedModel([answer('{}')]);
    const result = await createHarness({ model, output: noisy, limits: { maxConsecutiveInvalidModelOutputs: 0 } }).runTurn(createTurnInput());
    expect(result.error?.message.length).toBeLessThan(500);
    expect(result.error?.message).toContain('…');
  });
});
