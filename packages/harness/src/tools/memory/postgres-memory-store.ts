import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { ensurePostgresSchema, postgresRows, postgresTable, type PostgresQuery } from '../../shared/postgres/postgres-query.js';
import { fromPostgresText, toPostgresText } from '../../shared/postgres/postgres-text.js';
import { boundedOption } from '../../shared/bounded-option.js';
import { ToolExecutionError } from '../tool-execution-error.js';
import { memoryFull, memoryUnavailable, searchEntries } from './internal/memory-entries.js';
import type { MemoryEntry, MemoryStore } from './memory-store.js';

const MAX_KEY_CHARS = 128;

/** Options of {@link createPostgresMemoryStore}. */
export interface PostgresMemoryStoreOptions {
  /**
   * How to run a statement: a `pg` Pool or Client, a PGlite database, or a function
   * `(text, values) => Promise<{ rows }>`. No client is bundled.
   */
  query: PostgresQuery;
  /**
   * The entries table (created by `ensureSchema`, with a function `<table>_put`): lowercase
   * letters, digits and `_`, at most 48 characters, optionally `schema.table`.
   * @default 'agent_assistant_memory'
   */
  table?: string | undefined;
  /** Whose memory this is: stores with different namespaces share a table, not entries. @default '' */
  namespace?: string | undefined;
  /** Largest total of keys and values, in UTF-8 bytes as stored: 1 to 67108864 (64 MiB). @default 1048576 (1 MiB) */
  maxBytes?: number | undefined;
  /** Most entries kept: 1 to 100000. @default 1000 */
  maxEntries?: number | undefined;
}

/** A memory store on a Postgres table. */
export interface PostgresMemoryStore extends MemoryStore {
  /**
   * Creates the entries table and its `<table>_put` function if missing (or replaces the
   * function). Idempotent, and safe to call from many processes at once.
   */
  ensureSchema(): Promise<void>;
}

/**
 * A {@link MemoryStore} in a Postgres table, shared by every process using the database, with the
 * file store's semantics and limits: `put` replaces, `search` ranks by matching words then
 * recency (the same ranking, run on the rows read back), and a `put` that would pass `maxEntries`
 * or `maxBytes` fails with `memory_full` and changes nothing. A `put` checks and writes under a
 * lock on its namespace, in one statement (the `<table>_put` function), so the limits hold with
 * many writers; two writers of one key: the last write wins. A namespace holding more than the
 * limits (written with larger ones) is refused on `search` (`memory_unavailable`) and never
 * read whole. Keys and values are stored as text with NUL, U+0001 and lone surrogates escaped
 * (Postgres text cannot hold NUL), so any string comes back as it went in; a `put` of a key
 * longer than 128 characters (the memory tools' limit) fails with `invalid_key`. No `node:` imports.
 *
 * @throws HarnessConfigError for a missing `query`, a bad table name or out-of-range options.
 * @example
 * ```ts
 * const store = createPostgresMemoryStore({ query: pool, namespace: `user:${userId}` });
 * await store.ensureSchema();
 * const tools = createMemoryToolRegistry({ store });
 * ```
 */
