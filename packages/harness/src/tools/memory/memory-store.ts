/** One remembered fact. */
export interface MemoryEntry {
  /** The key it is stored under (any text of 1 to 128 characters without control characters). */
  key: string;
  /** The remembered text. */
  value: string;
  /** When it was last written, in milliseconds since the epoch. */
  updatedAt: number;
}

/** What {@link MemoryStore.search} looks for. */
export interface MemoryQuery {
  /**
   * Words to look for in keys and values (case-insensitive); entries matching more words come
   * first, then newer ones. Empty: the most recently written entries.
   */
  text: string;
  /** Most entries to return (the registry asks for at most 50). */
  limit: number;
}

/**
 * Where the memory tools keep what they remember. Implement it over your database to share
 * memory between processes or users; {@link createInMemoryMemoryStore} and
 * `createFileMemoryStore` ship. Every method may throw a `ToolExecutionError` to shape the error
 * the model sees (`reason: 'memory_full'`, say); any other error reaches the model as a
 * retryable `memory_unavailable` error. The registry checks keys and values before they reach
 * the store and bounds what comes back from it.
 */
export interface MemoryStore {
  /** The entry under `key`, or `undefined`. */
  get(key: string): Promise<MemoryEntry | undefined>;
  /** Stores `value` under `key`, replacing an earlier value. */
  put(key: string, value: string): Promise<void>;
  /** Removes `key`; resolves `true` when it was there. */
  delete(key: string): Promise<boolean>;
  /** Entries matching the query, best first, at most `query.limit`. */
  search(query: MemoryQuery): Promise<MemoryEntry[]>;
}
