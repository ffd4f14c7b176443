import type {
  NodeChildProcessModuleLike,
  NodeFsPromisesLike,
  NodeModules,
  NodePathLike,
  NodeProcessLike,
} from './node-types.js';

// The specifier is a parameter, not a literal, so bundlers targeting Workers neither resolve nor
// inline Node built-ins from the root entry: nothing here runs until a local backend executes.
const importBuiltin = (specifier: string): Promise<unknown> => import(/* @vite-ignore */ specifier);

let loaded: Promise<NodeModules> | undefined;

/**
 * Loads `node:child_process`, `node:process`, `node:fs/promises` and `node:path` on first use.
 * Rejects outside Node.js (for example in a Cloudflare Worker).
 */
export function loadNodeModules(): Promise<NodeModules> {
  loaded ??= (async () => {
    const [childProcess, process, fs, path, fsSync] = (await Promise.all([
      importBuiltin('node:child_process'),
      importBuiltin('node:process'),
      importBuiltin('node:fs/promises'),
      importBuiltin('node:path'),
      importBuiltin('node:fs'),
    ])) as [
      NodeChildProcessModuleLike,
      { default: NodeProcessLike },
      NodeFsPromisesLike,
      NodePathLike,
      { constants: { X_OK: number } },
    ];
    return { childProcess, process: process.default, fs, path, executableMode: fsSync.constants.X_OK };
  })();
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}
