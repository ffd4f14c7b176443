import { loadBuiltins } from '../../../shared/load-builtins.js';
import { describeError } from '../../../shared/describe-error.js';
import { sha256Hex } from '../../../shared/sha256-hex.js';
import { ContextPacketError } from '../context-packet-error.js';

/** The part of `node:fs/promises` the cache uses. */
export interface FsLike {
  mkdir(path: string, options: { mode: number }): Promise<unknown>;
  lstat(path: string): Promise<{ isDirectory(): boolean; isFile(): boolean; mode: number; uid: number; size: number }>;
  open(path: string, flags: number): Promise<FileHandleLike>;
  writeFile(path: string, data: Uint8Array, options: { mode: number; flag: 'wx' }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  rm(path: string, options: { force: true }): Promise<void>;
  constants: { O_RDONLY: number; O_NOFOLLOW: number };
}

interface FileHandleLike {
  read(buffer: Uint8Array, offset: number, length: number, position: number | null): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
}

/** The source cache of one build. */
export interface SourceCache {
  /** Keeps `bytes` under `sha256` unless an entry that re-hashes to it is there already. */
  keep(sha256: string, bytes: Uint8Array<ArrayBuffer>): Promise<void>;
}

export async function nodeFs(): Promise<FsLike> {
  try {
    const [fs] = await loadBuiltins(['node:fs/promises']);
    return fs as FsLike;
  } catch (error) {
    throw new ContextPacketError('cache_unavailable', `cacheDir needs Node.js: ${describeError(error)}`, {}, { cause: error });
  }
}

/** A directory of this user's that only it can read: created 0700 when missing, refused when shared or a symlink. */
export async function privateDirectory(fs: FsLike, directory: string, create: boolean): Promise<boolean> {
  try {
    if (create) await makeDirectory(fs, directory);
    const stats = await fs.lstat(directory);
    const uid = (globalThis as { process?: { getuid?: () => number } }).process?.getuid?.();
    if (!stats.isDirectory() || (stats.mode & 0o077) !== 0 || (uid !== undefined && stats.uid !== uid)) {
      throw new ContextPacketError(
        'cache_unavailable',
        `cacheDir ${JSON.stringify(directory)} is not a private directory of this user (mode 0700, not a symlink); give a new path and it is created so.`,
      );
    }
    return true;
  } catch (error) {
    if (ContextPacketError.isInstance(error)) throw error;
    if (!create && (error as { code?: unknown } | null)?.code === 'ENOENT') return false;
    throw new ContextPacketError('cache_unavailable', `cacheDir ${JSON.stringify(directory)} cannot be used: ${describeError(error)}`, {}, { cause: error });
  }
}

/**
 * Creates `directory` and any missing parents, mode 0700, one component at a time: Node's
 * `mkdir(…, { recursive: true })` never returns for a path under `/proc` (Node 20).
 */
async function makeDirectory(fs: FsLike, directory: string): Promise<void> {
  const missing: string[] = [];
  for (let path = directory; ; ) {
    try {
      await fs.mkdir(path, { mode: 0o700 });
      break;
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (code === 'EEXIST') break;
      const parent = path.replace(/\/+[^/]*$/, '');
      if (code !== 'ENOENT' || parent === '' || parent === path || missing.length > 256) throw error;
      missing.push(path);
      path = parent;
    }
  }
  for (const path of missing.reverse()) {
    try {
      await fs.mkdir(path, { mode: 0o700 });
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== 'EEXIST') throw error;
    }
  }
}

/** The entry's bytes if it is a regular file that re-hashes to `sha256` (read at most `maxBytes + 1` bytes). */
export async function verifiedEntry(fs: FsLike, path: string, sha256: string, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  let handle: FileHandleLike;
  try {
    handle = await fs.open(path, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const buffer = new Uint8Array(maxBytes + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes) return undefined;
    const bytes = buffer.subarray(0, length);
    return (await sha256Hex(bytes)) === sha256 ? bytes : undefined;
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * Opens the source cache in `directory` (Node.js only; `node:fs` loads on first use).
 * @throws ContextPacketError `cache_unavailable`.
 */
export async function openSourceCache(directory: string): Promise<SourceCache> {
  const fs = await nodeFs();
  await privateDirectory(fs, directory, true);
  return {
    async keep(sha256, bytes) {
      const target = `${directory}/${sha256}`;
      if ((await verifiedEntry(fs, target, sha256, bytes.length)) !== undefined) return;
      const temporary = `${target}.${globalThis.crypto.randomUUID()}.tmp`;
      try {
        await fs.writeFile(temporary, bytes, { mode: 0o600, flag: 'wx' });
        await fs.rename(temporary, target);
      } catch (error) {
        await fs.rm(temporary, { force: true }).catch(() => undefined);
        throw new ContextPacketError('cache_unavailable', `cacheDir ${JSON.stringify(directory)} cannot be written: ${describeError(error)}`, {}, { cause: error });
      }
    },
  };
}
