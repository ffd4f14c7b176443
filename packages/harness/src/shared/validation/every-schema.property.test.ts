import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemoryVfs } from '@agent-assistant/vfs';
import type * as zm from 'zod/mini';
import { propertyRuns } from '../../__fixtures__/property-runs.js';
import { mutated, verdict, type Json, type Parser } from './__fixtures__/differential.js';

/**
 * Every schema of every module that imports the validator, against zod/mini: each module is
 * loaded twice — once as it is, once with `./index.js` swapped for `zod/mini` — and the schemas
 * it builds (through `memo` / `lazySchema`, or `checkedInput` / `validateWith` for tool inputs;
 * recorded by caller file, in build order) must agree on every value: accepted or not, the parsed
 * output, and each issue's path *and* code. Values come from the schema itself (its zod/mini
 * definition read as a generator) and from one-change mutations of those.
 */

const here = dirname(fileURLToPath(import.meta.url));
const src = join(here, '../..');

/** Modules that import the validator but build no schema of their own, and why that is safe. */
const NO_SCHEMA_OF_THEIR_OWN: ReadonlyMap<string, string> = new Map([
  ['tools/github/github-public-fetcher.ts', 'imports the validator for types only'],
  ['core/compaction/compact-standalone.ts', 'wraps the history and transcript schemas of core/schemas (compared here) in an array'],
]);

/** Modules whose schemas are built when their registry is made: how to make it. */
const DRIVERS = new Map<string, (module: Record<string, unknown>) => unknown>([
  ['project/skills/create-skill-tool-registry.ts', (module) => call(module, 'createSkillToolRegistry', { vfs: createMemoryVfs({}), skills: [{ name: 's', description: 'd', directory: '/skills/s', instructions: 'i' }] })],
  ['tools/bash/create-bash-tool-registry.ts', (module) => call(module, 'createBashToolRegistry', { cwd: '.' })],
  ['tools/memory/create-memory-tool-registry.ts', async (module) => {
    const { createInMemoryMemoryStore } = await import('../../tools/memory/in-memory-memory-store.js');
    call(module, 'createMemoryToolRegistry', { store: createInMemoryMemoryStore() });
  }],
  ['tools/planning/create-planning-tool-registry.ts', (module) => call(module, 'createPlanningToolRegistry', {})],
  ['tools/question/create-question-tool-registry.ts', (module) => call(module, 'createQuestionToolRegistry', {})],
  ['tools/scratchpad/create-scratchpad-tool-registry.ts', (module) => call(module, 'createScratchpadToolRegistry', {})],
  ['tools/github/internal/github-tool-inputs.ts', (module) => {
    for (const name of ['metadataInput', 'readFileInput', 'recentCommitsInput', 'searchCodeInput']) validateOnce(call(module, name));
    validateOnce(call(module, 'listTreeInput', 100));
  }],
]);

function call(module: Record<string, unknown>, name: string, ...args: unknown[]): unknown {
  const fn = module[name];
  if (typeof fn !== 'function') throw new Error(`${name} is not exported`);
  return (fn as (...rest: unknown[]) => unknown)(...args);
}

/** A `jsonInput` hands its schema to `validateWith` only when it validates. */
function validateOnce(input: unknown): void {
  (input as { validate(raw: unknown): unknown }).validate({});
}

/** The source files (not tests) that import the validator's index. */
function schemaModules(): string[] {
  const found: string[] = [];
  const visit = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '__fixtures__' && entry.name !== 'validation') visit(path);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && /import (type )?\* as \w+ from '[./]*shared\/validation\/index\.js'/.test(readFileSync(path, 'utf8'))) {
        found.push(relative(src, path).split('\\').join('/'));
      }
    }
  };
  visit(src);
  return found.sort();
}

type Recorded = Map<string, (() => unknown)[]>;
const recording = globalThis as { __schemaRecorder?: (build: () => unknown) => void };

/** The module (relative to `src`) that called the recorder, from the stack. */
function callerFile(stack: string): string | undefined {
  for (const line of stack.split('\n').slice(1)) {
    const match = /(\/[^\s():]+\.ts)/.exec(line);
    if (match === null) continue;
    const file = relative(src, match[1]!).split('\\').join('/');
    if (file.startsWith('..') || file.startsWith('shared/schemas/lazy-schema') || file.startsWith('tools/checked-input') || file.startsWith('shared/validation/')) continue;
    return file;
  }
  return undefined;
}

async function loadWorld(modules: readonly string[], withZod: boolean): Promise<Recorded> {
  const recorded: Recorded = new Map();
  recording.__schemaRecorder = (build) => {
    const file = callerFile(new Error().stack ?? '');
    if (file === undefined) return;
    const list = recorded.get(file) ?? [];
    list.push(build);
    recorded.set(file, list);
  };
  vi.resetModules();
  vi.doMock('../schemas/lazy-schema.js', async (importOriginal) => {
    const original = await importOriginal<typeof import('../schemas/lazy-schema.js')>();
    return {
      memo: <T,>(build: () => T) => (recording.__schemaRecorder?.(build), original.memo(build)),
      lazySchema: <S extends Parser>(build: () => S) => (recording.__schemaRecorder?.(build), original.lazySchema(build)),
    };
  });
  vi.doMock('../../tools/checked-input.js', async (importOriginal) => {
    const original = await importOriginal<typeof import('../../tools/checked-input.js')>();
    return {
      ...original,
      checkedInput: (jsonSchema: Record<string, unknown>, build: () => Parser) => (recording.__schemaRecorder?.(build), original.checkedInput(jsonSchema, build as never)),
      validateWith: (schema: Parser, input: unknown) => (recording.__schemaRecorder?.(() => schema), original.validateWith(schema as never, input)),
    };
  });
  if (withZod) {
    vi.doMock('./index.js', () => import('zod/mini'));
    vi.doMock('../../providers/internal/open-union.js', () => import('./__fixtures__/open-union-zod-mini.js'));
  }
  for (const module of modules) {
    const loaded = (await import(/* @vite-ignore */ join(src, module))) as Record<string, unknown>;
    await DRIVERS.get(module)?.(loaded);
  }
  vi.doUnmock('./index.js');
  vi.doUnmock('../../providers/internal/open-union.js');
  vi.doUnmock('../schemas/lazy-schema.js');
  vi.doUnmock('../../tools/checked-input.js');
  vi.resetModules();
  return recorded;
}

