/**
 * @module @agent-assistant/vfs
 * A virtual file system contract and providers.
 */
export const VFS_PLACEHOLDER = true;
