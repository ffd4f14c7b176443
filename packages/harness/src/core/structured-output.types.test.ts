import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  createHarness,
  type HarnessResult,
  type HarnessRuntime,
  type HarnessStreamEvent,
  type JsonSchemaToolInput,
} from '../index.js';
import { createFakeExecutionAdapter, createScriptedModel, createTurnInput } from '../testing/index.js';

// Type-level checks (tsc checks this file; the runtime part only builds harnesses).
const model = createScriptedModel([]);
const input = createTurnInput();
const answerSchema = z.object({ a: z.string(), n: z.number().optional() });

describe('structured output types', () => {
  it('infers result.output from the harness zod schema', () => {
    const harness = createHarness({ model, output: answerSchema });
    expectTypeOf(harness).toEqualTypeOf<HarnessRuntime<{ a: string; n?: number | undefined }>>();
    const typed = () => harness.runTurn(input);
    expectTypeOf(typed).returns.resolves.toHaveProperty('output').toEqualTypeOf<{ a: string; n?: number | undefined } | undefined>();
  });

  it('takes a call’s own schema over the harness schema', () => {
    const harness = createHarness({ model, output: answerSchema });
    const other = z.object({ items: z.array(z.string()) });
    const run = () => harness.runTurn(input, { output: other });
    expectTypeOf(run).returns.resolves.toHaveProperty('output').toEqualTypeOf<{ items: string[] } | undefined>();
    const resume = () => harness.resumeTurn({}, { type: 'deferred' }, { output: other });
    expectTypeOf(resume).returns.resolves.toHaveProperty('output').toEqualTypeOf<{ items: string[] } | undefined>();
    const withSignal = () => harness.runTurn(input, { signal: AbortSignal.timeout(1) });
    expectTypeOf(withSignal).returns.resolves.toHaveProperty('output').toEqualTypeOf<{ a: string; n?: number | undefined } | undefined>();
  });

  it('types streamTurn events and its result from the schema', () => {
    const harness = createHarness({ model, output: answerSchema });
    const stream = () => harness.streamTurn(input);
    type Event = ReturnType<typeof stream> extends AsyncIterable<infer E> ? E : never;
    expectTypeOf<Extract<Event, { type: 'output' }>['output']>().toEqualTypeOf<{ a: string; n?: number | undefined }>();
    expectTypeOf<Extract<Event, { type: 'result' }>['result']['output']>().toEqualTypeOf<{ a: string; n?: number | undefined } | undefined>();
    expectTypeOf(stream).returns.toHaveProperty('result').resolves.toHaveProperty('output').toEqualTypeOf<{ a: string; n?: number | undefined } | undefined>();
  });

  it('infers from the { jsonSchema, validate } form and from a backend harness', () => {
    const form: JsonSchemaToolInput<{ city: string }> = {
      jsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      validate: (raw) => (typeof raw.city === 'string' ? { value: { city: raw.city } } : { issues: [{ message: 'expected string', path: ['city'] }] }),
    };
    const harness = createHarness({ backend: createFakeExecutionAdapter({ steps: [] }), output: form });
    const run = () => harness.runTurn(input);
    expectTypeOf(run).returns.resolves.toHaveProperty('output').toEqualTypeOf<{ city: string } | undefined>();
  });

  it('keeps code without a schema compiling as before', () => {
    const harness = createHarness({ model });
    const untyped: HarnessRuntime = harness;
    const result = () => untyped.runTurn(input);
    expectTypeOf(result).returns.resolves.toEqualTypeOf<HarnessResult>();
    expectTypeOf<HarnessResult['output']>().toEqualTypeOf<unknown>();
    expectTypeOf<HarnessStreamEvent>().toEqualTypeOf<HarnessStreamEvent<unknown>>();
    const typedAsBefore: HarnessRuntime = createHarness({ model, output: answerSchema });
    expectTypeOf(typedAsBefore.runTurn).returns.resolves.toHaveProperty('output').toEqualTypeOf<unknown>();
    // @ts-expect-error the output is not a string
    const wrong: Promise<HarnessResult<string>> = createHarness({ model, output: answerSchema }).runTurn(input);
    void wrong;
  });
});
