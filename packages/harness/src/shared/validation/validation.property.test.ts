import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { propertyRuns } from '../../__fixtures__/property-runs.js';
import { pauseForApproval } from '../../core/__fixtures__/approval-pause.js';
import { createTurnInput } from '../../testing/index.js';
import { toExecutionRequest } from '../../core/to-execution-request.js';
import { mutated, verdict, type Json, type Parser } from './__fixtures__/differential.js';

/** Keys a mutation adds; these schemas treat an own `__proto__` the same in both validators. */
const HOSTILE_NAMES = ['__proto__', 'constructor', 'type', 'text', 'id', 'extra', ''];

/**
 * The harness's own validator against zod/mini, whose API it follows: the real schemas of the
 * core and the execution layer are built once with each (the same schema files, with
 * `./index.js` swapped for `zod/mini`) and must agree on every value — accepted or not, the
 * parsed output, and each issue's path and code. `every-schema.property.test.ts` does the same for
 * every schema of every module that imports the validator.
 */
type Schemas = Record<'turnInput' | 'modelOutput' | 'continuation' | 'executionRequest' | 'executionResult' | 'streamEvent', Parser>;

async function loadSchemas(): Promise<Schemas> {
  const [turnInput, modelOutput, continuation, request, result, event] = await Promise.all([
    import('../../core/schemas/turn-input-schema.js'),
    import('../../core/schemas/model-output-schema.js'),
    import('../../core/schemas/continuation-schema.js'),
    import('../../execution/execution-request-schema.js'),
    import('../../execution/execution-result-schema.js'),
    import('../../execution/execution-stream-event-schema.js'),
  ]);
  return {
    turnInput: turnInput.turnInputSchema,
    modelOutput: modelOutput.modelOutputSchema,
    continuation: continuation.continuationSchema,
    executionRequest: request.executionRequestSchema,
    executionResult: result.executionResultSchema,
    streamEvent: event.executionStreamEventSchema,
  };
}


let ours: Schemas;
let zods: Schemas;
let seeds: Record<keyof Schemas, Json[]>;

beforeAll(async () => {
  ours = await loadSchemas();
  vi.resetModules();
  vi.doMock('./index.js', () => import('zod/mini'));
  zods = await loadSchemas();
  vi.doUnmock('./index.js');
  vi.resetModules();

  const input = createTurnInput({
    message: { id: 'm', text: 'hi', receivedAt: '2026-11-30T00:00:00.000Z', attachments: [{ id: 'a', type: 'image', url: 'https://example.com/a.png' }] },
  });
  const usage = { inputTokens: 3, outputTokens: 2 };
  seeds = {
    turnInput: [input as unknown as Json],
    modelOutput: [
      { type: 'final_answer', text: 'done', usage, reasoning: [{ provider: 'x', text: 'why' }] },
      { type: 'tool_request', calls: [{ id: 'c1', name: 'add', input: { a: 1 } }] },
      { type: 'clarification', question: ' which? ' },
      { type: 'invalid', kind: 'transient', reason: 'r', code: 'c', httpStatus: 502 },
    ],
    continuation: [(await pauseForApproval()) as unknown as Json],
    executionRequest: [JSON.parse(JSON.stringify(toExecutionRequest(input, { tools: [{ name: 't', description: 'd', inputSchema: { type: 'object' } }] }))) as Json],
    executionResult: [
      { backendId: 'b', status: 'completed', output: { text: 'ok' }, usage },
      { backendId: 'b', status: 'failed', error: { code: 'x', message: 'y', retryable: false } },
    ],
    streamEvent: [
      { type: 'text_delta', text: 'a' },
      { type: 'tool_call', callId: 'c', name: 'n', input: { a: 1 } },
    ],
  };
});

describe('the validator and zod/mini agree on the real schemas', () => {
  const keys: (keyof Schemas)[] = ['turnInput', 'modelOutput', 'continuation', 'executionRequest', 'executionResult', 'streamEvent'];
  for (const key of keys) {
    it(`${key}: the seeds parse the same, and so does every one-change mutation of them`, () => {
      for (const seed of seeds[key]) expect(verdict(ours[key], seed)).toEqual(verdict(zods[key], seed));
      const values = fc.oneof(...seeds[key].map((seed) => mutated(seed, HOSTILE_NAMES)), fc.jsonValue({ maxDepth: 3 }));
      fc.assert(
        fc.property(values, (value) => {
          expect(verdict(ours[key], value)).toEqual(verdict(zods[key], value));
        }),
        { numRuns: propertyRuns() },
      );
    });
  }
});

describe('string lengths against zod/mini', () => {
  it('minLength and maxLength agree on any string, surrogate pairs and lone surrogates included', async () => {
    const ours = await import('./index.js');
    const zod = await import('zod/mini');
    const text = fc.string({ unit: fc.oneof(fc.constantFrom('a', '😀', '\ud800', '\udc00', 'é'), fc.integer({ min: 0, max: 0x10ffff }).map((point) => String.fromCodePoint(point))), maxLength: 40 });
    fc.assert(
      fc.property(text, fc.nat({ max: 45 }), (value, bound) => {
        for (const check of ['minLength', 'maxLength'] as const) {
          const mine = ours.string().check(ours[check](bound)).safeParse(value).success;
          const theirs = zod.string().check(zod[check](bound)).safeParse(value).success;
          expect(mine, `${check}(${bound}) of ${JSON.stringify(value)}`).toBe(theirs);
        }
      }),
      { numRuns: propertyRuns() },
    );
  });
});
