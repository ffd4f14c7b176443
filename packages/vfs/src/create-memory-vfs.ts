import { VfsInvalidOptionError } from './errors/vfs-invalid-option-error.js';
import { VfsIsADirectoryError } from './errors/vfs-is-a-directory-error.js';
import { VfsNotADirectoryError } from './errors/vfs-not-a-directory-error.js';
import { VfsNotFoundError } from './errors/vfs-not-found-error.js';
import { base64ToBytes, bytesToBase64 } from './internal/base64.js';
import { guessContentType } from './internal/guess-content-type.js';
import { resolveCount, resolveLabel, resolveOptionsObject, resolveQuery } from './internal/resolve-count.js';
import { searchTree } from './internal/search-tree.js';
import { truncateUtf8 } from './internal/truncate-utf8.js';
import { vfsPathSegments } from './internal/vfs-path-parts.js';
import { listTree, type TreeChild, type TreeSource } from './internal/walk-tree.js';
import { normalizeVfsPath } from './normalize-vfs-path.js';
import { DEFAULT_VFS_LIMITS } from './vfs-defaults.js';
import type { VfsEntry, VfsListOptions, VfsProvider, VfsReadResult, VfsSearchOptions } from './vfs-provider.js';

/** A file of a memory VFS with its metadata. */
export interface MemoryVfsFile {
  /** Text, or base64 when `encoding` is `base64`. */
  content: string;
  /**
   * How `content` is encoded; `base64` marks binary data.
   * @default 'utf-8'
   */
  encoding?: 'utf-8' | 'base64' | undefined;
  /**
   * The MIME type `read` reports.
   * @default guessed from the extension
   */
  contentType?: string | undefined;
  /** A human title, copied to entries and reads. */
  title?: string | undefined;
  /** A revision or version id, copied to entries and reads. */
  revision?: string | undefined;
  /** ISO-8601 time of the last change, copied to entries and reads. */
  updatedAt?: string | undefined;
  /** Extra facts, copied to entries and reads. */
  properties?: Record<string, string> | undefined;
}

/** Options of `createMemoryVfs`. */
export interface MemoryVfsOptions {
  /**
   * Byte cap of `read`: longer files return their first bytes with `truncated: true`.
   * @default 1048576 (1 MiB, `DEFAULT_VFS_LIMITS.maxReadBytes`)
   */
  maxReadBytes?: number | undefined;
  /**
   * A provider label put on every entry; `search` with another `provider` finds nothing.
   * @default undefined (no label)
   */
  provider?: string | undefined;
}

/** A memory VFS: every `VfsProvider` method, `stat` included. */
export type MemoryVfs = Required<VfsProvider>;

type LabelledFields = Pick<VfsEntry, 'path' | 'provider' | 'title' | 'revision' | 'updatedAt' | 'properties'>;

