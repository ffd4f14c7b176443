/** The part of `node:fs/promises` the file resume guard uses. */
export interface NodeFsLike {
  mkdir(path: string, options: { recursive: true; mode?: number }): Promise<unknown>;
  writeFile(path: string, data: string, options: { flag: string; mode?: number }): Promise<void>;
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  readdir(path: string): Promise<string[]>;
  unlink(path: string): Promise<void>;
}

// The specifier is a parameter, not a literal, so bundlers targeting Workers neither resolve nor
// inline the Node built-in: nothing here runs until a file resume guard claims.
const importBuiltin = (specifier: string): Promise<unknown> => import(/* @vite-ignore */ specifier);

let loaded: Promise<NodeFsLike> | undefined;

/** Loads `node:fs/promises` on first use; rejects outside Node.js. */
export function loadNodeFs(): Promise<NodeFsLike> {
  loaded ??= importBuiltin('node:fs/promises') as Promise<NodeFsLike>;
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}
