/** The part of an open `node:fs/promises` `FileHandle` a durable write uses. */
export interface WritableFileHandleLike {
  writeFile(data: string | Uint8Array): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** The part of `node:fs/promises` {@link writeFileAtomic} uses. */
export interface AtomicWriteFs {
  open(path: string, flags: 'wx' | 'r', mode?: number): Promise<WritableFileHandleLike>;
  rename(from: string, to: string): Promise<void>;
  rm(path: string, options: { force: true }): Promise<void>;
}

/**
 * Replaces `target` with `data` so that a crash or power loss leaves either the old file or the
 * whole new one: the data goes to a fresh temporary file beside it (created exclusively, with
 * `mode`), which is flushed to disk (`fsync`) before it is renamed over `target`; then the folder
 * is flushed too, so the rename itself is durable (where a folder can be opened and synced: not on
 * Windows, where that step is skipped). The temporary file is removed when a step before the
 * rename fails.
 */
export async function writeFileAtomic(fs: AtomicWriteFs, target: string, directory: string, data: string | Uint8Array, mode: number): Promise<void> {
  const temporary = `${target}.${globalThis.crypto.randomUUID()}.tmp`;
  try {
    await writeNewFileSynced(fs, temporary, data, mode);
    await fs.rename(temporary, target);
  } catch (error) {
    await fs.rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncDirectory(fs, directory);
}

/**
 * Creates `path` (exclusively: it must not exist yet) with `mode`, writes `data` and flushes it to
 * disk (`fsync`) before it resolves. For callers that rename a folder of such files into place
 * ({@link syncDirectory} that folder before the rename, its parent after).
 */
export async function writeNewFileSynced(fs: Pick<AtomicWriteFs, 'open'>, path: string, data: string | Uint8Array, mode: number): Promise<void> {
  const handle = await fs.open(path, 'wx', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes a folder's entries; where folders cannot be opened or synced (Windows), does nothing. */
export async function syncDirectory(fs: Pick<AtomicWriteFs, 'open'>, directory: string): Promise<void> {
  let handle: WritableFileHandleLike;
  try {
    handle = await fs.open(directory, 'r');
  } catch {
    return;
  }
  try {
    await handle.sync();
  } catch {
    // EPERM / EINVAL / EISDIR: this platform or file system does not sync folders.
  } finally {
    await handle.close().catch(() => undefined);
  }
}
