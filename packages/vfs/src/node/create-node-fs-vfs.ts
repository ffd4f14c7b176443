import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { VfsError } from '../errors/vfs-error.js';
import { VfsInvalidOptionError } from '../errors/vfs-invalid-option-error.js';
import { VfsIoError } from '../errors/vfs-io-error.js';
import { VfsIsADirectoryError } from '../errors/vfs-is-a-directory-error.js';
import { VfsNotADirectoryError } from '../errors/vfs-not-a-directory-error.js';
import { VfsNotFoundError } from '../errors/vfs-not-found-error.js';
import { bytesToBase64 } from '../internal/base64.js';
import { guessContentType } from '../internal/guess-content-type.js';
import { resolveCount, resolveLabel, resolveOptionsObject, resolveQuery } from '../internal/resolve-count.js';
import { searchTree } from '../internal/search-tree.js';
import { decodeText, trimIncompleteUtf8 } from '../internal/truncate-utf8.js';
import { listTree } from '../internal/walk-tree.js';
import { DEFAULT_VFS_LIMITS } from '../vfs-defaults.js';
import type { VfsEntry, VfsListOptions, VfsProvider, VfsReadResult, VfsSearchOptions } from '../vfs-provider.js';
import { createNodeTreeSource } from './internal/node-tree-source.js';
import { withVfsPath } from './internal/open-vfs-path.js';
import { readFileHead } from './internal/read-file-head.js';

/** Options of `createNodeFsVfs`. */
export interface NodeFsVfsOptions {
  /** The directory that becomes the VFS root `/`. Relative paths resolve against `process.cwd()`. */
  root: string;
  /**
   * Byte cap of `read`: longer files return their first bytes with `truncated: true` and `size`.
   * @default 1048576 (1 MiB)
   */
  maxReadBytes?: number | undefined;
  /**
   * Files larger than this many bytes are skipped by `search` (their names still match).
   * @default 1048576 (1 MiB)
   */
  maxSearchFileBytes?: number | undefined;
  /**
   * Files whose content one `search` reads at most (count); the walk stops after that.
   * @default 10000
   */
  maxSearchFiles?: number | undefined;
  /**
   * Upper bound on `list` and `search` `limit` (count); larger limits are lowered to it.
   * @default 10000
   */
  maxEntries?: number | undefined;
  /**
   * Deepest level `list` and `search` descend to below their start (levels); larger `depth`
   * values are lowered to it.
   * @default 32
   */
  maxDepth?: number | undefined;
  /**
   * A provider label put on every entry; `search` with another `provider` finds nothing.
   * @default undefined (no label)
   */
  provider?: string | undefined;
}

/** The defaults of `createNodeFsVfs`. Documented defaults quote this object. */
export const DEFAULT_NODE_FS_VFS_OPTIONS = Object.freeze({
  maxReadBytes: DEFAULT_VFS_LIMITS.maxReadBytes,
  maxSearchFileBytes: 1_048_576,
  maxSearchFiles: 10_000,
  maxEntries: 10_000,
  maxDepth: 32,
});

/** A Node file-system VFS: every `VfsProvider` method, `stat` included, plus its real root. */
export interface NodeFsVfs extends Required<VfsProvider> {
  /** The real (symlink-free) absolute path of the root directory. */
  readonly root: string;
}

/**
 * Creates a read-only VFS over a host directory. Every path resolves inside `root`: `..`
 * segments, drive-letter paths, NUL bytes and symlinks that lead outside the root are refused
 * (`VfsPathEscapeError` / `VfsInvalidPathError`); a leading `/` means the root, not the host's `/`.
 * Reads are byte-capped and binary files come back base64-encoded.
 *
 * @throws VfsInvalidOptionError when `root` is missing or not a directory, or an option is invalid.
 * @example
 * ```ts
 * import { createNodeFsVfs } from '@agent-assistant/vfs/node';
 * const vfs = createNodeFsVfs({ root: './workspace' });
 * const hits = await vfs.search('TODO', { limit: 5 });
 * ```
 */
