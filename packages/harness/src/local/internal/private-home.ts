import { loadBuiltins } from '../../shared/load-builtins.js';

/** `node:fs/promises`, `node:os` and `node:path`, the parts a private home uses. */
export interface HomeFs {
  mkdtemp(prefix: string): Promise<string>;
  mkdir(path: string, options: { recursive: true; mode?: number }): Promise<unknown>;
  writeFile(path: string, data: string, options: { mode: number }): Promise<void>;
  rm(path: string, options: { recursive: true; force: true }): Promise<void>;
  join(...parts: string[]): string;
}

/** Writes an engine's files (its configuration) into a fresh home. */
export type HomeSetup = (home: string, fs: HomeFs) => Promise<void>;

async function loadHomeFs(): Promise<HomeFs & { tmpdir(): string }> {
  const [fs, os, path] = (await loadBuiltins(['node:fs/promises', 'node:os', 'node:path'])) as [
    Pick<HomeFs, 'mkdtemp' | 'mkdir' | 'writeFile' | 'rm'>,
    { tmpdir(): string },
    { join(...parts: string[]): string },
  ];
  return {
    mkdtemp: (prefix) => fs.mkdtemp(prefix),
    mkdir: (target, options) => fs.mkdir(target, options),
    writeFile: (target, data, options) => fs.writeFile(target, data, options),
    rm: (target, options) => fs.rm(target, options),
    join: (...parts) => path.join(...parts),
    tmpdir: () => os.tmpdir(),
  };
}

/**
 * One engine instance's own home directory: the caller's `given` directory, or a fresh one
 * (`<tmpdir>/<prefix>XXXXXX`, mode 0700) made on first use and removed by `dispose`. `setup`
 * runs once, before the first run, in either case (it writes the engine's configuration).
 */
export class PrivateHome {
  private made: Promise<string> | undefined;
  private temporary = false;

  constructor(
    private readonly prefix: string,
    private readonly setup: HomeSetup,
    private readonly given?: string,
  ) {}

  /** The home's path, made and set up on the first call. A failed setup is retried on the next call. */
  path(): Promise<string> {
    this.made ??= this.make();
    this.made.catch(() => {
      this.made = undefined;
    });
    return this.made;
  }

  /** Removes a home this instance made (never a given one). */
  async dispose(): Promise<void> {
    const made = this.made;
    this.made = undefined;
    if (made === undefined || !this.temporary) return;
    const home = await made.catch(() => undefined);
    if (home === undefined) return;
    const fs = await loadHomeFs();
    await fs.rm(home, { recursive: true, force: true });
  }

  private async make(): Promise<string> {
    const fs = await loadHomeFs();
    let home = this.given;
    if (home === undefined) {
      home = await fs.mkdtemp(fs.join(fs.tmpdir(), this.prefix));
      this.temporary = true;
    } else {
      await fs.mkdir(home, { recursive: true, mode: 0o700 });
    }
    try {
      await this.setup(home, fs);
    } catch (error) {
      if (this.given === undefined) await fs.rm(home, { recursive: true, force: true }).catch(() => undefined);
      throw error;
    }
    return home;
  }
}

/** The environment that puts an engine's HOME and XDG directories inside `home`. */
export function privateHomeEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    XDG_CONFIG_HOME: `${home}/.config`,
    XDG_DATA_HOME: `${home}/.local/share`,
    XDG_STATE_HOME: `${home}/.local/state`,
    XDG_CACHE_HOME: `${home}/.cache`,
  };
}
