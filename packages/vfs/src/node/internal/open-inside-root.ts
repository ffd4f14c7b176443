import { constants, type Stats } from 'node:fs';
import { open, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import { VfsIoError } from '../../errors/vfs-io-error.js';
import { VfsPathEscapeError } from '../../errors/vfs-path-escape-error.js';
import { isInsideRoot, isMissing } from './resolve-inside-root.js';

/**
 * A file-system object that was opened and then verified to lie inside the root. Everything about
 * it comes from the opened descriptor, never from the path again, so a directory component
 * swapped for a symlink after the check cannot redirect it. Close it when done.
 */
export interface VerifiedNode {
  /** `fstat` of what was opened. */
  readonly stats: Stats;
  /**
   * A host path that names exactly the opened object while it is open: `/proc/self/fd/N` on
   * Linux; elsewhere the real path (re-checked, see {@link openInsideRoot}).
   */
  readonly hostPath: string;
  /** Opens the verified object for reading, with its current `fstat`; the caller closes the handle. */
  openForReading(): Promise<{ handle: FileHandle; stats: Stats }>;
  /**
   * Confirms, after a call that went through `hostPath`, that the call reached the verified
   * object. A no-op through `/proc/self/fd`; elsewhere the path is resolved again and its
   * device/inode compared.
   * @throws VfsPathEscapeError when the path now names something else.
   */
  recheck(): Promise<void>;
  close(): Promise<void>;
}

// Linux's O_PATH (not in `fs.constants`): a descriptor that names a file without opening it — no
// read permission needed, no side effects on FIFOs or devices — and can be reopened through
// /proc/self/fd.
const O_PATH = 0o10000000;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
// O_NONBLOCK keeps a FIFO from blocking the open.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const DELETED_SUFFIX = ' (deleted)';

let procFdsProbe: Promise<boolean> | undefined;

/** True when this process can name its descriptors through `/proc/self/fd` (Linux with procfs). */
export function hasProcFds(): Promise<boolean> {
  procFdsProbe ??= (async () => {
    if (process.platform !== 'linux') return false;
    try {
      const handle = await open('/', O_PATH | (constants.O_DIRECTORY ?? 0));
      try {
        return (await readlink(`/proc/self/fd/${handle.fd}`)) === '/';
      } finally {
        await handle.close();
      }
    } catch {
      return false;
    }
  })();
  return procFdsProbe;
}

/** How `openInsideRoot` opens. */
export interface OpenInsideRootOptions {
  /** Use `/proc/self/fd` (default: when this process has it, see {@link hasProcFds}). */
  procFds?: boolean;
  /**
   * Follow symlinks in `path` while opening (only with `procFds`; the descriptor's own path is
   * what is checked). Without it, `path` must be a real path and a symlink anywhere in it means
   * the tree changed under the call.
   * @default false
   */
  followLinks?: boolean;
}

/**
 * Opens the object at `path` (a real path inside `root`, from `resolveInsideRoot`, or with
 * `followLinks` any path below `root`) and checks what was actually opened. With `/proc/self/fd`
 * (Linux) the descriptor's own path must be inside `root`, and everything is then read through the
 * descriptor: no interleaving of renames and symlinks can make it read outside. Elsewhere (no
 * `openat` in Node) the path is resolved again after opening and after reading, and the
 * device/inode it names must be the opened one; that narrows the window (an attacker must win
 * several races in a row) but cannot close it.
 *
 * @returns `undefined` when nothing is there (any more).
 * @throws VfsPathEscapeError when what was opened lies outside `root` (through a symlink, or
 *   because the tree changed under the call), VfsIoError for other file-system failures.
 */
export async function openInsideRoot(
  root: string,
  path: string,
  vfsPath: string,
  options: OpenInsideRootOptions = {},
): Promise<VerifiedNode | undefined> {
  if (options.procFds ?? (await hasProcFds())) return openThroughProc(root, path, vfsPath, options.followLinks === true);
  return openPortably(root, path, vfsPath);
}

async function openThroughProc(root: string, path: string, vfsPath: string, followLinks: boolean): Promise<VerifiedNode | undefined> {
  const handle = await openOrMissing(path, followLinks ? O_PATH : O_PATH | NOFOLLOW, vfsPath);
  if (handle === undefined) return undefined;
  try {
    const hostPath = `/proc/self/fd/${handle.fd}`;
    const [link, stats] = await Promise.all([readlink(hostPath), handle.stat()]);
    const opened = withoutDeletedSuffix(link);
    if (!isInsideRoot(root, opened)) throw followLinks ? escapesThroughLink(vfsPath) : changedUnderUs(vfsPath);
    // O_NOFOLLOW with O_PATH opens a final symlink itself: the last component was swapped.
    if (stats.isSymbolicLink()) throw changedUnderUs(vfsPath);
    return verifiedNode(handle, stats, hostPath, READ_FLAGS, vfsPath, async () => {});
  } catch (error) {
    await handle.close();
    throw asVfsError(error, vfsPath);
  }
}

async function openPortably(root: string, realPath: string, vfsPath: string): Promise<VerifiedNode | undefined> {
  let before: Stats;
  try {
    before = await stat(realPath);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw asVfsError(error, vfsPath);
  }
  // Only files and directories are opened; FIFOs, sockets and devices report their metadata.
  if (!before.isFile() && !before.isDirectory()) {
    return {
      stats: before,
      hostPath: realPath,
      openForReading: () => Promise.reject(notReadable(vfsPath)),
      recheck: async () => {},
      close: async () => {},
    };
  }
  const handle = await openOrMissing(realPath, READ_FLAGS | NOFOLLOW, vfsPath);
  if (handle === undefined) return undefined;
  try {
    const stats = await handle.stat();
    const recheck = async (): Promise<void> => {
      const again = await realpath(realPath).catch(() => undefined);
      const named = again === undefined || !isInsideRoot(root, again) ? undefined : await stat(again).catch(() => undefined);
      if (named === undefined || !sameNode(stats, named)) throw changedUnderUs(vfsPath);
    };
    await recheck();
    return verifiedNode(handle, stats, realPath, READ_FLAGS | NOFOLLOW, vfsPath, recheck);
  } catch (error) {
    await handle.close();
    if (isMissing(error)) return undefined;
    throw asVfsError(error, vfsPath);
  }
}

function verifiedNode(
  handle: FileHandle,
  stats: Stats,
  hostPath: string,
  readFlags: number,
  vfsPath: string,
  recheck: () => Promise<void>,
): VerifiedNode {
  return {
    stats,
    hostPath,
    recheck,
    async openForReading() {
      const reader = await openOrMissing(hostPath, readFlags, vfsPath);
      if (reader === undefined) throw changedUnderUs(vfsPath);
      // The reopened descriptor must be the verified object, not whatever the path names now.
      const now = await reader.stat();
      if (!sameNode(stats, now)) {
        await reader.close();
        throw changedUnderUs(vfsPath);
      }
      return { handle: reader, stats: now };
    },
    close: () => handle.close(),
  };
}

async function openOrMissing(path: string, flags: number, vfsPath: string): Promise<FileHandle | undefined> {
  try {
    return await open(path, flags);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw asVfsError(error, vfsPath);
  }
}

function sameNode(left: Stats, right: Stats): boolean {
  return left.dev === right.dev && left.ino === right.ino;
}

function withoutDeletedSuffix(path: string): string {
  return path.endsWith(DELETED_SUFFIX) ? path.slice(0, -DELETED_SUFFIX.length) : path;
}

function changedUnderUs(vfsPath: string): VfsPathEscapeError {
  return new VfsPathEscapeError(`${vfsPath} changed while it was opened and no longer lies inside the VFS root.`, { path: vfsPath });
}

function escapesThroughLink(vfsPath: string): VfsPathEscapeError {
  return new VfsPathEscapeError(`${vfsPath} leads outside the VFS root through a symbolic link.`, { path: vfsPath });
}

function notReadable(vfsPath: string): VfsIoError {
  return new VfsIoError(`${vfsPath} is not a regular file.`, { path: vfsPath });
}

function asVfsError(error: unknown, vfsPath: string): Error {
  if (VfsPathEscapeError.isInstance(error) || VfsIoError.isInstance(error)) return error;
  return new VfsIoError(`Could not open ${vfsPath}: ${(error as Error).message}`, { path: vfsPath, cause: error });
}
