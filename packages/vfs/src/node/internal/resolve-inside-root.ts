import { realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { VfsIoError } from '../../errors/vfs-io-error.js';
import { VfsPathEscapeError } from '../../errors/vfs-path-escape-error.js';
import { vfsPathSegments } from '../../internal/vfs-path-parts.js';
import { normalizeVfsPath } from '../../normalize-vfs-path.js';

/** A VFS path and where it lives on disk. */
export interface ResolvedPath {
  /** The normalised VFS path. */
  path: string;
  /** The real (symlink-free) host path, or `undefined` when nothing exists there. */
  realPath: string | undefined;
}

/** True when `candidate` is `root` or below it. Both must be real, absolute paths. */
export function isInsideRoot(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
  return candidate.startsWith(prefix);
}

/**
 * Normalises `path` and maps it below `root` (a real path). Follows symlinks with `realpath` and
 * refuses any that lead outside `root`. For a missing path, the deepest existing ancestor is
 * checked too, so "not found" never reveals what exists outside the root.
 *
 * @throws VfsInvalidPathError / VfsPathEscapeError from `normalizeVfsPath`, VfsPathEscapeError for
 *   a symlink escape, VfsIoError for other file-system failures.
 */
export async function resolveInsideRoot(root: string, path: string): Promise<ResolvedPath> {
  const normalized = normalizeVfsPath(path);
  const segments = vfsPathSegments(normalized);
  for (let kept = segments.length; kept >= 0; kept -= 1) {
    const candidate = join(root, ...segments.slice(0, kept));
    let real: string;
    try {
      real = await realpath(candidate);
    } catch (error) {
      if (isMissing(error) && kept > 0) continue;
      throw new VfsIoError(`Could not resolve ${normalized}: ${(error as Error).message}`, { path: normalized, cause: error });
    }
    if (!isInsideRoot(root, real)) {
      throw new VfsPathEscapeError(`${normalized} leads outside the VFS root through a symbolic link.`, { path: normalized });
    }
    return { path: normalized, realPath: kept === segments.length ? real : undefined };
  }
  /* c8 ignore next */
  return { path: normalized, realPath: undefined };
}

/** True for the errors that mean "nothing there" (including a file used as a directory, and a symlink loop). */
export function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP';
}
