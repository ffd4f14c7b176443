// The Postgres resume guard against a real Postgres 15 server (a throwaway cluster, see
// __fixtures__/postgres-server.mjs: it fails, never skips, without the server binaries) through
// the `pg` client, and against PGlite (Postgres in WebAssembly).
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresServer } from '../../__fixtures__/postgres-server.mjs';
import { createPostgresResumeGuard, RESUME_CLAIM_GRACE_MS, type HarnessContinuation, type PostgresQuery } from '../../index.js';
import { APPROVE_MAIL, pauseForApproval, resumingHarness } from '../__fixtures__/approval-pause.js';
import { resumeClaimKey } from './resume-claim-key.js';

let server: PostgresServer;
let pool: pg.Pool;
let lite: PGlite;

beforeAll(async () => {
  [server, lite] = await Promise.all([startPostgres(), PGlite.create()]);
  pool = new pg.Pool({ connectionString: server.connectionString, max: 20 });
  // A restart ends idle connections; the pool drops them and reports here.
  pool.on('error', () => undefined);
}, 120_000);

afterAll(async () => {
  server?.thaw();
  await pool?.end();
  await lite?.close();
  await server?.destroy();
});

let tables = 0;
/** A fresh table per test, so tests do not see each other's claims. */
const freshTable = () => `claims_${String((tables += 1))}`;

const backends: [string, () => PostgresQuery][] = [
  ['Postgres 15 through a pg Pool', () => pool],
  ['Postgres 15 through a query function', () => (text, values) => pool.query(text, values)],
  ['PGlite', () => lite],
];

/** A continuation with other identifiers: the guard reads only turnId, id, resumeToken and expiresAt. */
function forged(base: HarnessContinuation, changes: Partial<HarnessContinuation>): HarnessContinuation {
  return { ...base, ...changes };
}

