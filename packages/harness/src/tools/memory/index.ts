export { createMemoryToolRegistry, MEMORY_TOOL_NAMES, type MemoryToolOptions } from './create-memory-tool-registry.js';
export { createInMemoryMemoryStore, type InMemoryMemoryStoreOptions } from './in-memory-memory-store.js';
export { createFileMemoryStore, type FileMemoryStoreOptions } from './file-memory-store.js';
export { createPostgresMemoryStore, type PostgresMemoryStore, type PostgresMemoryStoreOptions } from './postgres-memory-store.js';
export type { MemoryEntry, MemoryQuery, MemoryStore } from './memory-store.js';
export { createRedisMemoryStore, type RedisMemoryStoreOptions } from './redis-memory-store.js';
