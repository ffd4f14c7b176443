import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFileMemoryStore,
  createHarness,
  createInMemoryMemoryStore,
  createMemoryToolRegistry,
  HarnessConfigError,
  type HarnessResult,
  type MemoryStore,
  type MemoryToolOptions,
} from '../../index.js';
import { createScriptedModel, createTurnInput } from '../../testing/index.js';

const secret = 'a-test-secret-of-at-least-32-bytes!!';
const call = (id: string, name: string, input: Record<string, unknown> = {}) => ({ type: 'tool_request' as const, calls: [{ id, name, input }] });

function results(result: HarnessResult) {
  return result.transcript.flatMap((item) => (item.type === 'tool_result' ? [item.result] : []));
}

/** One turn calling the tools in order, then answering. */
async function runCalls(options: MemoryToolOptions, calls: ReturnType<typeof call>[]) {
  const harness = createHarness({
    model: createScriptedModel([...calls, { type: 'final_answer', text: 'done' }]),
    tools: createMemoryToolRegistry(options),
    limits: { maxToolCalls: 20, maxIterations: 20 },
    continuationSecret: secret,
  });
  const result = await harness.runTurn(createTurnInput({ text: 'use your memory' }));
  return { result, tools: results(result) };
}

let folder = '';
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'memory-tools-'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

describe('createMemoryToolRegistry over the in-memory store', () => {
  it('remembers, recalls by key and by words, forgets, and outlives the turn', async () => {
    const store = createInMemoryMemoryStore();
    const first = await runCalls({ store }, [
      call('r1', 'remember', { key: 'user.language', value: 'Prefers answers in Norwegian.' }),
      call('r2', 'remember', { key: 'project.deadline', value: 'The report is due on Friday.' }),
      call('r3', 'recall', { key: 'user.language' }),
      call('r4', 'recall', { query: 'REPORT friday' }),
    ]);
    expect(first.result.outcome).toBe('completed');
    const [, , byKey, byWords] = first.tools;
    expect(byKey?.output).toBe('[user.language] Prefers answers in Norwegian.');
    expect(byWords?.output).toBe('[project.deadline] The report is due on Friday.');
    expect(byWords?.structuredOutput).toMatchObject({ entries: [{ key: 'project.deadline' }], truncated: false });

    const second = await runCalls({ store }, [call('f1', 'forget', { key: 'project.deadline' }), call('r5', 'recall', {}), call('f2', 'forget', { key: 'project.deadline' })]);
    const [forgot, recent, again] = second.tools;
    expect(forgot?.output).toBe('Forgot "project.deadline".');
    expect(recent?.output).toBe('[user.language] Prefers answers in Norwegian.');
    expect(again?.error).toMatchObject({ code: 'not_found', retryable: true });
  });

  it('keeps __proto__ and constructor as ordinary keys', async () => {
    const store = createInMemoryMemoryStore();
    const { tools } = await runCalls({ store }, [
      call('r1', 'remember', { key: '__proto__', value: 'polluted?' }),
      call('r2', 'remember', { key: 'constructor', value: 'also a key' }),
      call('r3', 'recall', { key: '__proto__' }),
      call('r4', 'recall', { key: 'toString' }),
    ]);
    expect(tools[2]?.output).toBe('[__proto__] polluted?');
    expect(tools[3]?.error?.code).toBe('not_found');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('value');
  });

  it('refuses huge values, bad keys and bad limits as invalid input, and bounds recall in count and characters', async () => {
    const store = createInMemoryMemoryStore();
    for (let index = 0; index < 30; index += 1) await store.put(`note.${String(index)}`, `fact ${String(index)} ${'x'.repeat(300)}`);
    const { tools } = await runCalls({ store, maxValueChars: 500, maxRecallResults: 20, maxRecallChars: 1000 }, [
      call('r1', 'remember', { key: 'big', value: 'y'.repeat(501) }),
      call('r2', 'remember', { key: 'bad\nkey', value: 'v' }),
      call('r3', 'remember', { key: 'k'.repeat(129), value: 'v' }),
      call('r4', 'recall', { query: 'fact' }),
      call('r5', 'recall', { limit: 21 }),
      call('r6', 'recall', { query: 'fact', limit: 2 }),
    ]);
    expect(tools.slice(0, 3).map((result) => result.error?.code)).toEqual(['invalid_input', 'invalid_input', 'invalid_input']);
    expect(await store.get('big')).toBeUndefined();
    const bounded = tools[3]!;
    const data = bounded.structuredOutput as { entries: unknown[]; truncated: boolean };
    expect(data.entries.length).toBe(3);
    expect(data.truncated).toBe(true);
    expect(bounded.output).toContain('17 more not shown');
    expect(tools[4]?.error?.code).toBe('invalid_input');
    expect((tools[5]?.structuredOutput as { entries: unknown[] }).entries.length).toBe(2);
  });

  it('cuts a single entry longer than maxRecallChars', async () => {
    const store = createInMemoryMemoryStore();
    await store.put('long', 'z'.repeat(5000));
    const { tools } = await runCalls({ store, maxRecallChars: 100 }, [call('r1', 'recall', { key: 'long' })]);
    expect(tools[0]?.output?.length).toBeLessThan(200);
    expect(tools[0]?.structuredOutput).toMatchObject({ truncated: true });
  });

  it('reports a full store as a retryable memory_full error', async () => {
    const store = createInMemoryMemoryStore({ maxEntries: 1 });
    const { tools } = await runCalls({ store }, [call('r1', 'remember', { key: 'a', value: '1' }), call('r2', 'remember', { key: 'b', value: '2' }), call('r3', 'remember', { key: 'a', value: '3' })]);
    expect(tools.map((result) => result.status)).toEqual(['success', 'error', 'success']);
    expect(tools[1]?.error).toMatchObject({ code: 'memory_full', retryable: true });
  });

  it('asks for approval before remember and forget when configured, resumed by another harness', async () => {
    const store = createInMemoryMemoryStore();
    const tools = () => createMemoryToolRegistry({ store, requiresApproval: true });
    const paused = await createHarness({
      model: createScriptedModel([call('r1', 'remember', { key: 'a', value: '1' })]),
      tools: tools(),
      continuationSecret: secret,
    }).runTurn(createTurnInput({ text: 'remember' }));
    expect(paused.outcome).toBe('awaiting_approval');
    expect(await store.get('a')).toBeUndefined();
    const resumed = await createHarness({
      model: createScriptedModel([call('r2', 'recall', {}), { type: 'final_answer', text: 'ok' }]),
      tools: tools(),
      continuationSecret: secret,
    }).resumeTurn(JSON.parse(JSON.stringify(paused.continuation)), { type: 'approval', decisions: { r1: 'approved' } });
    expect(resumed.outcome).toBe('completed');
    expect(results(resumed).at(-1)?.output).toBe('[a] 1');
  });
});

