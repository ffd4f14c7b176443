import { ensurePostgresSchema, postgresRows, postgresTable, type PostgresQuery } from '../../shared/postgres/postgres-query.js';
import type { HarnessContinuation, HarnessResumeGuard } from '../types/continuation.js';
import { createClaimTokens } from './claim-tokens.js';
import { claimTtlMs as claimLifeMs, readClaimTtlMs, resumeClaimKey } from './resume-claim-key.js';

/** Options of {@link createPostgresResumeGuard}. */
export interface PostgresResumeGuardOptions {
  /**
   * How to run a statement: a `pg` Pool or Client, a PGlite database, or a function
   * `(text, values) => Promise<{ rows }>`. No client is bundled.
   */
  query: PostgresQuery;
  /**
   * The claims table (created by `ensureSchema`): lowercase letters, digits and `_`, at most 48
   * characters, optionally `schema.table`.
   * @default 'agent_assistant_resume_claims'
   */
  table?: string | undefined;
  /**
   * How long the claim of a continuation without `expiresAt` lives, in milliseconds (1 ms to 10
   * years); such a continuation resumed after this can run again, so give the harness a
   * `continuationTtlMs` no longer than this. A claim of one with an expiry lives until the expiry
   * plus `RESUME_CLAIM_GRACE_MS`.
   * @default 604800000 (7 days)
   */
  claimTtlMs?: number | undefined;
  /**
   * Epoch milliseconds, used to work out how long a claim must live from now.
   * @default Date.now
   */
  now?: (() => number) | undefined;
}

/** A resume guard on a Postgres table. */
export interface PostgresResumeGuard extends HarnessResumeGuard {
  /**
   * Creates the claims table and its expiry index if missing. Idempotent, and safe to call from
   * many processes at once; call it once at start-up (or create the table by your migrations).
   */
  ensureSchema(): Promise<void>;
  /**
   * Deletes the claim `claim(continuation)` made (the same object), if that claim's row is still
   * there: `resumeTurn` calls it when nothing ran under the claim (the claim threw, or answered
   * after the deadline). A row written by another claim is left alone.
   */
  release(continuation: HarnessContinuation): Promise<void>;
  /** Deletes expired claims and resolves how many it deleted. */
  prune(): Promise<number>;
}

const SWEEP_EVERY = 1024;
const SWEEP_BATCH = 1000;

/**
 * A resume guard that holds across every machine sharing one Postgres database: a claim is
 * `INSERT … ON CONFLICT DO NOTHING` on the claim key (a 64-character hash, so no outside text
 * reaches the table), and exactly one inserter sees its row come back. Each claim also writes a
 * random token, so `release` deletes only the row its own claim wrote. The claim lives as long
 * as the continuation can still be resumed (until its `expiresAt` plus `RESUME_CLAIM_GRACE_MS`,
 * counted from now on the database's clock), or `claimTtlMs` without an expiry; a claim past
 * that is forgotten — taken over by the next claim
 * and deleted by `prune()` and by a sweep of at most 1000 rows every 1024 claims (run in the
 * background; its errors are ignored). Plain SQL, no `node:` imports: it runs wherever the
 * client does (Node.js, Workers with a Postgres driver).
 *
 * @throws HarnessConfigError for a missing `query`, a bad table name or `claimTtlMs`.
 * @example
 * ```ts
 * import pg from 'pg';
 * const resumeGuard = createPostgresResumeGuard({ query: new pg.Pool({ connectionString }) });
 * await resumeGuard.ensureSchema();
 * const harness = createHarness({ model, tools, continuationSecret, resumeGuard });
 * ```
 */
export function createPostgresResumeGuard(options: PostgresResumeGuardOptions): PostgresResumeGuard {
  const owner = 'createPostgresResumeGuard';
  const rows = postgresRows((options as Partial<PostgresResumeGuardOptions> | undefined)?.query, owner);
  const table = postgresTable(options.table, 'agent_assistant_resume_claims', owner);
  const claimTtlMs = readClaimTtlMs(options.claimTtlMs);
  const now = options.now ?? Date.now;
  const tokens = createClaimTokens();
  let claims = 0;

  const prune = async (limit?: number): Promise<number> => {
    const scope = limit === undefined ? '' : ` AND ctid IN (SELECT ctid FROM ${table.sql} WHERE expires_at <= now() LIMIT ${String(limit)})`;
    const deleted = await rows(`DELETE FROM ${table.sql} WHERE expires_at <= now()${scope} RETURNING 1 AS deleted`, []);
    return deleted.length;
  };

  return {
    async claim(continuation: HarnessContinuation) {
      const key = await resumeClaimKey(continuation);
      const ttlMs = claimLifeMs(continuation, now(), claimTtlMs);
      // A row past its expiry is taken over (updated under the row lock, so one claimer wins);
      // a live row makes the statement return nothing.
      const claimed = await rows(
        `INSERT INTO ${table.sql} AS claim (key, token, expires_at) VALUES ($1, $2, now() + $3::double precision * interval '1 millisecond') ` +
          'ON CONFLICT (key) DO UPDATE SET token = EXCLUDED.token, expires_at = EXCLUDED.expires_at, claimed_at = now() ' +
          'WHERE claim.expires_at <= now() RETURNING 1 AS claimed',
        [key, tokens.next(continuation), ttlMs],
      );
      claims += 1;
      if (claims % SWEEP_EVERY === 0) prune(SWEEP_BATCH).catch(() => undefined);
      return claimed.length === 1;
    },
    async release(continuation: HarnessContinuation) {
      const token = tokens.take(continuation);
      if (token === undefined) return;
      await rows(`DELETE FROM ${table.sql} WHERE key = $1 AND token = $2`, [await resumeClaimKey(continuation), token]);
    },
    ensureSchema: () =>
      ensurePostgresSchema(rows, table.plain, [
        `CREATE TABLE IF NOT EXISTS ${table.sql} (key text PRIMARY KEY, token text NOT NULL, expires_at timestamptz NOT NULL, claimed_at timestamptz NOT NULL DEFAULT now());`,
        `CREATE INDEX IF NOT EXISTS ${table.relatedName('expires_at')} ON ${table.sql} (expires_at);`,
      ]),
    prune: () => prune(),
  };
}
