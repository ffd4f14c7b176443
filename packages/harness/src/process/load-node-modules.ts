import { loadBuiltins } from '../shared/load-builtins.js';
import type {
  NodeChildProcessModuleLike,
  NodeFsPromisesLike,
  NodeModules,
  NodePathLike,
  NodeProcessLike,
} from './node-types.js';

let loaded: Promise<NodeModules> | undefined;

/**
 * Loads `node:child_process`, `node:process`, `node:fs/promises`, `node:path` and `node:fs` on
 * first use (through `process.getBuiltinModule` where it exists, so Jest's CommonJS mode works).
 * Rejects with `NodeModulesUnavailableError` outside Node.js (for example in a Cloudflare Worker).
 */
export function loadNodeModules(): Promise<NodeModules> {
  loaded ??= (async () => {
    const [childProcess, process, fs, path, fsSync] = (await loadBuiltins([
      'node:child_process',
      'node:process',
      'node:fs/promises',
      'node:path',
      'node:fs',
    ])) as [NodeChildProcessModuleLike, NodeProcessLike, NodeFsPromisesLike, NodePathLike, { constants: { X_OK: number } }];
    return { childProcess, process, fs, path, executableMode: fsSync.constants.X_OK };
  })();
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}