describe('createMemoryToolRegistry over a custom store', () => {
  it('turns store failures into retryable memory_unavailable errors and bounds what the store returns', async () => {
    const flooding: MemoryStore = {
      get: () => Promise.resolve({ key: 'other', value: 'not what was asked', updatedAt: 1 }),
      put: () => Promise.reject(new Error('database is down')),
      delete: () => Promise.reject('a string'),
      search: () => Promise.resolve([...Array.from({ length: 500 }, (_, index) => ({ key: `k${String(index)}`, value: 'v', updatedAt: index })), { key: 5 } as never]),
    };
    const { result, tools } = await runCalls({ store: flooding, maxRecallResults: 5 }, [
      call('r1', 'remember', { key: 'a', value: '1' }),
      call('r2', 'forget', { key: 'a' }),
      call('r3', 'recall', { key: 'a' }),
      call('r4', 'recall', { query: 'v' }),
    ]);
    expect(result.outcome).toBe('completed');
    expect(tools[0]?.error).toMatchObject({ code: 'memory_unavailable', retryable: true, message: 'The memory store failed: database is down' });
    expect(tools[1]?.error?.code).toBe('memory_unavailable');
    expect(tools[2]?.error?.code).toBe('not_found');
    expect((tools[3]?.structuredOutput as { entries: unknown[] }).entries.length).toBe(5);
  });

  it('checks its options', () => {
    expect(() => createMemoryToolRegistry({} as MemoryToolOptions)).toThrow(HarnessConfigError);
    expect(() => createMemoryToolRegistry({ store: { get: () => undefined } } as unknown as MemoryToolOptions)).toThrow(/store/);
    expect(() => createMemoryToolRegistry({ store: createInMemoryMemoryStore(), maxRecallResults: 51 })).toThrow(/maxRecallResults/);
    expect(() => createInMemoryMemoryStore({ maxEntries: 0 })).toThrow(HarnessConfigError);
    expect(() => createFileMemoryStore({ path: '' })).toThrow(/path/);
    expect(() => createFileMemoryStore({ path: 'm.json', maxFileBytes: -1 })).toThrow(/maxFileBytes/);
  });
});

