/**
 * @module @agent-assistant/vfs
 * A read-only virtual file system contract (`VfsProvider`), path normalisation, typed errors and
 * a Worker-safe in-memory provider. The sandboxed Node file-system provider and the `vfs` CLI
 * live in the `@agent-assistant/vfs/node` subpath.
 */
export type {
  VfsEntry,
  VfsListOptions,
  VfsNodeType,
  VfsProvider,
  VfsReadResult,
  VfsSearchOptions,
  VfsSearchResult,
} from './vfs-provider.js';
export { normalizeVfsPath, MAX_VFS_PATH_LENGTH } from './normalize-vfs-path.js';
export { createMemoryVfs, type MemoryVfs, type MemoryVfsFile, type MemoryVfsOptions } from './create-memory-vfs.js';
export { DEFAULT_VFS_LIMITS } from './vfs-defaults.js';
export * from './errors/index.js';