export function createNodeFsVfs(options: NodeFsVfsOptions): NodeFsVfs {
  if (typeof options !== 'object' || options === null) {
    throw new VfsInvalidOptionError('options must be an object with a root.', { field: 'options' });
  }
  const root = resolveRoot(options.root);
  const maxReadBytes = resolveCount(options.maxReadBytes, 'maxReadBytes', DEFAULT_NODE_FS_VFS_OPTIONS.maxReadBytes);
  const maxSearchFileBytes = resolveCount(
    options.maxSearchFileBytes,
    'maxSearchFileBytes',
    DEFAULT_NODE_FS_VFS_OPTIONS.maxSearchFileBytes,
  );
  const maxSearchFiles = resolveCount(options.maxSearchFiles, 'maxSearchFiles', DEFAULT_NODE_FS_VFS_OPTIONS.maxSearchFiles);
  const maxEntries = resolveCount(options.maxEntries, 'maxEntries', DEFAULT_NODE_FS_VFS_OPTIONS.maxEntries);
  const maxDepth = resolveCount(options.maxDepth, 'maxDepth', DEFAULT_NODE_FS_VFS_OPTIONS.maxDepth);
  const provider = resolveLabel(options.provider, 'provider');
  const source = createNodeTreeSource(root);
  const label = <T extends { provider?: string }>(entry: T): T => (provider === undefined ? entry : { ...entry, provider });

  return {
    root,

    async list(path: string, listOptions?: VfsListOptions) {
      const given = resolveOptionsObject(listOptions, 'options');
      const depth = Math.min(resolveCount(given.depth, 'depth', DEFAULT_VFS_LIMITS.listDepth), maxDepth);
      const limit = Math.min(resolveCount(given.limit, 'limit', DEFAULT_VFS_LIMITS.listLimit), maxEntries);
      const start = await withVfsPath(root, path, async (resolved) => {
        if (resolved.node === undefined) throw new VfsNotFoundError(`No directory at ${resolved.path}.`, { path: resolved.path });
        if (!resolved.node.stats.isDirectory()) {
          throw new VfsNotADirectoryError(`${resolved.path} is a file, not a directory.`, { path: resolved.path });
        }
        return resolved.path;
      });
      return (await listTree(source, start, depth, limit)).map(label);
    },

    async read(path: string): Promise<VfsReadResult | null> {
      return withVfsPath(root, path, async (resolved) => {
        const { node } = resolved;
        if (node === undefined) return null;
        const { stats } = node;
        if (stats.isDirectory()) throw new VfsIsADirectoryError(`${resolved.path} is a directory.`, { path: resolved.path });
        if (!stats.isFile()) throw new VfsIoError(`${resolved.path} is not a regular file.`, { path: resolved.path });
        let head;
        try {
          head = await readFileHead(node, maxReadBytes);
        } catch (error) {
          if (VfsError.isInstance(error)) throw error;
          throw new VfsIoError(`Could not read ${resolved.path}: ${(error as Error).message}`, { path: resolved.path, cause: error });
        }
        const truncated = head.size > head.bytes.length;
        const text = decodeText(truncated ? trimIncompleteUtf8(head.bytes) : head.bytes);
        const result: VfsReadResult = {
          path: resolved.path,
          content: text ?? bytesToBase64(head.bytes),
          encoding: text === undefined ? 'base64' : 'utf-8',
          size: head.size,
          truncated,
          updatedAt: stats.mtime.toISOString(),
        };
        const contentType = guessContentType(resolved.path);
        if (contentType !== undefined) result.contentType = contentType;
        return label(result);
      });
    },

    async search(query: string, searchOptions?: VfsSearchOptions) {
      const needle = resolveQuery(query);
      const given = resolveOptionsObject(searchOptions, 'options');
      const limit = Math.min(resolveCount(given.limit, 'limit', DEFAULT_VFS_LIMITS.searchLimit), maxEntries);
      if (given.provider !== undefined && given.provider !== '' && given.provider !== provider) return [];
      const results = await searchTree(source, needle, {
        limit,
        maxDepth,
        maxFiles: maxSearchFiles,
        loadText: async (filePath, size) => {
          if (size !== undefined && size > maxSearchFileBytes) return undefined;
          return withVfsPath(root, filePath, async ({ node }) => {
            if (node === undefined || !node.stats.isFile() || node.stats.size > maxSearchFileBytes) return undefined;
            const head = await readFileHead(node, maxSearchFileBytes);
            return head.size > maxSearchFileBytes ? undefined : decodeText(head.bytes);
          }).catch(() => undefined);
        },
      });
      return results.map(label);
    },

    async stat(path: string): Promise<VfsEntry | null> {
      const found = await withVfsPath(root, path, async (resolved) => ({ path: resolved.path, stats: resolved.node?.stats }));
      const { stats } = found;
      if (stats === undefined) return null;
      const type = stats.isDirectory() ? 'dir' : stats.isFile() ? 'file' : 'unknown';
      const entry: VfsEntry = { path: found.path, type, updatedAt: stats.mtime.toISOString() };
      if (type === 'file') entry.size = stats.size;
      return label(entry);
    },
  };
}

function resolveRoot(root: unknown): string {
  if (typeof root !== 'string' || root.trim() === '') {
    throw new VfsInvalidOptionError('root must be a non-empty directory path.', { field: 'root' });
  }
  let real: string;
  try {
    real = realpathSync(resolve(root));
  } catch (error) {
    throw new VfsInvalidOptionError(`root ${root} does not exist or cannot be resolved.`, { field: 'root', cause: error });
  }
  if (!statSync(real).isDirectory()) {
    throw new VfsInvalidOptionError(`root ${root} is not a directory.`, { field: 'root' });
  }
  return real;
}
