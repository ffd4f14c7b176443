import { loadBuiltins } from '../../shared/load-builtins.js';

/** The part of `node:fs/promises` the file resume guard uses. */
export interface NodeFsLike {
  mkdir(path: string, options: { recursive: true; mode?: number }): Promise<unknown>;
  writeFile(path: string, data: string, options: { flag: string; mode?: number }): Promise<void>;
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  readdir(path: string): Promise<string[]>;
  unlink(path: string): Promise<void>;
}

let loaded: Promise<NodeFsLike> | undefined;

/**
 * Loads `node:fs/promises` on first use (nothing runs until a file resume guard claims, so the
 * main entry stays Worker-safe); rejects with `NodeModulesUnavailableError` outside Node.js.
 */
export function loadNodeFs(): Promise<NodeFsLike> {
  loaded ??= loadBuiltins(['node:fs/promises']).then(([fs]) => fs as NodeFsLike);
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}
