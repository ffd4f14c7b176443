// Private directories and files of the CLI presets (a private HOME, a prompt file, a report the
// CLI writes). Node.js only: the built-ins load on first use, so importing this stays Worker-safe.
import { loadBuiltins } from '../../shared/load-builtins.js';

interface FileHandle {
  stat(): Promise<{ isFile(): boolean }>;
  read(buffer: Uint8Array, offset: number, length: number, position: number | null): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
}

/** The parts of `node:fs/promises`, `node:os` and `node:path` the presets use. */
export interface PresetFs {
  mkdir(path: string, options: { recursive: true; mode: number }): Promise<unknown>;
  mkdtemp(prefix: string): Promise<string>;
  writeFile(path: string, data: string, options: { flag: 'wx' | 'w'; mode: number }): Promise<void>;
  readdir(path: string): Promise<string[]>;
  realpath(path: string): Promise<string>;
  open(path: string, flags: number): Promise<FileHandle>;
  rm(path: string, options: { recursive: true; force: true }): Promise<void>;
  access(path: string, mode?: number): Promise<void>;
  tmpdir(): string;
  homedir(): string;
  join(...parts: string[]): string;
  dirname(path: string): string;
  basename(path: string): string;
  /** An absolute path, relative parts resolved against this process's working directory. */
  resolve(path: string): string;
  /** `O_RDONLY | O_NOFOLLOW | O_NONBLOCK` where they exist: no link is followed, no FIFO blocks the open. */
  readFlags: number;
  platform: string;
  arch: string;
  env: Readonly<Record<string, string | undefined>>;
}

let loaded: Promise<PresetFs> | undefined;

/** Loads the built-ins once; rejects outside Node.js. */
export function loadPresetFs(): Promise<PresetFs> {
  loaded ??= loadBuiltins(['node:fs/promises', 'node:fs', 'node:os', 'node:path', 'node:process']).then(([promises, fs, os, path, process]) => {
    const fsp = promises as Pick<PresetFs, 'mkdir' | 'mkdtemp' | 'writeFile' | 'readdir' | 'realpath' | 'open' | 'rm' | 'access'>;
    const constants = (fs as { constants: { O_RDONLY: number; O_NOFOLLOW?: number; O_NONBLOCK?: number } }).constants;
    const osModule = os as { tmpdir(): string; homedir(): string };
    const pathModule = path as Pick<PresetFs, 'join' | 'dirname' | 'basename' | 'resolve'>;
    const node = process as { platform: string; arch: string; env: Record<string, string | undefined> };
    return {
      mkdir: fsp.mkdir,
      mkdtemp: fsp.mkdtemp,
      writeFile: fsp.writeFile,
      readdir: fsp.readdir,
      realpath: fsp.realpath,
      open: fsp.open,
      rm: fsp.rm,
      access: fsp.access,
      tmpdir: () => osModule.tmpdir(),
      homedir: () => osModule.homedir(),
      join: (...parts) => pathModule.join(...parts),
      dirname: (value) => pathModule.dirname(value),
      basename: (value) => pathModule.basename(value),
      resolve: (value) => pathModule.resolve(value),
      readFlags: constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0),
      platform: node.platform,
      arch: node.arch,
      env: node.env,
    };
  });
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}

/** A private directory of one adapter instance: `get` makes it on first use, `remove` deletes it. */
export interface LazyPrivateDir {
  get(): Promise<string>;
  /** Deletes the directory and everything in it, if it was made; a later `get` makes a new one. */
  remove(): Promise<void>;
}

/**
 * A private directory made once per adapter instance, on first use: `<tmpdir>/<prefix>XXXXXX`
 * (mode 0700). It is kept until `remove`, so the CLI's sessions survive between turns. A failed
 * attempt is retried on the next call.
 */
export function lazyPrivateDir(prefix: string): LazyPrivateDir {
  let made: Promise<string> | undefined;
  return {
    get() {
      made ??= loadPresetFs().then((fs) => fs.mkdtemp(fs.join(fs.tmpdir(), prefix)));
      made.catch(() => {
        made = undefined;
      });
      return made;
    },
    async remove() {
      const dir = made === undefined ? undefined : await made.catch(() => undefined);
      made = undefined;
      if (dir !== undefined) await (await loadPresetFs()).rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `make(dir)` run once for the current private directory of `root` (again after `remove` gives a
 * new one, or after it failed), e.g. to lay out a private HOME and write a config file once.
 */
export function oncePerDir<T>(root: LazyPrivateDir, make: (dir: string) => Promise<T>): () => Promise<T> {
  let current: { dir: string; ready: Promise<T> } | undefined;
  return async () => {
    const dir = await root.get();
    if (current?.dir !== dir) {
      const entry = { dir, ready: make(dir) };
      current = entry;
      entry.ready.catch(() => {
        if (current === entry) current = undefined;
      });
    }
    return current.ready;
  };
}

/** A private directory for one run (`<tmpdir>/<prefix>XXXXXX`, mode 0700) and a way to remove it. */
export async function runScratchDir(prefix: string): Promise<{ dir: string; fs: PresetFs; remove: () => Promise<void> }> {
  const fs = await loadPresetFs();
  const dir = await fs.mkdtemp(fs.join(fs.tmpdir(), prefix));
  return { dir, fs, remove: () => fs.rm(dir, { recursive: true, force: true }) };
}

/**
 * The first `maxBytes` of a regular file as UTF-8, or `undefined` when it is missing or cannot
 * be opened. Links are not followed and a FIFO does not block, so a hostile process cannot make
 * the read hang or run long.
 */
export async function readBoundedFile(fs: PresetFs, path: string, maxBytes: number): Promise<string | undefined> {
  let handle: FileHandle;
  try {
    handle = await fs.open(path, fs.readFlags);
  } catch {
    return undefined;
  }
  try {
    if (!(await handle.stat()).isFile()) return undefined;
    const buffer = new Uint8Array(maxBytes);
    let length = 0;
    while (length < maxBytes) {
      const { bytesRead } = await handle.read(buffer, length, maxBytes - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return new TextDecoder().decode(buffer.subarray(0, length));
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}
