import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { loadBuiltins } from '../../shared/load-builtins.js';
import { readRegularFile, type OpenFileLike } from '../../shared/read-regular-file.js';
import { writeFileAtomic, type AtomicWriteFs } from '../../shared/write-file-atomic.js';
import { boundedOption } from '../../shared/bounded-option.js';
import { isMemoryEntry, memoryFull, memoryUnavailable, searchEntries } from './internal/memory-entries.js';
import type { MemoryEntry, MemoryStore } from './memory-store.js';

/** Options of {@link createFileMemoryStore}. */
export interface FileMemoryStoreOptions {
  /** The JSON file to keep entries in; created (with its folder) on the first write. */
  path: string;
  /** Largest file read or written, in bytes: 1 to 67108864 (64 MiB). @default 1048576 (1 MiB) */
  maxFileBytes?: number | undefined;
  /** Most entries kept: 1 to 100000. @default 1000 */
  maxEntries?: number | undefined;
}

/** `node:fs/promises`, the part in use. */
type FsLike = OpenFileLike &
  AtomicWriteFs & {
    mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  };

/** `node:path`, the part in use. */
interface PathLike {
  dirname(path: string): string;
  resolve(path: string): string;
}

/** The file's layout. */
interface MemoryFile {
  version: 1;
  entries: MemoryEntry[];
}

/**
 * A {@link MemoryStore} in one JSON file, for a single Node.js process (Node.js only: `node:fs`
 * loads on first use, so importing it is Worker-safe). Every operation reads the file and every
 * change writes it whole, atomically and durably (a temporary file, flushed to disk, renamed over
 * it, then the folder flushed: a crash leaves the old file or the new one); operations of one store
 * run one at a time. Two processes writing the same file: the last write wins. A file over
 * `maxFileBytes` (at most `maxFileBytes + 1` bytes are ever read), one that is not the store's
 * JSON, or a path that is not a regular file (a FIFO, a device, a directory, a link to one) is
 * refused (`memory_unavailable`) and never overwritten; a change that would grow the file past `maxFileBytes` or `maxEntries` fails
 * with `memory_full` and leaves the file as it was.
 * @throws HarnessConfigError for a missing path or out-of-range options.
 * @example
 * ```ts
 * const tools = createMemoryToolRegistry({ store: createFileMemoryStore({ path: '.assistant/memory.json' }) });
 * ```
 */
export function createFileMemoryStore(options: FileMemoryStoreOptions): MemoryStore {
  const path: unknown = options?.path;
  if (typeof path !== 'string' || path.trim() === '' || path.includes('\u0000')) {
    throw new HarnessConfigError('createFileMemoryStore needs a file path.', { field: 'path' });
  }
  const maxFileBytes = boundedOption(options.maxFileBytes, 1024 * 1024, 64 * 1024 * 1024, 'maxFileBytes');
  const maxEntries = boundedOption(options.maxEntries, 1000, 100_000, 'maxEntries');
  let queue: Promise<unknown> = Promise.resolve();
  let modules: Promise<{ fs: FsLike; path: PathLike }> | undefined;

  /** Runs `operation` after every earlier one of this store. */
  const serial = <T>(operation: () => Promise<T>): Promise<T> => {
    const next = queue.then(operation, operation);
    queue = next.catch(() => undefined);
    return next;
  };
  const node = () => {
    modules ??= loadBuiltins(['node:fs/promises', 'node:path']).then(([fs, pathModule]) => ({ fs: fs as FsLike, path: pathModule as PathLike }));
    modules.catch(() => {
      modules = undefined;
    });
    return modules;
  };

  async function load(): Promise<Map<string, MemoryEntry>> {
    const { fs } = await node();
    const read = await readRegularFile(fs, path as string, maxFileBytes);
    switch (read.type) {
      case 'missing':
        return new Map();
      case 'not_regular':
        throw memoryUnavailable(`the memory file is not a regular file (it is ${read.kind})`);
      case 'too_large':
        throw memoryUnavailable(`the memory file is over the limit of ${String(maxFileBytes)} bytes`);
      case 'read':
        return parse(new TextDecoder().decode(read.bytes));
    }
  }

  async function save(entries: Map<string, MemoryEntry>): Promise<void> {
    const { fs, path: pathModule } = await node();
    const file: MemoryFile = { version: 1, entries: [...entries.values()] };
    const text = JSON.stringify(file);
    const size = new TextEncoder().encode(text).byteLength;
    if (size > maxFileBytes) throw memoryFull(`The memory file would have ${String(size)} bytes; the limit is ${String(maxFileBytes)}.`);
    const target = pathModule.resolve(path as string);
    const directory = pathModule.dirname(target);
    await fs.mkdir(directory, { recursive: true });
    await writeFileAtomic(fs, target, directory, text, 0o600);
  }

  return {
    get: (key) => serial(async () => (await load()).get(key)),
    put: (key, value) =>
      serial(async () => {
        const entries = await load();
        if (!entries.has(key) && entries.size >= maxEntries) throw memoryFull(`The memory holds ${String(maxEntries)} entries.`);
        entries.set(key, { key, value, updatedAt: Date.now() });
        await save(entries);
      }),
    delete: (key) =>
      serial(async () => {
        const entries = await load();
        if (!entries.delete(key)) return false;
        await save(entries);
        return true;
      }),
    search: (query) => serial(async () => searchEntries((await load()).values(), query)),
  };
}

/** Reads the file's JSON into a `Map` (so a key such as `__proto__` is only a key). */
function parse(text: string): Map<string, MemoryEntry> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw memoryUnavailable('the memory file is not JSON');
  }
  const file = value as Partial<MemoryFile> | null;
  if (typeof file !== 'object' || file === null || file.version !== 1 || !Array.isArray(file.entries)) {
    throw memoryUnavailable('the memory file is not a memory store file (version 1)');
  }
  const entries = new Map<string, MemoryEntry>();
  for (const entry of file.entries as unknown[]) {
    if (!isMemoryEntry(entry)) throw memoryUnavailable('the memory file holds a malformed entry');
    entries.set(entry.key, { key: entry.key, value: entry.value, updatedAt: entry.updatedAt });
  }
  return entries;
}
