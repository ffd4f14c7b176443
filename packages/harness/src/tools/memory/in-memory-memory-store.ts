import { boundedOption } from '../../shared/bounded-option.js';
import { memoryFull, searchEntries } from './internal/memory-entries.js';
import type { MemoryEntry, MemoryStore } from './memory-store.js';

/** Options of {@link createInMemoryMemoryStore}. */
export interface InMemoryMemoryStoreOptions {
  /** Most entries kept: 1 to 100000. A `put` of a new key past it fails with `memory_full`. @default 1000 */
  maxEntries?: number | undefined;
}

/**
 * A {@link MemoryStore} in a `Map`, for tests, Workers and single-process assistants; it is
 * gone when the process ends. Bounded by `maxEntries` (the memory tools bound each value).
 * @throws HarnessConfigError for out-of-range options.
 * @example
 * ```ts
 * const tools = createMemoryToolRegistry({ store: createInMemoryMemoryStore() });
 * ```
 */
export function createInMemoryMemoryStore(options: InMemoryMemoryStoreOptions = {}): MemoryStore {
  const maxEntries = boundedOption(options.maxEntries, 1000, 100_000, 'maxEntries');
  const entries = new Map<string, MemoryEntry>();
  return {
    get: (key) => Promise.resolve(copy(entries.get(key))),
    put(key, value) {
      if (!entries.has(key) && entries.size >= maxEntries) return Promise.reject(memoryFull(`The memory holds ${String(maxEntries)} entries.`));
      entries.set(key, { key, value, updatedAt: Date.now() });
      return Promise.resolve();
    },
    delete: (key) => Promise.resolve(entries.delete(key)),
    search: (query) => Promise.resolve(searchEntries(entries.values(), query)),
  };
}

function copy(entry: MemoryEntry | undefined): MemoryEntry | undefined {
  return entry === undefined ? undefined : { ...entry };
}
