/** The part of an open `node:fs/promises` `FileHandle` in use. */
export interface FileHandleLike {
  stat(): Promise<FileKindLike & { size: number; mode?: number | undefined }>;
  read(buffer: Uint8Array, offset: number, length: number, position: null): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
}

/** What `fstat` says the file is. */
export interface FileKindLike {
  isFile(): boolean;
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}

/** The part of `node:fs/promises` in use (Node.js ≥ 18.4 has `constants` there). */
export interface OpenFileLike {
  open(path: string, flags: number): Promise<FileHandleLike>;
  constants: { O_RDONLY: number; O_NONBLOCK?: number | undefined };
}

/** The outcome of {@link readRegularFile}. */
export type RegularFileRead =
  /** `mode`: the file's permission bits and type, from the same `fstat` (when the file system gives them). */
  | { type: 'read'; bytes: Uint8Array; mode: number | undefined }
  | { type: 'missing' }
  | { type: 'not_regular'; kind: string }
  | { type: 'too_large' };

/**
 * Reads a regular file of at most `maxBytes` bytes through one handle. The file is opened
 * non-blocking (so opening a FIFO without a writer returns at once), `fstat`ed, and refused unless
 * it is a regular file (a symbolic link counts as what it points to); at most `maxBytes + 1` bytes
 * are read, so a file that grows past the limit after the check is refused too, without reading
 * the rest. Errors other than a missing file (`ENOENT`) are thrown.
 */
export async function readRegularFile(fs: OpenFileLike, path: string, maxBytes: number): Promise<RegularFileRead> {
  let handle: FileHandleLike;
  try {
    handle = await fs.open(path, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === 'ENOENT') return { type: 'missing' };
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { type: 'not_regular', kind: kindOf(stats) };
    if (stats.size > maxBytes) return { type: 'too_large' };
    let buffer = new Uint8Array(Math.min(maxBytes + 1, stats.size + 1));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) return { type: 'too_large' };
        const grown = new Uint8Array(Math.min(maxBytes + 1, buffer.length * 2));
        grown.set(buffer);
        buffer = grown;
      }
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return length > maxBytes ? { type: 'too_large' } : { type: 'read', bytes: buffer.subarray(0, length), mode: stats.mode };
  } finally {
    await handle.close();
  }
}

function kindOf(stats: FileKindLike): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'another kind of file';
}
