import { join } from 'node:path';
import { vfsPathSegments } from '../../internal/vfs-path-parts.js';
import { normalizeVfsPath } from '../../normalize-vfs-path.js';
import { hasProcFds, openInsideRoot, type VerifiedNode } from './open-inside-root.js';
import { resolveInsideRoot } from './resolve-inside-root.js';

/** A VFS path, normalised, and the verified object at it. */
export interface OpenedVfsPath {
  /** The normalised VFS path. */
  path: string;
  /** What is there, opened and verified to lie inside the root; `undefined` when nothing is. */
  node: VerifiedNode | undefined;
}

/**
 * Normalises `path`, opens what it names below `root` and verifies that it lies inside (see
 * `openInsideRoot`), runs `use`, and closes it. With `/proc/self/fd` the path is opened directly,
 * following symlinks, and the descriptor's own path is checked; only when nothing is there is it
 * resolved step by step, so an escaping link is still refused and "not found" never reveals what
 * exists outside. Elsewhere it is resolved with `resolveInsideRoot` first.
 *
 * @throws VfsInvalidPathError / VfsPathEscapeError for a path that is refused, VfsIoError for
 *   other file-system failures, and whatever `use` throws.
 */
export async function withVfsPath<T>(root: string, path: string, use: (opened: OpenedVfsPath) => Promise<T>): Promise<T> {
  const opened = await openVfsPath(root, path);
  try {
    return await use(opened);
  } finally {
    await opened.node?.close();
  }
}

async function openVfsPath(root: string, path: string): Promise<OpenedVfsPath> {
  const normalized = normalizeVfsPath(path);
  if (await hasProcFds()) {
    const direct = await openInsideRoot(root, join(root, ...vfsPathSegments(normalized)), normalized, { procFds: true, followLinks: true });
    if (direct !== undefined) return { path: normalized, node: direct };
  }
  const resolved = await resolveInsideRoot(root, normalized);
  if (resolved.realPath === undefined) return { path: normalized, node: undefined };
  return { path: normalized, node: await openInsideRoot(root, resolved.realPath, normalized) };
}
