import type { VfsEntry, VfsNodeType } from '../vfs-provider.js';
import { compareNames, joinVfsPath } from './vfs-path-parts.js';

/** One child of a directory, as a provider's tree source reports it. */
export interface TreeChild {
  name: string;
  type: VfsNodeType;
  /** File size in bytes, when known. */
  size?: number;
  /** `false` stops walks from descending into this directory (e.g. a symlinked one). */
  descend?: boolean;
}

/** What the shared list and search code needs from a provider. */
export interface TreeSource {
  /** The children of the directory at a normalised VFS path, in any order. */
  children(path: string): Promise<TreeChild[]>;
}

/** What a visitor returns: `'stop'` ends the walk. */
export type WalkDecision = 'stop' | void;

/**
 * Visits every entry below `start`, depth-first, children in name order, down to `maxDepth`
 * levels (`1` = direct children). Resolves `'stop'` when a visitor stopped the walk.
 */
export async function walkTree(
  source: TreeSource,
  start: string,
  maxDepth: number,
  visit: (entry: VfsEntry, child: TreeChild) => WalkDecision | Promise<WalkDecision>,
  level = 1,
): Promise<WalkDecision> {
  const children = [...(await source.children(start))].sort((left, right) => compareNames(left.name, right.name));
  for (const child of children) {
    const path = joinVfsPath(start, child.name);
    const entry: VfsEntry = { path, type: child.type };
    if (child.size !== undefined) entry.size = child.size;
    if ((await visit(entry, child)) === 'stop') return 'stop';
    if (child.type === 'dir' && child.descend !== false && level < maxDepth) {
      if ((await walkTree(source, path, maxDepth, visit, level + 1)) === 'stop') return 'stop';
    }
  }
  return undefined;
}

/** Collects up to `limit` entries below `start`, `depth` levels deep. */
export async function listTree(source: TreeSource, start: string, depth: number, limit: number): Promise<VfsEntry[]> {
  const entries: VfsEntry[] = [];
  await walkTree(source, start, depth, (entry) => {
    entries.push(entry);
    return entries.length >= limit ? 'stop' : undefined;
  });
  return entries;
}
