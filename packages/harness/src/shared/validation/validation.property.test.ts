import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { propertyRuns } from '../../__fixtures__/property-runs.js';
import { pauseForApproval } from '../../core/__fixtures__/approval-pause.js';
import { createTurnInput } from '../../testing/index.js';
import { toExecutionRequest } from '../../core/to-execution-request.js';
import type { ValidationIssue } from './index.js';

/**
 * The harness's own validator against zod/mini, whose API it follows: the real schemas of the
 * core and the execution layer are built once with each (the same schema files, with
 * `./index.js` swapped for `zod/mini`) and must agree on every value — accepted or not, the
 * parsed output, and each issue's path and code. `every-schema.property.test.ts` does the same for
 * every schema of every module that imports the validator.
 */
interface Parser {
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: { issues: readonly ValidationIssue[] } };
}
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

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

function pathsOf(value: Json, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [];
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value);
  return keys.flatMap((key) => [[...prefix, key], ...pathsOf((value as Record<string | number, Json>)[key]!, [...prefix, key])]);
}

/** `seed` with one change: a value replaced, a key removed, or a key added (hostile names included). */
function mutated(seed: Json): fc.Arbitrary<Json> {
  const paths = pathsOf(seed);
  const names = fc.constantFrom('__proto__', 'constructor', 'type', 'text', 'id', 'extra', '');
  return fc
    .tuple(fc.nat({ max: Math.max(paths.length - 1, 0) }), fc.constantFrom('replace', 'remove', 'add'), fc.jsonValue({ maxDepth: 2 }), names)
    .map(([index, change, value, name]) => {
      const copy = JSON.parse(JSON.stringify(seed)) as Json;
      const path = paths[index];
      if (path === undefined) return value as Json;
      let parent = copy as Record<string | number, Json>;
      for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
      const last = path.at(-1)!;
      if (change === 'replace') parent[last] = value as Json;
      else if (change === 'remove' && !Array.isArray(parent)) delete parent[last];
      else {
        const target = parent[last];
        if (target !== null && typeof target === 'object' && !Array.isArray(target)) {
          Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
        } else parent[last] = value as Json;
      }
      return copy;
    });
}

function verdict(schema: Parser, value: unknown) {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { success: true, data: parsed.data };
  const issues = (parsed.error?.issues ?? []).map((issue) => ({ path: issue.path.map(String).join('.'), code: issue.code }));
  // After a wrong type zod/mini still runs length checks on anything with a `length`; ours stops there.
  const wrongType = new Set(issues.filter((issue) => issue.code === 'invalid_type').map((issue) => issue.path));
  const kept = issues.filter((issue) => issue.code === 'invalid_type' || !wrongType.has(issue.path)).map((issue) => `${issue.path}: ${issue.code}`);
  return { success: false, issues: [...new Set(kept)].sort() };
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
      const values = fc.oneof(...seeds[key].map(mutated), fc.jsonValue({ maxDepth: 3 }));
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
