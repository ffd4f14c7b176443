import { loadBuiltins } from '../../../shared/load-builtins.js';

/** The few Node.js APIs `RelayAdapter` uses, loaded on first use (the module stays Worker-bundle-safe). */
export interface RelayNodeModules {
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  join(...parts: string[]): string;
  resolve(...parts: string[]): string;
  env: Record<string, string | undefined>;
  cwd(): string;
  /** True when a process with this id exists (signal 0). */
  isAlive(pid: number): boolean;
}

let loaded: Promise<RelayNodeModules> | undefined;

/** Loads `node:fs/promises`, `node:path` and `node:process`. Rejects outside Node.js. */
export function loadRelayNodeModules(): Promise<RelayNodeModules> {
  loaded ??= (async () => {
    const [fs, path, process] = (await loadBuiltins(['node:fs/promises', 'node:path', 'node:process'])) as [
      { readFile(path: string, encoding: 'utf8'): Promise<string> },
      { join(...parts: string[]): string; resolve(...parts: string[]): string },
      { env: Record<string, string | undefined>; cwd(): string; kill(pid: number, signal: 0): boolean },
    ];
    return {
      readFile: (file, encoding) => fs.readFile(file, encoding),
      join: (...parts) => path.join(...parts),
      resolve: (...parts) => path.resolve(...parts),
      env: process.env,
      cwd: () => process.cwd(),
      isAlive(pid) {
        try {
          process.kill(pid, 0);
          return true;
        } catch (error) {
          return (error as { code?: string }).code === 'EPERM';
        }
      },
    };
  })();
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}
