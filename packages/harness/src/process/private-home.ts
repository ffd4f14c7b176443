import { loadBuiltins } from '../shared/load-builtins.js';

interface FsLike {
  mkdtemp(prefix: string): Promise<string>;
  mkdir(path: string, options: { recursive: true; mode?: number }): Promise<unknown>;
  writeFile(path: string, data: string, options: { flag: 'wx'; mode: number }): Promise<void>;
  rm(path: string, options: { recursive: true; force: true }): Promise<void>;
}
interface PathLike {
  join(...parts: string[]): string;
  dirname(path: string): string;
  resolve(...parts: string[]): string;
  relative(from: string, to: string): string;
  isAbsolute(path: string): boolean;
}

/** A home directory an engine process gets instead of the user's. */
export interface EngineHome {
  /** Absolute path of the directory. */
  readonly path: string;
  /** True when it was made for this engine (and `remove` deletes it); false for a caller's directory. */
  readonly private: boolean;
  /** Deletes a private home with everything the engine wrote there; does nothing for a caller's. Never rejects. */
  remove(): Promise<void>;
}

/**
 * The home of an engine: the caller's directory when one is given, else a fresh private one
 * (`<tmpdir>/<prefix>XXXXXX`, mode 0700). `files` (paths relative to the home → contents) are
 * written where they do not exist yet, so a caller's own settings are never overwritten. Never put
 * secrets in `files`: pass them in the engine's environment.
 * @throws Error when a file path leaves the home, or the directory cannot be made.
 */
export async function prepareEngineHome(prefix: string, given: string | undefined, files: Readonly<Record<string, string>>): Promise<EngineHome> {
  const [fsModule, pathModule, osModule] = await loadBuiltins(['node:fs/promises', 'node:path', 'node:os']);
  const fs = fsModule as FsLike;
  const path = pathModule as PathLike;
  const home = given === undefined ? await fs.mkdtemp(path.join((osModule as { tmpdir(): string }).tmpdir(), prefix)) : path.resolve(given);
  const remove = given === undefined ? () => fs.rm(home, { recursive: true, force: true }).catch(() => undefined) : () => Promise.resolve();
  try {
    for (const [relative, content] of Object.entries(files)) {
      const target = path.resolve(home, relative);
      const inside = path.relative(home, target);
      if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) throw new Error(`the home file ${relative} is outside the home.`);
      await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      await fs.writeFile(target, content, { flag: 'wx', mode: 0o600 }).catch((error: unknown) => {
        if ((error as { code?: unknown } | null)?.code !== 'EEXIST') throw error;
      });
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { path: home, private: given === undefined, remove };
}

/**
 * The environment that puts an engine's `HOME` (and Windows' `USERPROFILE`) and its XDG config,
 * data, state and cache directories inside `home`, so its sessions, settings and logs stay apart
 * from the user's and from other instances'. `keepCache` leaves `XDG_CACHE_HOME` to the caller (an
 * engine that unpacks itself into its cache shares it).
 */
export function privateHomeEnv(home: string, options: { keepCache?: boolean | undefined } = {}): Record<string, string> {
  const sep = home.includes('\\') && !home.includes('/') ? '\\' : '/';
  const under = (...parts: string[]) => [home, ...parts].join(sep);
  return {
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: under('.config'),
    XDG_DATA_HOME: under('.local', 'share'),
    XDG_STATE_HOME: under('.local', 'state'),
    ...(options.keepCache === true ? {} : { XDG_CACHE_HOME: under('.cache') }),
  };
}
