/** A throwaway Postgres cluster started by {@link startPostgres}. */
export interface PostgresServer {
  host: string;
  port: number;
  user: string;
  database: string;
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, loopback only). */
  connectionString: string;
  /** The folder of the server binaries in use. */
  bin: string;
  /** The server's log file. */
  log: string;
  /** `pg_ctl stop -m fast`. */
  stop(): Promise<void>;
  /** `pg_ctl start` on the same data and port. */
  start(): Promise<void>;
  restart(): Promise<void>;
  /** SIGSTOP to every server process: connections stay open and nothing answers. */
  freeze(): void;
  /** SIGCONT to every server process. */
  thaw(): void;
  /** Stops the server (if running) and removes its folder. */
  destroy(): Promise<void>;
}

/** The folder holding initdb, pg_ctl and postgres; throws when there is none. */
export function findPostgresBin(): string;
/** A free loopback TCP port. */
export function freePort(): Promise<number>;
/** Creates and starts a throwaway cluster (see the module's header for root). */
export function startPostgres(options?: { fsync?: boolean }): Promise<PostgresServer>;