/** Each recorded builder's schemas: the schema it returns, or the schemas among its result's values. */
function schemasOf(builds: readonly (() => unknown)[]): Parser[] {
  return builds.flatMap((build) => {
    const built = build();
    if (isParser(built)) return [built];
    if (typeof built === 'object' && built !== null) return Object.values(built).filter(isParser);
    return [];
  });
}

function isParser(value: unknown): value is Parser {
  return typeof value === 'object' && value !== null && typeof (value as Parser).safeParse === 'function';
}

type ZodSchema = zm.ZodMiniType & { _zod: { def: Record<string, unknown> & { type: string } } };

const sampleStrings = ['a', 'ok', 'abc_DEF-1', '', ' padded ', 'https://example.com/a.png', '2026-11-30T00:00:00.000Z', 'x'.repeat(300), '__proto__', 'text'];

/** Values shaped by a zod/mini schema's definition (mostly valid, often not: checks are not read). */
function arbitraryOf(schema: ZodSchema, depth = 0): fc.Arbitrary<unknown> {
  const def = schema._zod.def;
  if (depth > 8) return fc.constant(null);
  const inner = (value: unknown) => arbitraryOf(value as ZodSchema, depth + 1);
  switch (def.type) {
    case 'string':
      return fc.oneof(fc.constantFrom(...sampleStrings), fc.string({ maxLength: 12 }));
    case 'number':
      return fc.oneof(fc.integer({ min: -3, max: 70_000 }), fc.constantFrom(0.5, -1.5, 1e21));
    case 'boolean':
      return fc.boolean();
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
    case 'null':
      return fc.constant(null);
    case 'optional':
      return fc.option(inner(def.innerType), { nil: undefined });
    case 'nullable':
      return fc.option(inner(def.innerType), { nil: null });
    case 'array':
      return fc.array(inner(def.element), { maxLength: 3 });
    case 'union':
      return fc.oneof(...(def.options as ZodSchema[]).map(inner));
    case 'record':
      return fc.dictionary(fc.constantFrom(...sampleStrings.slice(0, 4)), inner(def.valueType), { maxKeys: 3 });
    case 'pipe':
      return inner(def.in);
    case 'object': {
      const shape = def.shape as Record<string, ZodSchema>;
      const keys = Object.keys(shape);
      const required = keys.filter((key) => shape[key]!._zod.def.type !== 'optional');
      return fc.record(Object.fromEntries(keys.map((key) => [key, inner(shape[key])])), { requiredKeys: required });
    }
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

// An own `__proto__` key is where the two differ by design (ours never copies or checks it; see
// validation.test.ts), so mutations do not add one.
const ADDED_NAMES = ['constructor', 'type', 'extra', ''];

const modules = schemaModules();
let ours: Recorded;
let zods: Recorded;

beforeAll(async () => {
  ours = await loadWorld(modules, false);
  zods = await loadWorld(modules, true);
}, 60_000);

afterAll(() => {
  delete recording.__schemaRecorder;
});

describe('every schema module is compared with zod/mini', () => {
  it('finds the modules, and each builds schemas that the comparison reaches (or says why it builds none)', () => {
    expect(modules.length).toBeGreaterThan(40);
    const silent = modules.filter((module) => (ours.get(module) ?? []).length === 0 && !NO_SCHEMA_OF_THEIR_OWN.has(module));
    expect(silent).toEqual([]);
    for (const module of modules) expect(zods.get(module)?.length ?? 0, module).toBe(ours.get(module)?.length ?? 0);
  });

  for (const module of modules) {
    if (NO_SCHEMA_OF_THEIR_OWN.has(module)) continue;
    it(`${module}: generated values and their one-change mutations parse the same, issue paths and codes included`, () => {
      const mine = schemasOf(ours.get(module) ?? []);
      const theirs = schemasOf(zods.get(module) ?? []) as (Parser & ZodSchema)[];
      expect(mine.length).toBe(theirs.length);
      mine.forEach((schema, index) => {
        const zod = theirs[index]!;
        const seeds = arbitraryOf(zod);
        const values = fc.oneof(seeds, seeds.chain((seed) => mutated(JSON.parse(JSON.stringify(seed ?? null)) as Json, ADDED_NAMES)), fc.jsonValue({ maxDepth: 2 }));
        fc.assert(
          fc.property(values, (value) => {
            expect(verdict(schema, value), `schema ${String(index)} of ${module}`).toEqual(verdict(zod, value));
          }),
          { numRuns: propertyRuns(50) },
        );
      });
    });
  }
});