export function createPostgresMemoryStore(options: PostgresMemoryStoreOptions): PostgresMemoryStore {
  const owner = 'createPostgresMemoryStore';
  const rows = postgresRows((options as Partial<PostgresMemoryStoreOptions> | undefined)?.query, owner);
  const table = postgresTable(options.table, 'agent_assistant_memory', owner);
  const namespace = readNamespace(options.namespace);
  const maxBytes = boundedOption(options.maxBytes, 1024 * 1024, 64 * 1024 * 1024, 'maxBytes');
  const maxEntries = boundedOption(options.maxEntries, 1000, 100_000, 'maxEntries');
  const put = table.related('put');

  return {
    async get(key) {
      const found = await rows(`SELECT key, value, updated_at FROM ${table.sql} WHERE namespace = $1 AND key = $2`, [namespace, toPostgresText(key)]);
      return found.length === 0 ? undefined : readEntry(found[0]!);
    },
    async put(key, value) {
      // The documented key length; it also keeps every key within what a Postgres index holds.
      if (key.length < 1 || key.length > MAX_KEY_CHARS) {
        throw new ToolExecutionError(`Memory keys are 1 to ${String(MAX_KEY_CHARS)} characters; this one has ${String(key.length)}.`, {
          reason: 'invalid_key',
          retryable: false,
        });
      }
      const [row] = await rows(`SELECT ${put}($1, $2, $3, $4::bigint, $5::integer, $6::bigint) AS status`, [
        namespace,
        toPostgresText(key),
        toPostgresText(value),
        Date.now(),
        maxEntries,
        maxBytes,
      ]);
      const status = row?.status;
      if (status === 'entries') throw memoryFull(`The memory holds ${String(maxEntries)} entries.`);
      if (status === 'bytes') throw memoryFull(`The memory would hold more than ${String(maxBytes)} bytes.`);
      if (status !== 'ok') throw new Error(`${put} answered ${JSON.stringify(String(status))}; run ensureSchema() to install the current function.`);
    },
    async delete(key) {
      const deleted = await rows(`DELETE FROM ${table.sql} WHERE namespace = $1 AND key = $2 RETURNING 1 AS deleted`, [namespace, toPostgresText(key)]);
      return deleted.length > 0;
    },
    async search(query) {
      // The totals and the rows in one snapshot; the rows only when within the limits.
      const found = await rows(
        `WITH totals AS (SELECT count(*) AS entries, coalesce(sum(octet_length(key) + octet_length(value)), 0) AS bytes FROM ${table.sql} WHERE namespace = $1) ` +
          `SELECT totals.entries, totals.bytes, memory.key, memory.value, memory.updated_at FROM totals ` +
          `LEFT JOIN ${table.sql} AS memory ON memory.namespace = $1 AND totals.entries <= $2 AND totals.bytes <= $3 ORDER BY memory.key`,
        [namespace, maxEntries, maxBytes],
      );
      const totals = found[0];
      if (totals !== undefined && (Number(totals.entries) > maxEntries || Number(totals.bytes) > maxBytes)) {
        throw memoryUnavailable(
          `it holds ${String(totals.entries)} entries of ${String(totals.bytes)} bytes, over the limits of ${String(maxEntries)} entries and ${String(maxBytes)} bytes`,
        );
      }
      return searchEntries(found.filter((row) => row.key !== null && row.key !== undefined).map(readEntry), query);
    },
    ensureSchema: () =>
      ensurePostgresSchema(rows, table.plain, [
        `CREATE TABLE IF NOT EXISTS ${table.sql} (namespace text NOT NULL, key text NOT NULL, value text NOT NULL, updated_at bigint NOT NULL, PRIMARY KEY (namespace, key));`,
        putFunction(table.sql, put, table.plain),
      ]),
  };
}

/**
 * The `put` function: under a transaction-scoped advisory lock on the namespace, it counts what
 * the namespace holds (each statement of a PL/pgSQL function sees every write committed before
 * it, so after the lock it sees every earlier put), refuses what would pass a limit, else upserts.
 */
function putFunction(tableSql: string, functionSql: string, lockKey: string): string {
  return `CREATE OR REPLACE FUNCTION ${functionSql}(p_namespace text, p_key text, p_value text, p_updated_at bigint, p_max_entries integer, p_max_bytes bigint)
RETURNS text LANGUAGE plpgsql AS $put$
DECLARE
  old_bytes bigint;
  total_entries bigint;
  total_bytes bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('agent_assistant_memory:${lockKey}'), hashtext(p_namespace));
  SELECT octet_length(key) + octet_length(value) INTO old_bytes FROM ${tableSql} WHERE namespace = p_namespace AND key = p_key;
  SELECT count(*), coalesce(sum(octet_length(key) + octet_length(value)), 0) INTO total_entries, total_bytes FROM ${tableSql} WHERE namespace = p_namespace;
  IF old_bytes IS NULL AND total_entries >= p_max_entries THEN RETURN 'entries'; END IF;
  IF total_bytes - coalesce(old_bytes, 0) + octet_length(p_key) + octet_length(p_value) > p_max_bytes THEN RETURN 'bytes'; END IF;
  INSERT INTO ${tableSql} (namespace, key, value, updated_at) VALUES (p_namespace, p_key, p_value, p_updated_at)
    ON CONFLICT (namespace, key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at;
  RETURN 'ok';
END
$put$;`;
}

function readNamespace(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value !== 'string' || value.length > 1024) {
    throw new HarnessConfigError('createPostgresMemoryStore: namespace must be a string of at most 1024 characters.', { field: 'namespace' });
  }
  return toPostgresText(value);
}

/** An entry read back, decoded and checked like any custom store's. */
function readEntry(row: Record<string, unknown>): MemoryEntry {
  const entry = {
    key: typeof row.key === 'string' ? fromPostgresText(row.key) : row.key,
    value: typeof row.value === 'string' ? fromPostgresText(row.value) : row.value,
    updatedAt: Number(row.updated_at),
  };
  if (!isMemoryEntryShape(entry)) throw new Error('The memory table holds a malformed row.');
  return entry;
}

function isMemoryEntryShape(entry: { key: unknown; value: unknown; updatedAt: number }): entry is MemoryEntry {
  return typeof entry.key === 'string' && typeof entry.value === 'string' && Number.isFinite(entry.updatedAt);
}