describe('createFileMemoryStore', () => {
  it('keeps entries (including __proto__) in a file another store and another turn read back, leaving no temporary files', async () => {
    const path = join(folder, 'nested', 'memory.json');
    await runCalls({ store: createFileMemoryStore({ path }) }, [
      call('r1', 'remember', { key: '__proto__', value: 'first' }),
      call('r2', 'remember', { key: 'team', value: 'The team meets on Mondays.' }),
      call('r3', 'remember', { key: '__proto__', value: 'second' }),
    ]);
    const file = JSON.parse(await readFile(path, 'utf8')) as { version: number; entries: { key: string; value: string }[] };
    expect(file.version).toBe(1);
    expect(file.entries.map((entry) => [entry.key, entry.value])).toEqual([
      ['__proto__', 'second'],
      ['team', 'The team meets on Mondays.'],
    ]);
    expect(await readdir(join(folder, 'nested'))).toEqual(['memory.json']);

    const { tools } = await runCalls({ store: createFileMemoryStore({ path }) }, [call('r4', 'recall', { key: '__proto__' }), call('r5', 'recall', { query: 'mondays' })]);
    expect(tools[0]?.output).toBe('[__proto__] second');
    expect(tools[1]?.output).toBe('[team] The team meets on Mondays.');
  });

  it('runs concurrent changes of one store one at a time', async () => {
    const path = join(folder, 'concurrent.json');
    const store = createFileMemoryStore({ path });
    await Promise.all(Array.from({ length: 20 }, (_, index) => store.put(`k${String(index)}`, String(index))));
    expect((await store.search({ text: '', limit: 50 })).length).toBe(20);
    expect(await store.delete('k3')).toBe(true);
    expect(await store.delete('k3')).toBe(false);
  });

  it('refuses a change past maxFileBytes and leaves the file as it was', async () => {
    const path = join(folder, 'small.json');
    const store = createFileMemoryStore({ path, maxFileBytes: 200 });
    await store.put('a', 'short');
    const before = await readFile(path, 'utf8');
    const { tools } = await runCalls({ store }, [call('r1', 'remember', { key: 'b', value: 'w'.repeat(300) })]);
    expect(tools[0]?.error).toMatchObject({ code: 'memory_full', retryable: true });
    expect(await readFile(path, 'utf8')).toBe(before);
  });

  it('refuses to read an oversized or foreign file and never overwrites it', async () => {
    const big = join(folder, 'big.json');
    await writeFile(big, JSON.stringify({ version: 1, entries: [{ key: 'a', value: 'x'.repeat(5000), updatedAt: 1 }] }));
    const foreign = join(folder, 'foreign.json');
    await writeFile(foreign, '{"__proto__": {"polluted": true}, "entries": {}}');
    const bigBefore = await readFile(big, 'utf8');

    const oversized = await runCalls({ store: createFileMemoryStore({ path: big, maxFileBytes: 1000 }) }, [call('r1', 'remember', { key: 'b', value: 'v' })]);
    expect(oversized.result.outcome).toBe('failed');
    expect(oversized.tools[0]?.error).toMatchObject({ code: 'memory_unavailable', retryable: false });
    expect(await readFile(big, 'utf8')).toBe(bigBefore);

    await expect(createFileMemoryStore({ path: foreign }).put('b', 'v')).rejects.toMatchObject({ reason: 'memory_unavailable' });
    expect(await readFile(foreign, 'utf8')).toBe('{"__proto__": {"polluted": true}, "entries": {}}');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