describe.each(backends)('createPostgresResumeGuard on %s', (_name, query) => {
  async function guardOn(options: { table?: string; claimTtlMs?: number; now?: () => number } = {}) {
    const table = options.table ?? freshTable();
    const guard = createPostgresResumeGuard({ query: query(), ...options, table });
    await guard.ensureSchema();
    return { guard, table };
  }

  it('runs the approved tool once; a replay through another harness and guard ends continuation_invalid', async () => {
    const { table } = await guardOn();
    const continuation = await pauseForApproval();
    const first = resumingHarness({ resumeGuard: createPostgresResumeGuard({ query: query(), table }) });
    const second = resumingHarness({ resumeGuard: createPostgresResumeGuard({ query: query(), table }) });
    expect((await first.harness.resumeTurn(continuation, APPROVE_MAIL)).outcome).toBe('completed');
    const replay = await second.harness.resumeTurn(JSON.stringify(continuation), APPROVE_MAIL);
    expect(replay).toMatchObject({ outcome: 'failed', stopReason: 'continuation_invalid' });
    expect(replay.metadata?.error?.message).toMatch(/already resumed/);
    expect(first.tools.calls.length + second.tools.calls.length).toBe(1);
  });

  it('ensureSchema is idempotent, also when many callers race', async () => {
    const table = freshTable();
    await Promise.all(Array.from({ length: 8 }, () => createPostgresResumeGuard({ query: query(), table }).ensureSchema()));
    const guard = createPostgresResumeGuard({ query: query(), table });
    await guard.ensureSchema();
    const continuation = await pauseForApproval();
    expect(await guard.claim(continuation)).toBe(true);
    expect(await guard.claim(continuation)).toBe(false);
  });

  it('lets exactly one of 24 concurrent resumes run the tool', async () => {
    const { guard } = await guardOn();
    const continuation = await pauseForApproval();
    const { harness, tools } = resumingHarness({ resumeGuard: guard });
    const results = await Promise.all(Array.from({ length: 24 }, () => harness.resumeTurn(continuation, APPROVE_MAIL)));
    expect(results.filter((result) => result.outcome === 'completed')).toHaveLength(1);
    expect(results.filter((result) => result.stopReason === 'continuation_invalid')).toHaveLength(23);
    expect(tools.calls).toHaveLength(1);
  });

  it('keys hostile identifiers (__proto__, 10 KB, unicode, NUL) apart, each claimed once', async () => {
    const { guard, table } = await guardOn();
    const base = await pauseForApproval();
    const variants = [
      { id: '__proto__' },
      { turnId: '__proto__', id: 'constructor' },
      { id: 'x'.repeat(10 * 1024) },
      { turnId: 'k'.repeat(10 * 1024), resumeToken: 't'.repeat(10 * 1024) },
      { id: 'Ünïcødé 🦀 \u202e' },
      { id: 'a\u0000b' },
      { id: 'a\u0000c' },
      { id: '\ud800' },
    ].map((changes) => forged(base, changes));
    for (const continuation of variants) expect(await guard.claim(continuation)).toBe(true);
    for (const continuation of variants) expect(await guard.claim(continuation)).toBe(false);
    const stored = (await rowsOf(query(), `SELECT key FROM ${table}`)).map((row) => row.key);
    expect(new Set(stored).size).toBe(variants.length);
    for (const key of stored) expect(key).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keeps a claim for the continuation’s remaining life plus RESUME_CLAIM_GRACE_MS, else claimTtlMs (7 days by default)', async () => {
    const base = await pauseForApproval();
    const expiresAt = '2030-01-01T00:00:00.000Z';
    const { guard, table } = await guardOn({ now: () => Date.parse(expiresAt) - 60_000 });
    await guard.claim(forged(base, { expiresAt }));
    await guard.claim(forged(base, { id: 'no-expiry', expiresAt: undefined }));
    const lives = await rowsOf(query(), `SELECT round(extract(epoch FROM expires_at - claimed_at) * 1000)::bigint AS ms FROM ${table} ORDER BY ms`);
    expect(lives.map((row) => Number(row.ms))).toEqual([60_000 + RESUME_CLAIM_GRACE_MS, 7 * 24 * 3600 * 1000]);
    const short = await guardOn({ claimTtlMs: 5_000 });
    await short.guard.claim(forged(base, { expiresAt: undefined }));
    const [row] = await rowsOf(query(), `SELECT round(extract(epoch FROM expires_at - claimed_at) * 1000)::bigint AS ms FROM ${short.table}`);
    expect(Number(row!.ms)).toBe(5_000);
  });

  it('lets an expired claim be taken over once, and prune deletes expired claims only', async () => {
    const { guard, table } = await guardOn();
    const expiring = await pauseForApproval();
    const lasting = await pauseForApproval();
    expect(await guard.claim(expiring)).toBe(true);
    expect(await guard.claim(lasting)).toBe(true);
    // Time passes for one claim: its expiry moves into the past.
    const expiringKey = await resumeClaimKey(expiring);
    const expire = () => rowsOf(query(), `UPDATE ${table} SET expires_at = now() - interval '1 second' WHERE key = $1`, [expiringKey]);
    await expire();
    const takeovers = await Promise.all(Array.from({ length: 8 }, () => guard.claim(expiring)));
    expect(takeovers.filter(Boolean)).toHaveLength(1);
    expect(await guard.claim(lasting)).toBe(false);
    await expire();
    expect(await guard.prune()).toBe(1);
    expect(await guard.prune()).toBe(0);
    expect((await rowsOf(query(), `SELECT key FROM ${table}`)).map((row) => row.key)).toEqual([await resumeClaimKey(lasting)]);
  });

  it('releases only the claim it made: after a lost answer the continuation can be claimed again', async () => {
    const table = freshTable();
    const inner = query();
    let loseAnswer = true;
    const losing = createPostgresResumeGuard({
      table,
      query: async (text, values) => {
        const result = await runQuery(inner, text, values);
        if (text.startsWith('INSERT') && loseAnswer) throw new Error('connection reset after the write');
        return result;
      },
    });
    await losing.ensureSchema();
    const continuation = await pauseForApproval();
    await expect(losing.claim(continuation)).rejects.toThrow(/connection reset/);
    // The write landed: another guard sees the claim.
    const other = createPostgresResumeGuard({ query: inner, table });
    expect(await other.claim(continuation)).toBe(false);
    await other.release(continuation); // its claim made nothing: a no-op
    expect(await createPostgresResumeGuard({ query: inner, table }).claim(continuation)).toBe(false);
    await losing.release(continuation);
    loseAnswer = false;
    const fresh = createPostgresResumeGuard({ query: inner, table });
    expect(await fresh.claim(continuation)).toBe(true);
    // A release after the row was taken over by another claim leaves that claim alone.
    await losing.release(continuation);
    expect(await other.claim(continuation)).toBe(false);
  });

  it('sweeps expired claims in the background every 1024 claims', async () => {
    const table = freshTable();
    const inner = query();
    let swept!: () => void;
    const sweep = new Promise<void>((resolve) => (swept = resolve));
    const guard = createPostgresResumeGuard({
      table,
      query: async (text, values) => {
        const result = await runQuery(inner, text, values);
        if (text.startsWith('DELETE')) swept();
        return result;
      },
    });
    await guard.ensureSchema();
    await rowsOf(inner, `INSERT INTO ${table} (key, token, expires_at) SELECT 'old-' || n, 't', now() - interval '1 day' FROM generate_series(1, 10) AS n`);
    const base = await pauseForApproval();
    for (let index = 0; index < 1024; index += 1) await guard.claim(forged(base, { id: `c${String(index)}` }));
    await sweep;
    expect(await rowsOf(inner, `SELECT key FROM ${table} WHERE key LIKE 'old-%'`)).toEqual([]);
  }, 60_000);
});

