import type { NodeChildProcessLike, NodeSpawnOptionsLike } from '../process/node-types.js';

/**
 * Starts a program the way `child_process.spawn` from `node:` does (and `spawn` itself fits this
 * type). The local backends call it with `shell: false`, `detached: true` (a process group of its
 * own, off Windows) and stdin closed or piped; a replacement must keep those semantics — for
 * example run the program in a container or through a wrapper — and return the child process.
 * @default `spawn` from `node:child_process`, loaded on first use
 */
export type LocalSpawnFn = (command: string, args: readonly string[], options: NodeSpawnOptionsLike) => NodeChildProcessLike;
