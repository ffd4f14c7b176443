// The guard factory runResumeGuardConformance's claimer processes import (built package): each
// process opens its own pg Pool to the test server.
import pg from 'pg';
import { createPostgresResumeGuard } from '@agent-assistant/harness';

/** A Postgres resume guard over `table` on the server at `connectionString`. */
export function postgresGuard({ connectionString, table }) {
  const pool = new pg.Pool({ connectionString, max: 2, allowExitOnIdle: true });
  pool.on('error', () => undefined);
  return createPostgresResumeGuard({ query: pool, table });
}