describe('createPostgresResumeGuard with many connections to one server', () => {
  it('gives exactly one of 16 connections the claim', async () => {
    const table = freshTable();
    await createPostgresResumeGuard({ query: pool, table }).ensureSchema();
    const clients = Array.from({ length: 16 }, () => new pg.Client({ connectionString: server.connectionString }));
    await Promise.all(clients.map((client) => client.connect()));
    try {
      for (let round = 0; round < 5; round += 1) {
        const continuation = await pauseForApproval();
        const claims = await Promise.all(clients.map((client) => createPostgresResumeGuard({ query: client, table }).claim(continuation)));
        expect(claims.filter(Boolean)).toHaveLength(1);
      }
    } finally {
      await Promise.all(clients.map((client) => client.end()));
    }
  });
});

describe('createPostgresResumeGuard when the server fails', () => {
  it('refuses the resume (failed, nothing run) while the server is down, and keeps claims across a restart', async () => {
    const table = freshTable();
    const guard = createPostgresResumeGuard({ query: pool, table });
    await guard.ensureSchema();
    const claimed = await pauseForApproval();
    expect(await guard.claim(claimed)).toBe(true);
    await server.stop();
    try {
      const { harness, tools } = resumingHarness({ resumeGuard: guard });
      const result = await harness.resumeTurn(await pauseForApproval(), APPROVE_MAIL);
      expect(result).toMatchObject({ outcome: 'failed', stopReason: 'continuation_invalid' });
      expect(result.metadata?.error?.message).toMatch(/resumeGuard.claim failed/);
      expect(tools.calls).toHaveLength(0);
    } finally {
      await server.start();
    }
    expect(await guard.claim(claimed)).toBe(false);
    expect(await guard.claim(await pauseForApproval())).toBe(true);
  }, 60_000);

  it('ends the resume failed within the turn’s maxElapsedMs when the server stops answering', async () => {
    const table = freshTable();
    const client = new pg.Client({ connectionString: server.connectionString });
    client.on('error', () => undefined);
    await client.connect();
    const guard = createPostgresResumeGuard({ query: client, table });
    await guard.ensureSchema();
    const continuation = await pauseForApproval();
    const { harness, tools } = resumingHarness({ resumeGuard: guard, limits: { maxElapsedMs: 500 } });
    server.freeze();
    try {
      const started = Date.now();
      // The signal only stops the test from hanging should the deadline not hold.
      const result = await harness.resumeTurn(continuation, APPROVE_MAIL, { signal: AbortSignal.timeout(10_000) });
      expect(Date.now() - started).toBeLessThan(500 + 1_000);
      expect(result.outcome).toBe('failed');
      expect(tools.calls).toHaveLength(0);
    } finally {
      server.thaw();
      await client.end().catch(() => undefined);
    }
  }, 60_000);
});

describe('createPostgresResumeGuard options', () => {
  it.each([
    ['no query', { query: undefined }],
    ['a query without a query method', { query: {} }],
    ['a query getter that throws', { query: { get query() { throw new Error('getter'); } } }],
  ])('refuses %s', (_name, options) => {
    expect(() => createPostgresResumeGuard(options as never)).toThrow(expect.objectContaining({ name: 'HarnessConfigError', field: 'query' }));
  });

  it.each(['claims; DROP TABLE x', 'Claims', '"claims"', '1claims', 'a.b.c', 'x'.repeat(49), '', 'claims\u0000'])('refuses the table name %j', (table) => {
    expect(() => createPostgresResumeGuard({ query: pool, table })).toThrow(expect.objectContaining({ field: 'table' }));
  });

  it.each([0, -1, 1.5, Number.NaN, '1000'])('refuses claimTtlMs %j', (claimTtlMs) => {
    expect(() => createPostgresResumeGuard({ query: pool, claimTtlMs: claimTtlMs as number })).toThrow(expect.objectContaining({ field: 'claimTtlMs' }));
  });

  it('creates its table in a given schema', async () => {
    await pool.query('CREATE SCHEMA IF NOT EXISTS guard_schema');
    const guard = createPostgresResumeGuard({ query: pool, table: 'guard_schema.claims' });
    await guard.ensureSchema();
    expect(await guard.claim(await pauseForApproval())).toBe(true);
    expect((await pool.query('SELECT count(*)::int AS n FROM guard_schema.claims')).rows[0]).toEqual({ n: 1 });
  });

  it('fails the claim, not the process, when the query resolves something that is not a result', async () => {
    const continuation = await pauseForApproval();
    for (const result of [undefined, null, 42, { rows: 'no' }, { rows: [null] }]) {
      const guard = createPostgresResumeGuard({ query: async () => result as never });
      await expect(guard.claim(continuation)).rejects.toThrow(/resolved (without a rows array|a row that is not an object)/);
    }
  });
});

async function runQuery(query: PostgresQuery, text: string, values: unknown[]) {
  return typeof query === 'function' ? query(text, values) : query.query(text, values);
}

async function rowsOf(query: PostgresQuery, text: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
  return (await runQuery(query, text, values)).rows as Record<string, unknown>[];
}
