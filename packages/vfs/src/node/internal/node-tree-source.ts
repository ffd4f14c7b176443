import type { Dirent, Stats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { VfsIoError } from '../../errors/vfs-io-error.js';
import type { TreeChild, TreeSource } from '../../internal/walk-tree.js';
import { isInsideRoot, isMissing, resolveInsideRoot } from './resolve-inside-root.js';

/**
 * A tree source over a real directory. Symlinks that lead outside `root` (or nowhere) are left
 * out; symlinked directories inside the root are listed but not descended into, so walks cannot
 * loop.
 */
export function createNodeTreeSource(root: string): TreeSource {
  return {
    async children(path) {
      const { realPath } = await resolveInsideRoot(root, path);
      if (realPath === undefined) return [];
      let dirents: Dirent[];
      try {
        dirents = await readdir(realPath, { withFileTypes: true });
      } catch (error) {
        if (isMissing(error)) return [];
        throw new VfsIoError(`Could not list ${path}: ${(error as Error).message}`, { path, cause: error });
      }
      const children = await Promise.all(dirents.map((dirent) => describeChild(root, realPath, dirent)));
      return children.filter((child): child is TreeChild => child !== undefined);
    },
  };
}

async function describeChild(root: string, directory: string, dirent: Dirent): Promise<TreeChild | undefined> {
  const hostPath = join(directory, dirent.name);
  let linked = false;
  if (dirent.isSymbolicLink()) {
    let target: string;
    try {
      target = await realpath(hostPath);
    } catch {
      return undefined;
    }
    if (!isInsideRoot(root, target)) return undefined;
    linked = true;
  }
  let stats: Stats;
  try {
    stats = await stat(hostPath);
  } catch {
    return undefined;
  }
  if (stats.isDirectory()) return linked ? { name: dirent.name, type: 'dir', descend: false } : { name: dirent.name, type: 'dir' };
  if (stats.isFile()) return { name: dirent.name, type: 'file', size: stats.size };
  return { name: dirent.name, type: 'unknown' };
}
