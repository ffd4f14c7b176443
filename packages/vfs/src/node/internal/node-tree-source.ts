import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { VfsIoError } from '../../errors/vfs-io-error.js';
import { joinVfsPath } from '../../internal/vfs-path-parts.js';
import type { TreeChild, TreeSource } from '../../internal/walk-tree.js';
import { openInsideRoot } from './open-inside-root.js';
import { withVfsPath } from './open-vfs-path.js';
import { isInsideRoot, isMissing } from './resolve-inside-root.js';

/**
 * A tree source over a real directory. Symlinks that lead outside `root` (or nowhere) are left
 * out; symlinked directories inside the root are listed but not descended into, so walks cannot
 * loop. Each directory is opened and verified first and read through its descriptor, so a
 * component swapped for a symlink mid-walk cannot list an outside directory.
 */
export function createNodeTreeSource(root: string): TreeSource {
  return {
    async children(path) {
      return withVfsPath(root, path, async ({ node }) => {
        if (node === undefined || !node.stats.isDirectory()) return [];
        let dirents: Dirent[];
        try {
          dirents = await readdir(node.hostPath, { withFileTypes: true });
        } catch (error) {
          if (isMissing(error)) return [];
          throw new VfsIoError(`Could not list ${path}: ${(error as Error).message}`, { path, cause: error });
        }
        const children = await Promise.all(dirents.map((dirent) => describeChild(root, node.hostPath, path, dirent)));
        // Where the listing went through a path (no /proc/self/fd), it must still name the verified directory.
        await node.recheck();
        return children.filter((child): child is TreeChild => child !== undefined);
      });
    },
  };
}

async function describeChild(root: string, directory: string, vfsDirectory: string, dirent: Dirent): Promise<TreeChild | undefined> {
  const hostPath = join(directory, dirent.name);
  let linked = false;
  let stats: Stats | undefined;
  try {
    if (dirent.isSymbolicLink()) {
      const target = await realpath(hostPath);
      if (!isInsideRoot(root, target)) return undefined;
      linked = true;
      // The target's metadata comes from the verified object, not from following the link again.
      const node = await openInsideRoot(root, target, joinVfsPath(vfsDirectory, dirent.name));
      stats = node?.stats;
      await node?.close();
    } else {
      // Not following: an entry swapped for a symlink since readdir is left out below.
      stats = await lstat(hostPath);
    }
  } catch {
    return undefined;
  }
  if (stats === undefined) return undefined;
  if (stats.isDirectory()) return linked ? { name: dirent.name, type: 'dir', descend: false } : { name: dirent.name, type: 'dir' };
  if (stats.isFile()) return { name: dirent.name, type: 'file', size: stats.size };
  if (stats.isSymbolicLink()) return undefined;
  return { name: dirent.name, type: 'unknown' };
}
