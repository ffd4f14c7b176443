import { lazyPrivateDir, loadPresetFs, oncePerDir, type LazyPrivateDir, type PresetFs } from './preset-files.js';

/** The part of `node:fs/promises` and `node:path` an engine's setup writes its configuration with. */
export type HomeFs = Pick<PresetFs, 'mkdir' | 'join'> & {
  writeFile(path: string, data: string, options: { mode: number }): Promise<void>;
};

/** Writes an engine's files (its configuration) into its home. */
export type HomeSetup = (home: string, fs: HomeFs) => Promise<void>;

/**
 * One engine instance's own home directory: the caller's `given` directory (made if missing), or a
 * private one of the adapter instance (`lazyPrivateDir`: `<tmpdir>/<prefix>XXXXXX`, mode 0700, made
 * on first use, removed by `dispose`). `setup` runs once per directory, before the first run, in
 * either case (it writes the engine's configuration); a failed setup is retried on the next call.
 */
export class PrivateHome {
  private readonly root: LazyPrivateDir;
  private readonly ready: () => Promise<string>;

  constructor(prefix: string, setup: HomeSetup, given?: string) {
    const root = given === undefined ? lazyPrivateDir(prefix) : givenDir(given);
    this.root = root;
    this.ready = oncePerDir(root, async (dir) => {
      const fs = await loadPresetFs();
      await setup(dir, { mkdir: fs.mkdir, join: fs.join, writeFile: (path, data, options) => fs.writeFile(path, data, { flag: 'w', mode: options.mode }) });
      return dir;
    });
  }

  /** The home's path, made and set up on the first call. */
  path(): Promise<string> {
    return this.ready();
  }

  /** Removes a home this instance made (never a given one). */
  dispose(): Promise<void> {
    return this.root.remove();
  }
}

/** A caller's directory as a `LazyPrivateDir` that is made when missing and never removed. */
function givenDir(dir: string): LazyPrivateDir {
  return {
    get: async () => {
      const fs = await loadPresetFs();
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      return dir;
    },
    remove: () => Promise.resolve(),
  };
}
