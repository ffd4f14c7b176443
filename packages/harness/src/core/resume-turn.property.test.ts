import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HarnessContinuation, HarnessRuntime } from '../index.js';
import { propertyRuns } from '../__fixtures__/property-runs.js';
import { stableStringify } from './continuation/stable-stringify.js';
import { APPROVE_MAIL, pauseForApproval, resumingHarness } from './__fixtures__/approval-pause.js';

/** A small limit keeps the oversize cases cheap; the fixture continuation is far below it. */
const MAX_BYTES = 16_384;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

/** Every path to a value inside `value` (the root excluded), objects and arrays alike. */
function pathsOf(value: Json, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [];
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value);
  return keys.flatMap((key) => {
    const path = [...prefix, key];
    return [path, ...pathsOf((value as Record<string | number, Json>)[key]!, path)];
  });
}

function clone(value: Json): Json {
  return JSON.parse(JSON.stringify(value)) as Json;
}

/** The parent container of `path` in `root`, and the last key. */
function locate(root: Json, path: Path): [Record<string | number, unknown>, string | number] {
  let parent = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  return [parent, path.at(-1)!];
}

const hostileNames = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'signature', 'state', ''];

function throwingGetter(): object {
  const value = {};
  Object.defineProperty(value, 'x', {
    enumerable: true,
    get() {
      throw new Error('getter');
    },
  });
  return value;
}

function deep(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

/** Values JSON cannot carry, or that only a hostile caller builds. `root` lets one point back at the top. */
const hostileValue = fc.oneof(
  fc.constant(() => 10n as unknown),
  fc.constant(() => Symbol('s') as unknown),
  fc.constant(() => (() => 'fn') as unknown),
  fc.constant(() => Number.NaN as unknown),
  fc.constant(() => Number.POSITIVE_INFINITY as unknown),
  fc.constant(() => throwingGetter() as unknown),
  fc.constant(
    () =>
      new Proxy(
        {},
        {
          ownKeys() {
            throw new Error('trap');
          },
        },
      ) as unknown,
  ),
  fc.constant(() => {
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    return revocable.proxy as unknown;
  }),
  fc.integer({ min: 65, max: 6_000 }).map((depth) => () => deep(depth)),
  fc.constant(() => 'x'.repeat(MAX_BYTES + 1) as unknown),
  fc.constant(() => {
    const sparse: unknown[] = [];
    sparse.length = 2 ** 30;
    return sparse as unknown;
  }),
  fc.constant(() => {
    const array: unknown[] = [1];
    Object.defineProperty(array, 'constructor', { value: 'own', enumerable: true });
    return array as unknown;
  }),
);

type Mutation =
  | { kind: 'replace'; pathIndex: number; value: Json }
  | { kind: 'delete'; pathIndex: number }
  | { kind: 'add'; pathIndex: number; key: string; value: Json }
  | { kind: 'hostile'; pathIndex: number; make: () => unknown }
  | { kind: 'cycle'; pathIndex: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), pathIndex: fc.nat(), value: fc.jsonValue() as fc.Arbitrary<Json> }),
  fc.record({ kind: fc.constant('delete' as const), pathIndex: fc.nat() }),
  fc.record({
    kind: fc.constant('add' as const),
    pathIndex: fc.nat(),
    key: fc.oneof(fc.constantFrom(...hostileNames), fc.string()),
    value: fc.jsonValue() as fc.Arbitrary<Json>,
  }),
  fc.record({ kind: fc.constant('hostile' as const), pathIndex: fc.nat(), make: hostileValue }),
  fc.record({ kind: fc.constant('cycle' as const), pathIndex: fc.nat() }),
);

/** Applies a mutation to a copy; `undefined` when it would not change the signed content. */
function mutate(original: Json, canonical: string, paths: Path[], change: Mutation): unknown {
  const copy = clone(original);
  const path = paths[change.pathIndex % paths.length]!;
  const [parent, key] = locate(copy, path);
  switch (change.kind) {
    case 'replace':
      parent[key] = change.value;
      break;
    case 'delete':
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
      break;
    case 'add': {
      const target = parent[key];
      const container = target !== null && typeof target === 'object' && !Array.isArray(target) ? (target as Record<string, unknown>) : parent;
      if (Array.isArray(container)) container.push(change.value);
      else Object.defineProperty(container, change.key, { value: change.value, enumerable: true, writable: true, configurable: true });
      break;
    }
    case 'hostile':
      parent[key] = change.make();
      return copy;
    case 'cycle':
      parent[key] = copy;
      return copy;
  }
  return stableStringify(copy) === canonical ? undefined : copy;
}

describe('resumeTurn with a mutated signed continuation (property, issue 9)', () => {
  let original: HarnessContinuation;
  let paths: Path[];
  let canonical: string;
  let harness: HarnessRuntime;
  let toolCalls: () => number;

  beforeAll(async () => {
    original = await pauseForApproval();
    paths = pathsOf(original as unknown as Json);
    canonical = stableStringify(original);
    const resuming = resumingHarness({ limits: { maxContinuationBytes: MAX_BYTES } });
    harness = resuming.harness;
    toolCalls = () => resuming.tools.calls.length;
  });

  it('the untouched continuation resumes (the property below is not vacuous)', async () => {
    const { harness: fresh, tools } = resumingHarness();
    expect((await fresh.resumeTurn(clone(original as unknown as Json), APPROVE_MAIL)).outcome).toBe('completed');
    expect(tools.calls).toHaveLength(1);
  });

  it('always ends continuation_invalid, never throws, never runs a tool', async () => {
    await fc.assert(
      fc.asyncProperty(mutation, fc.boolean(), async (change, asText) => {
        const mutated = mutate(original as unknown as Json, canonical, paths, change);
        fc.pre(mutated !== undefined);
        let raw: unknown = mutated;
        if (asText && (change.kind === 'replace' || change.kind === 'delete' || change.kind === 'add')) raw = JSON.stringify(mutated);
        const result = await harness.resumeTurn(raw, APPROVE_MAIL);
        expect(result.outcome).toBe('failed');
        expect(result.stopReason).toBe('continuation_invalid');
        expect(result.usage.toolCalls).toBe(0);
        expect(toolCalls()).toBe(0);
      }),
      { numRuns: propertyRuns() },
    );
  }, 120_000);
});
