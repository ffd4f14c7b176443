// runResumeGuardConformance on the Postgres resume guard: against a real Postgres 15 server
// (claimers in 16 processes with their own connections; the server stopped and restarted), and
// against PGlite (embedded, so one process; its "restart" closes and reopens the data folder).
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeResumeGuardClaimers } from '@agent-assistant/harness/testing/node';
import { startPostgres, type PostgresServer } from '../../__fixtures__/postgres-server.mjs';
import { createPostgresResumeGuard } from '../../index.js';
import { runResumeGuardConformance, type ResumeGuardConformanceReport } from '../../testing/index.js';

const built = fileURLToPath(new URL('../../../dist/resume-guard-claimer.js', import.meta.url));
const factory = new URL('../../__fixtures__/conformance-postgres-guard.mjs', import.meta.url);

function expectConformant(report: ResumeGuardConformanceReport) {
  expect(report.checks.filter((check) => !check.ok), JSON.stringify(report.checks, null, 2)).toEqual([]);
  expect(report.ok).toBe(true);
}

describe('runResumeGuardConformance on createPostgresResumeGuard', () => {
  let server: PostgresServer;
  let pool: pg.Pool;
  let folder: string;

  beforeAll(async () => {
    server = await startPostgres();
    pool = new pg.Pool({ connectionString: server.connectionString, max: 20 });
    pool.on('error', () => undefined);
    folder = await mkdtemp(join(tmpdir(), 'pglite-conformance-'));
  }, 120_000);

  afterAll(async () => {
    await pool?.end();
    await server?.destroy();
    await rm(folder, { recursive: true, force: true });
  });

  it('passes on Postgres 15: 16 claimer processes, a killed claimer, the server stopped and restarted', async () => {
    expect(existsSync(built), 'build the package first (npm test does): dist/resume-guard-claimer.js is missing').toBe(true);
    const table = 'conformance_claims';
    await createPostgresResumeGuard({ query: pool, table }).ensureSchema();
    const report = await runResumeGuardConformance(() => createPostgresResumeGuard({ query: pool, table }), {
      processes: createNodeResumeGuardClaimers({ module: factory, exportName: 'postgresGuard', args: { connectionString: server.connectionString, table } }),
      store: { stop: () => server.stop(), start: () => server.start() },
    });
    expectConformant(report);
    expect(report.checks.filter((check) => check.skipped === true)).toEqual([]);
    expect(report.checks.find((check) => check.name === 'store-restart')!.detail).toMatch(/still holds/);
    expect(report.throughput).toMatchObject({ claims: 10_000 });
  }, 300_000);

  it('passes on PGlite, whose data folder survives a close and reopen (processes skipped: it is embedded)', async () => {
    let db: PGlite | undefined = await PGlite.create(folder);
    const query = (text: string, values: unknown[]) => {
      if (db === undefined) return Promise.reject(new Error('PGlite is closed'));
      return db.query(text, values);
    };
    await createPostgresResumeGuard({ query }).ensureSchema();
    try {
      const report = await runResumeGuardConformance(() => createPostgresResumeGuard({ query }), {
        processes: { skip: 'PGlite is embedded: one process owns the database' },
        store: {
          stop: async () => {
            const closing = db;
            db = undefined;
            await closing?.close();
          },
          start: async () => {
            db = await PGlite.create(folder);
          },
        },
      });
      expectConformant(report);
      expect(report.checks.find((check) => check.name === 'store-restart')!.detail).toMatch(/still holds/);
    } finally {
      await db?.close();
    }
  }, 300_000);
});
