import { HarnessConfigError } from '../errors/harness-config-error.js';

/** What a Postgres query resolves to: `pg`'s `QueryResult` and PGlite's `Results` both fit. */
export interface PostgresQueryResult {
  rows: unknown[];
}

/**
 * Runs one statement with `$1`-style parameters: `(text, values) => pool.query(text, values)`
 * for a `pg` Pool or Client, `(text, values) => db.query(text, values)` for PGlite.
 */
export type PostgresQueryFunction = (text: string, values: unknown[]) => Promise<PostgresQueryResult>;

/** Anything with a `query(text, values)` method: a `pg` Pool or Client, a PGlite database. */
export interface PostgresQueryable {
  query(text: string, values: unknown[]): Promise<PostgresQueryResult>;
}

/** How the Postgres stores reach the database: a query function, or a Pool, Client or PGlite itself. */
export type PostgresQuery = PostgresQueryFunction | PostgresQueryable;

/** Runs a statement and resolves its rows (objects keyed by column name). */
export type PostgresRows = (text: string, values: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * Reads the `query` option into one function. Nothing of the database is touched here; a
 * result without a `rows` array, or rows that are not objects, reject when they come back.
 * @throws HarnessConfigError when `query` is neither a function nor an object with a `query` method.
 */
export function postgresRows(query: unknown, owner: string): PostgresRows {
  const call = readQuery(query, owner);
  return async (text, values) => {
    const result: unknown = await Promise.resolve().then(() => call(text, values));
    const rows = typeof result === 'object' && result !== null ? (result as { rows?: unknown }).rows : undefined;
    if (!Array.isArray(rows)) throw new Error('The Postgres query resolved without a rows array.');
    for (const row of rows as unknown[]) {
      if (typeof row !== 'object' || row === null) throw new Error('The Postgres query resolved a row that is not an object.');
    }
    return rows as Record<string, unknown>[];
  };
}

function readQuery(query: unknown, owner: string): (text: string, values: unknown[]) => unknown {
  if (typeof query === 'function') return (text, values) => (query as PostgresQueryFunction)(text, values);
  let method: unknown;
  try {
    method = typeof query === 'object' && query !== null ? (query as { query?: unknown }).query : undefined;
  } catch {
    method = undefined;
  }
  if (typeof method !== 'function') {
    throw new HarnessConfigError(
      `${owner} needs query: a function (text, values) => Promise<{ rows }>, or a pg Pool or Client, or a PGlite database.`,
      { field: 'query' },
    );
  }
  return (text, values) => (method as PostgresQueryFunction).call(query, text, values);
}

/** A validated table name and the names derived from it, quoted for SQL. */
export interface PostgresTable {
  /** The table, schema-qualified when a schema was given: `"schema"."table"`. */
  sql: string;
  /** The unqualified name of an object derived from the table: `"table_<suffix>"` (an index). */
  relatedName(suffix: string): string;
  /** A schema-qualified object derived from the table: `"schema"."table_<suffix>"` (a function). */
  related(suffix: string): string;
  /** The plain `schema.table` text, for advisory-lock keys. */
  plain: string;
}

const PART = '[a-z_][a-z0-9_]{0,47}';
const TABLE_PATTERN = /* @__PURE__ */ (() => new RegExp(`^(?:(${PART})\\.)?(${PART})$`))();

/**
 * Validates a table name — lowercase letters, digits and `_`, at most 48 characters, optionally
 * `schema.table` — so it can be written into SQL (identifiers cannot be parameters), and leaves
 * room for derived names within Postgres's 63-byte limit.
 * @throws HarnessConfigError for anything else.
 */
export function postgresTable(value: unknown, fallback: string, owner: string): PostgresTable {
  const text = value === undefined ? fallback : value;
  const match = typeof text === 'string' ? TABLE_PATTERN.exec(text) : null;
  if (match === null) {
    throw new HarnessConfigError(
      `${owner}: table must be a name of lowercase letters, digits and _ (at most 48 characters, not starting with a digit), optionally schema.table.`,
      { field: 'table' },
    );
  }
  const [, schema, name] = match as unknown as [string, string | undefined, string];
  const prefix = schema === undefined ? '' : `"${schema}".`;
  return {
    sql: `${prefix}"${name}"`,
    relatedName: (suffix) => `"${name}_${suffix}"`,
    related: (suffix) => `${prefix}"${name}_${suffix}"`,
    plain: schema === undefined ? name : `${schema}.${name}`,
  };
}

/**
 * Runs `statements` in one `DO` block holding a transaction-scoped advisory lock keyed by
 * `lockKey`, so concurrent `ensureSchema` calls (many processes starting at once) do not race
 * on `CREATE … IF NOT EXISTS`. One statement, so it works through a Pool too.
 */
export async function ensurePostgresSchema(rows: PostgresRows, lockKey: string, statements: readonly string[]): Promise<void> {
  const body = [`PERFORM pg_advisory_xact_lock(hashtext('agent_assistant_schema:${lockKey}'));`, ...statements].join('\n');
  await rows(`DO $agent_assistant$\nBEGIN\n${body}\nEND\n$agent_assistant$`, []);
}
