import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, createMemoryToolRegistry, createRedisMemoryStore, HarnessConfigError, type HarnessResult } from '../../index.js';
import { createScriptedModel, createTurnInput } from '../../testing/index.js';
import { startRedisServer, type RedisServer } from '../../__fixtures__/redis-server.js';
import { REDIS_CLIENT_KINDS, redisClients } from '../../__fixtures__/redis-clients.js';

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.close();
});
const clients = redisClients(() => server.url);
afterEach(() => clients.closeAll());

let keys = 0;
/** A memory hash of its own for each test. */
const freshKey = () => `memory:test-${String((keys += 1))}`;

const call = (id: string, name: string, input: Record<string, unknown> = {}) => ({ type: 'tool_request' as const, calls: [{ id, name, input }] });
function toolResults(result: HarnessResult) {
  return result.transcript.flatMap((item) => (item.type === 'tool_result' ? [item.result] : []));
}

describe.each(REDIS_CLIENT_KINDS)('createRedisMemoryStore with %s (real redis-server)', (kind) => {
  it('remembers in one process and recalls in another: the memory tools over a shared Redis', async () => {
    const key = freshKey();
    const writer = createRedisMemoryStore({ client: (await clients.connect(kind)).client, key });
    const reader = createRedisMemoryStore({ client: (await clients.connect(kind)).client, key });
    const turn = (store: typeof writer, calls: ReturnType<typeof call>[]) =>
      createHarness({
        model: createScriptedModel([...calls, { type: 'final_answer', text: 'done' }]),
        tools: createMemoryToolRegistry({ store }),
        limits: { maxToolCalls: 20, maxIterations: 20 },
      }).runTurn(createTurnInput());
    await turn(writer, [
      call('r1', 'remember', { key: '__proto__', value: 'first' }),
      call('r2', 'remember', { key: 'team', value: 'The team meets on Mondays.' }),
      call('r3', 'remember', { key: '__proto__', value: 'second' }),
      call('r4', 'remember', { key: 'ключ 🔑', value: 'unicode ✓' }),
    ]);
    const read = toolResults(await turn(reader, [call('r5', 'recall', { key: '__proto__' }), call('r6', 'recall', { query: 'MONDAYS' }), call('r7', 'recall', { key: 'ключ 🔑' })]));
    expect(read.map((result) => result.output)).toEqual(['[__proto__] second', '[team] The team meets on Mondays.', '[ключ 🔑] unicode ✓']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(await reader.delete('team')).toBe(true);
    expect(await writer.delete('team')).toBe(false);
    expect((await writer.search({ text: '', limit: 10 })).map((entry) => entry.key).sort()).toEqual(['__proto__', 'ключ 🔑']);
    expect(await writer.get('constructor')).toBeUndefined();
  });

  it('never goes past maxEntries, even with 40 concurrent puts from 4 clients; a refused put changes nothing', async () => {
    const key = freshKey();
    const stores = await Promise.all(Array.from({ length: 4 }, async () => createRedisMemoryStore({ client: (await clients.connect(kind)).client, key, maxEntries: 10 })));
    const outcomes = await Promise.allSettled(Array.from({ length: 40 }, (_, index) => stores[index % 4]!.put(`k${String(index)}`, String(index))));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(10);
    for (const outcome of outcomes.filter((item) => item.status === 'rejected')) {
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ reason: 'memory_full', retryable: true });
    }
    const held = await stores[0]!.search({ text: '', limit: 50 });
    expect(held).toHaveLength(10);
    await stores[1]!.put(held[0]!.key, 'replaced');
    expect((await stores[2]!.get(held[0]!.key))?.value).toBe('replaced');
  });

  it('counts bytes like the file store: refuses a put past maxBytes, and a replaced value does not grow the total', async () => {
    const client = (await clients.connect(kind)).client;
    const store = createRedisMemoryStore({ client, key: freshKey(), maxBytes: 300 });
    await store.put('a', 'short');
    for (let round = 0; round < 20; round += 1) await store.put('a', `value ${String(round)}`);
    await expect(store.put('b', 'w'.repeat(300))).rejects.toMatchObject({ reason: 'memory_full', message: expect.stringMatching(/limit is 300/) });
    expect(await store.get('b')).toBeUndefined();
    expect((await store.get('a'))?.value).toBe('value 19');
    await store.delete('a');
    await store.put('b', 'w'.repeat(200));
    expect((await store.get('b'))?.value).toHaveLength(200);
  });

  it('refuses someone else’s data and never overwrites or reads it whole', async () => {
    const client = (await clients.connect(kind)).client;
    const admin = await clients.admin();
    const notAHash = freshKey();
    await admin.set(notAHash, 'a string');
    const foreign = createRedisMemoryStore({ client, key: notAHash });
    for (const operation of [() => foreign.get('a'), () => foreign.put('a', 'v'), () => foreign.delete('a'), () => foreign.search({ text: '', limit: 5 })]) {
      await expect(operation()).rejects.toMatchObject({ reason: 'memory_unavailable', retryable: false, message: expect.stringMatching(/not a Redis hash|other than a Redis hash/) });
    }
    expect(await admin.get(notAHash)).toBe('a string');

    const malformed = freshKey();
    await admin.hSet(malformed, { good: JSON.stringify({ value: 'ok', updatedAt: 1 }), bad: '{"value": 5}', '\u0001control': JSON.stringify({ value: 'x', updatedAt: 1 }) });
    const store = createRedisMemoryStore({ client, key: malformed });
    expect((await store.get('good'))?.value).toBe('ok');
    await expect(store.get('bad')).rejects.toMatchObject({ reason: 'memory_unavailable', message: expect.stringMatching(/malformed/) });
    await expect(store.search({ text: '', limit: 5 })).rejects.toMatchObject({ reason: 'memory_unavailable' });

    const huge = freshKey();
    await admin.hSet(huge, 'big', 'x'.repeat(2_000_000));
    const bounded = createRedisMemoryStore({ client, key: huge });
    await expect(bounded.get('big')).rejects.toMatchObject({ reason: 'memory_unavailable', message: expect.stringMatching(/2000000 bytes, over the limit/) });
    await expect(bounded.search({ text: '', limit: 5 })).rejects.toMatchObject({ reason: 'memory_unavailable' });
    const crowded = freshKey();
    await admin.hSet(crowded, Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`k${String(index)}`, JSON.stringify({ value: 'v', updatedAt: 1 })])));
    await expect(createRedisMemoryStore({ client, key: crowded, maxEntries: 5 }).search({ text: '', limit: 5 })).rejects.toMatchObject({
      message: expect.stringMatching(/20 entries, over the limit of 5/),
    });
  });
});

describe('createRedisMemoryStore options', () => {
  it('refuses a missing client, an empty key and out-of-range limits', () => {
    const client = { call: async () => null };
    expect(() => createRedisMemoryStore({} as never)).toThrow(expect.objectContaining({ field: 'client' }));
    expect(() => createRedisMemoryStore({ client, key: '' })).toThrow(expect.objectContaining({ field: 'key' }));
    expect(() => createRedisMemoryStore({ client, maxEntries: 100_001 })).toThrow(HarnessConfigError);
    expect(() => createRedisMemoryStore({ client, maxBytes: 0 })).toThrow(expect.objectContaining({ field: 'maxBytes' }));
  });
});