interface StoredFile extends MemoryVfsFile {
  bytes: Uint8Array;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Creates a read-only VFS over an object of files keyed by path. Directories are implied by the
 * paths. Worker-safe: no Node modules. Keys are normalised with `normalizeVfsPath`.
 *
 * @throws VfsInvalidOptionError when a key is not a valid path, two keys name the same file, or a
 *   file's path is also used as a directory; and for invalid options.
 * @example
 * ```ts
 * const vfs = createMemoryVfs({ '/docs/readme.md': '# Hello', 'notes/todo.txt': 'ship it' });
 * await vfs.read('/docs/readme.md'); // { path: '/docs/readme.md', content: '# Hello', ... }
 * ```
 */
export function createMemoryVfs(files: Record<string, string | MemoryVfsFile>, options: MemoryVfsOptions = {}): MemoryVfs {
  if (typeof files !== 'object' || files === null) {
    throw new VfsInvalidOptionError('files must be an object of paths to contents.', { field: 'files' });
  }
  const resolved = resolveOptionsObject(options, 'options');
  const maxReadBytes = resolveCount(resolved.maxReadBytes, 'maxReadBytes', DEFAULT_VFS_LIMITS.maxReadBytes);
  const provider = resolveLabel(resolved.provider, 'provider');
  const stored = new Map<string, StoredFile>();
  const directories = new Map<string, Map<string, TreeChild>>([['/', new Map()]]);

  for (const [key, value] of Object.entries(files)) storeFile(key, value);

  function storeFile(key: string, value: string | MemoryVfsFile): void {
    const field = `files[${JSON.stringify(key)}]`;
    let path: string;
    try {
      path = normalizeVfsPath(key);
    } catch (error) {
      throw new VfsInvalidOptionError(`${field} is not a valid path: ${(error as Error).message}`, { field, cause: error });
    }
    const file: MemoryVfsFile = typeof value === 'string' ? { content: value } : value;
    if (typeof file !== 'object' || file === null || typeof file.content !== 'string') {
      throw new VfsInvalidOptionError(`${field} must be a string or an object with a string content.`, { field });
    }
    if (path === '/' || stored.has(path) || directories.has(path)) {
      throw new VfsInvalidOptionError(`${field} names ${path}, which is already a file or a directory.`, { field });
    }
    let bytes: Uint8Array;
    try {
      bytes = file.encoding === 'base64' ? base64ToBytes(file.content) : encoder.encode(file.content);
    } catch (error) {
      throw new VfsInvalidOptionError(`${field} has invalid base64 content.`, { field, cause: error });
    }
    const segments = vfsPathSegments(path);
    let parent = '/';
    for (const [index, name] of segments.entries()) {
      const children = directories.get(parent)!;
      const isLast = index === segments.length - 1;
      const childPath = parent === '/' ? `/${name}` : `${parent}/${name}`;
      if (!isLast && stored.has(childPath)) {
        throw new VfsInvalidOptionError(`${field} uses ${childPath} as a directory, but it is a file.`, { field });
      }
      if (!children.has(name)) {
        children.set(name, isLast ? { name, type: 'file', size: bytes.length } : { name, type: 'dir' });
      }
      if (!isLast && !directories.has(childPath)) directories.set(childPath, new Map());
      parent = childPath;
    }
    stored.set(path, { ...file, bytes });
  }

  const source: TreeSource = {
    async children(path) {
      return [...(directories.get(path)?.values() ?? [])];
    },
  };

  const label = <T extends LabelledFields>(entry: T): T => {
    const file = stored.get(entry.path);
    const labelled: T = provider === undefined ? entry : { ...entry, provider };
    if (file?.title !== undefined) labelled.title = file.title;
    if (file?.revision !== undefined) labelled.revision = file.revision;
    if (file?.updatedAt !== undefined) labelled.updatedAt = file.updatedAt;
    if (file?.properties !== undefined) labelled.properties = { ...file.properties };
    return labelled;
  };

  return {
    async list(path: string, listOptions?: VfsListOptions) {
      const normalized = normalizeVfsPath(path);
      const given = resolveOptionsObject(listOptions, 'options');
      const depth = resolveCount(given.depth, 'depth', DEFAULT_VFS_LIMITS.listDepth);
      const limit = resolveCount(given.limit, 'limit', DEFAULT_VFS_LIMITS.listLimit);
      if (stored.has(normalized)) throw new VfsNotADirectoryError(`${normalized} is a file, not a directory.`, { path: normalized });
      if (!directories.has(normalized)) throw new VfsNotFoundError(`No directory at ${normalized}.`, { path: normalized });
      return (await listTree(source, normalized, depth, limit)).map(label);
    },

    async read(path: string): Promise<VfsReadResult | null> {
      const normalized = normalizeVfsPath(path);
      if (directories.has(normalized)) throw new VfsIsADirectoryError(`${normalized} is a directory.`, { path: normalized });
      const file = stored.get(normalized);
      if (file === undefined) return null;
      const truncated = file.bytes.length > maxReadBytes;
      const kept = truncated ? truncateUtf8(file.bytes, maxReadBytes) : file.bytes;
      const binary = file.encoding === 'base64';
      const result: VfsReadResult = {
        path: normalized,
        content: binary ? bytesToBase64(file.bytes.subarray(0, maxReadBytes)) : truncated ? decoder.decode(kept) : file.content,
        encoding: binary ? 'base64' : 'utf-8',
        size: file.bytes.length,
        truncated,
      };
      const contentType = file.contentType ?? guessContentType(normalized);
      if (contentType !== undefined) result.contentType = contentType;
      return label(result);
    },

    async search(query: string, searchOptions?: VfsSearchOptions) {
      const needle = resolveQuery(query);
      const given = resolveOptionsObject(searchOptions, 'options');
      const limit = resolveCount(given.limit, 'limit', DEFAULT_VFS_LIMITS.searchLimit);
      if (given.provider !== undefined && given.provider !== '' && given.provider !== provider) return [];
      const results = await searchTree(source, needle, {
        limit,
        maxDepth: Number.POSITIVE_INFINITY,
        maxFiles: Number.POSITIVE_INFINITY,
        loadText: async (filePath) => {
          const file = stored.get(filePath);
          return file === undefined || file.encoding === 'base64' ? undefined : file.content;
        },
      });
      return results.map(label);
    },

    async stat(path: string): Promise<VfsEntry | null> {
      const normalized = normalizeVfsPath(path);
      if (directories.has(normalized)) return label<VfsEntry>({ path: normalized, type: 'dir' });
      const file = stored.get(normalized);
      return file === undefined ? null : label<VfsEntry>({ path: normalized, type: 'file', size: file.bytes.length });
    },
  };
}
