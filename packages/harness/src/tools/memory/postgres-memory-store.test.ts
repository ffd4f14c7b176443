// The Postgres memory store against a real Postgres 15 server (a throwaway cluster, see
// __fixtures__/postgres-server.mjs: it fails, never skips, without the server binaries) through
// the `pg` client, and against PGlite (Postgres in WebAssembly).
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPostgres, type PostgresServer } from '../../__fixtures__/postgres-server.mjs';
import {
  createHarness,
  createInMemoryMemoryStore,
  createMemoryToolRegistry,
  createPostgresMemoryStore,
  type HarnessResult,
  type MemoryStore,
  type PostgresMemoryStoreOptions,
  type PostgresQuery,
} from '../../index.js';
import { createScriptedModel, createTurnInput } from '../../testing/index.js';

let server: PostgresServer;
let pool: pg.Pool;
let lite: PGlite;

beforeAll(async () => {
  [server, lite] = await Promise.all([startPostgres(), PGlite.create()]);
  pool = new pg.Pool({ connectionString: server.connectionString, max: 20 });
  pool.on('error', () => undefined);
}, 120_000);

afterAll(async () => {
  server?.thaw();
  await pool?.end();
  await lite?.close();
  await server?.destroy();
});

afterEach(() => {
  vi.useRealTimers();
});

let tables = 0;
const freshTable = () => `memory_${String((tables += 1))}`;

const backends: [string, () => PostgresQuery][] = [
  ['Postgres 15 through a pg Pool', () => pool],
  ['PGlite', () => lite],
];

type Operation = ['put', string, string] | ['get', string] | ['delete', string] | ['search', string, number];

/** Runs `operations` one after another, one ms apart, and records what each answered (errors as their reason). */
async function play(store: MemoryStore, operations: Operation[]): Promise<unknown[]> {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.UTC(2026, 0, 1));
  const answers: unknown[] = [];
  for (const operation of operations) {
    vi.setSystemTime(Date.now() + 1);
    try {
      if (operation[0] === 'put') answers.push(await store.put(operation[1], operation[2]));
      else if (operation[0] === 'get') answers.push(await store.get(operation[1]));
      else if (operation[0] === 'delete') answers.push(await store.delete(operation[1]));
      else answers.push(await store.search({ text: operation[1], limit: operation[2] }));
    } catch (error) {
      answers.push({ failed: (error as { reason?: unknown }).reason });
    }
  }
  vi.useRealTimers();
  return answers;
}

const HOSTILE_KEYS = ['__proto__', 'constructor', 'toString', 'nul\u0000key', 'soh\u0001key', 'lone\ud800', 'emoji 🦀', 'ÆØÅ æøå'];

