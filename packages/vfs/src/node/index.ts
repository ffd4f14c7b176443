/**
 * @module @agent-assistant/vfs/node
 * Node-only parts of the VFS: the sandboxed file-system provider and the `vfs` CLI runner.
 */
export { createNodeFsVfs, DEFAULT_NODE_FS_VFS_OPTIONS, type NodeFsVfs, type NodeFsVfsOptions } from './create-node-fs-vfs.js';
export {
  runVfsCli,
  VFS_CLI_DEFAULTS,
  VFS_CLI_EXIT_CODES,
  type RunVfsCliOptions,
  type VfsCliWritable,
} from './run-vfs-cli.js';