describe.each(backends)('createPostgresMemoryStore on %s', (_name, query) => {
  async function storeOn(options: Partial<PostgresMemoryStoreOptions> = {}) {
    const store = createPostgresMemoryStore({ query: query(), table: freshTable(), ...options });
    await store.ensureSchema();
    return store;
  }

  it('answers every operation as the in-memory store does: replace, delete, search ranked by words then recency', async () => {
    const operations: Operation[] = [
      ['put', 'user.language', 'Prefers answers in Norwegian.'],
      ['put', 'project.deadline', 'The report is due on Friday.'],
      ['put', 'project.owner', 'Ada owns the REPORT.'],
      ['get', 'user.language'],
      ['get', 'missing'],
      ['search', 'report friday', 10],
      ['search', 'REPORT', 1],
      ['search', '', 10],
      ['search', 'nothing-matches', 10],
      ['put', 'user.language', 'Now prefers English.'],
      ['search', '', 2],
      ['delete', 'project.owner'],
      ['delete', 'project.owner'],
      ['search', 'ada', 10],
      ['put', 'Straße', 'ÄÖ upper umlauts'],
      ['search', 'äö', 10],
      ...HOSTILE_KEYS.map((key): Operation => ['put', key, `value of ${key} with \u0000 and \ud83d`]),
      ...HOSTILE_KEYS.map((key): Operation => ['get', key]),
      ['search', 'value', 50],
      ['search', '\u0000', 50],
      ...HOSTILE_KEYS.map((key): Operation => ['delete', key]),
    ];
    const expected = await play(createInMemoryMemoryStore(), operations);
    const actual = await play(await storeOn(), operations);
    expect(actual).toEqual(expected);
    expect(actual[5]).toMatchObject([{ key: 'project.deadline' }, { key: 'project.owner' }]);
  });

  it('gives back keys and values exactly as they went in: NUL, U+0001, lone surrogates, 32 KB', async () => {
    const store = await storeOn({ maxBytes: 4 * 1024 * 1024 });
    const long = `${'ø'.repeat(16 * 1024)}\u0000${'x'.repeat(16 * 1024)}`;
    for (const key of HOSTILE_KEYS) {
      await store.put(key, `${key}|${long}`);
      expect(await store.get(key)).toEqual({ key, value: `${key}|${long}`, updatedAt: expect.any(Number) });
    }
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect((await store.search({ text: '', limit: 50 })).map((entry) => entry.key).sort()).toEqual([...HOSTILE_KEYS].sort());
  });

  it('refuses a key over 128 characters (a 10 KB one) as invalid_key, and finds nothing under it', async () => {
    const store = await storeOn();
    let key = '';
    for (let index = 0; index < 10 * 1024; index += 1) key += String.fromCharCode(0x4e00 + ((index * 7919) % 20_000));
    await expect(store.put(key, 'v')).rejects.toMatchObject({ reason: 'invalid_key', retryable: false });
    await expect(store.put('', 'v')).rejects.toMatchObject({ reason: 'invalid_key' });
    await store.put('k'.repeat(128), 'longest key');
    expect(await store.get(key)).toBeUndefined();
    expect(await store.delete(key)).toBe(false);
    expect(await store.get('k'.repeat(128))).toMatchObject({ value: 'longest key' });
  });

  it('refuses a put past maxEntries or maxBytes with memory_full and changes nothing', async () => {
    const store = await storeOn({ maxEntries: 2, maxBytes: 40 });
    await store.put('a', '1234567890');
    await store.put('b', '1234567890');
    await expect(store.put('c', 'x')).rejects.toMatchObject({ reason: 'memory_full', retryable: true });
    await store.put('a', 'replaced');
    await expect(store.put('b', 'x'.repeat(40))).rejects.toMatchObject({ reason: 'memory_full', message: expect.stringContaining('40 bytes') });
    expect(await store.get('b')).toMatchObject({ value: '1234567890' });
    expect(await store.get('c')).toBeUndefined();
    expect(await store.delete('a')).toBe(true);
    await store.put('c', 'fits now');
    expect((await store.search({ text: '', limit: 10 })).map((entry) => entry.key).sort()).toEqual(['b', 'c']);
  });

  it('keeps namespaces apart in one table, each with its own limits', async () => {
    const table = freshTable();
    const [alice, bob, hostile] = ['user:alice', 'user:bob', '__proto__\u0000'].map((namespace) =>
      createPostgresMemoryStore({ query: query(), table, namespace, maxEntries: 1 }),
    );
    await alice!.ensureSchema();
    await alice!.put('colour', 'blue');
    await bob!.put('colour', 'green');
    await hostile!.put('colour', 'red');
    expect(await alice!.get('colour')).toMatchObject({ value: 'blue' });
    expect(await bob!.get('colour')).toMatchObject({ value: 'green' });
    expect(await hostile!.search({ text: '', limit: 5 })).toMatchObject([{ key: 'colour', value: 'red' }]);
    await expect(alice!.put('size', 'L')).rejects.toMatchObject({ reason: 'memory_full' });
    expect(await bob!.delete('colour')).toBe(true);
    expect(await alice!.get('colour')).toMatchObject({ value: 'blue' });
  });

  it('refuses to search a namespace holding more than its limits (written with larger ones), without reading it', async () => {
    const table = freshTable();
    const large = createPostgresMemoryStore({ query: query(), table });
    await large.ensureSchema();
    for (const key of ['a', 'b', 'c']) await large.put(key, 'value');
    const small = createPostgresMemoryStore({ query: query(), table, maxEntries: 2 });
    await expect(small.search({ text: '', limit: 5 })).rejects.toMatchObject({ reason: 'memory_unavailable', message: expect.stringContaining('3 entries') });
    expect(await small.get('a')).toMatchObject({ value: 'value' });
  });

  it('ensureSchema is idempotent, also when many callers race', async () => {
    const table = freshTable();
    await Promise.all(Array.from({ length: 8 }, () => createPostgresMemoryStore({ query: query(), table }).ensureSchema()));
    const store = createPostgresMemoryStore({ query: query(), table });
    await store.ensureSchema();
    await store.put('k', 'v');
    expect(await store.get('k')).toMatchObject({ value: 'v' });
  });

  it('backs the memory tools through a turn: remember, recall by words, forget', async () => {
    const store = await storeOn();
    const result = await runCalls(store, [
      call('r1', 'remember', { key: '__proto__', value: 'Prefers answers in Norwegian.' }),
      call('r2', 'recall', { query: 'NORWEGIAN' }),
      call('f1', 'forget', { key: '__proto__' }),
      call('r3', 'recall', { key: '__proto__' }),
    ]);
    expect(result.outcome).toBe('completed');
    const outputs = toolResults(result);
    expect(outputs[1]?.output).toBe('[__proto__] Prefers answers in Norwegian.');
    expect(outputs[2]?.output).toBe('Forgot "__proto__".');
    expect(outputs[3]).toMatchObject({ status: 'error', error: { code: 'not_found' } });
  });
});

describe('createPostgresMemoryStore with many writers', () => {
  it('holds maxEntries when 40 puts race over 20 connections and 4 store instances', async () => {
    const table = freshTable();
    const stores = Array.from({ length: 4 }, () => createPostgresMemoryStore({ query: pool, table, maxEntries: 10 }));
    await stores[0]!.ensureSchema();
    const outcomes = await Promise.allSettled(Array.from({ length: 40 }, (_, index) => stores[index % 4]!.put(`key-${String(index)}`, 'value')));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(10);
    for (const outcome of outcomes) if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ reason: 'memory_full' });
    expect((await pool.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]).toEqual({ n: 10 });
  });

  it('holds maxBytes when puts race', async () => {
    const table = freshTable();
    const store = createPostgresMemoryStore({ query: pool, table, maxBytes: 1000 });
    await store.ensureSchema();
    await Promise.allSettled(Array.from({ length: 30 }, (_, index) => store.put(`k${String(index).padStart(2, '0')}`, 'v'.repeat(97))));
    const { rows } = await pool.query(`SELECT count(*)::int AS n, sum(octet_length(key) + octet_length(value))::int AS bytes FROM ${table}`);
    expect(rows[0]).toEqual({ n: 10, bytes: 1000 });
  });
});

describe('createPostgresMemoryStore when the server is down', () => {
  it('gives the model a retryable memory_unavailable error, and works again once the server is back', async () => {
    const store = createPostgresMemoryStore({ query: pool, table: freshTable() });
    await store.ensureSchema();
    await store.put('k', 'kept');
    await server.stop();
    try {
      const result = await runCalls(store, [call('r1', 'recall', { key: 'k' })]);
      expect(result.outcome).toBe('completed');
      expect(toolResults(result)[0]).toMatchObject({ status: 'error', error: { code: 'memory_unavailable', retryable: true } });
    } finally {
      await server.start();
    }
    expect(await store.get('k')).toMatchObject({ value: 'kept' });
  }, 60_000);

  it('ends the turn within its maxElapsedMs when the server stops answering mid-call', async () => {
    const client = new pg.Client({ connectionString: server.connectionString });
    client.on('error', () => undefined);
    await client.connect();
    const store = createPostgresMemoryStore({ query: client, table: freshTable() });
    await store.ensureSchema();
    server.freeze();
    try {
      const started = Date.now();
      const result = await createHarness({
        model: createScriptedModel([call('r1', 'recall', { query: 'anything' }), { type: 'final_answer', text: 'done' }]),
        tools: createMemoryToolRegistry({ store }),
        limits: { maxElapsedMs: 500 },
      }).runTurn(createTurnInput({ text: 'use your memory' }), { signal: AbortSignal.timeout(10_000) });
      expect(Date.now() - started).toBeLessThan(500 + 1_000);
      expect(result.stopReason).toBe('timeout_reached');
    } finally {
      server.thaw();
      await client.end().catch(() => undefined);
    }
  }, 60_000);
});

describe('createPostgresMemoryStore options', () => {
  it.each([
    ['no query', { query: undefined }, 'query'],
    ['a query object without a query method', { query: {} as never }, 'query'],
    ['a bad table name', { query: () => Promise.resolve({ rows: [] }), table: 'Memory' }, 'table'],
    ['maxEntries 0', { query: () => Promise.resolve({ rows: [] }), maxEntries: 0 }, 'maxEntries'],
    ['maxBytes over 64 MiB', { query: () => Promise.resolve({ rows: [] }), maxBytes: 64 * 1024 * 1024 + 1 }, 'maxBytes'],
    ['a namespace that is not a string', { query: () => Promise.resolve({ rows: [] }), namespace: 42 }, 'namespace'],
  ])('refuses %s', (_name, options, field) => {
    expect(() => createPostgresMemoryStore(options as never)).toThrow(expect.objectContaining({ name: 'HarnessConfigError', field }));
  });
});

const call = (id: string, name: string, input: Record<string, unknown> = {}) => ({ type: 'tool_request' as const, calls: [{ id, name, input }] });

async function runCalls(store: MemoryStore, calls: ReturnType<typeof call>[]): Promise<HarnessResult> {
  const harness = createHarness({
    model: createScriptedModel([...calls, { type: 'final_answer', text: 'done' }]),
    tools: createMemoryToolRegistry({ store }),
    limits: { maxToolCalls: 20, maxIterations: 20 },
  });
  return harness.runTurn(createTurnInput({ text: 'use your memory' }));
}

function toolResults(result: HarnessResult) {
  return result.transcript.flatMap((item) => (item.type === 'tool_result' ? [item.result] : []));
}
