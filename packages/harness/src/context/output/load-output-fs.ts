import { loadBuiltins } from '../../shared/load-builtins.js';
import type { AtomicWriteFs } from '../../shared/write-file-atomic.js';

/** An open file, the part in use. */
export interface FileHandleLike {
  stat(): Promise<{ isFile(): boolean; size: number }>;
  read(buffer: Uint8Array, offset: number, length: number, position: number | null): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
}

/** `node:fs/promises` and the constants of `node:fs`, the parts the output store and recovery use. */
export interface OutputFs {
  mkdir(path: string, options: { recursive?: boolean; mode: number }): Promise<unknown>;
  mkdtemp(prefix: string): Promise<string>;
  lstat(path: string): Promise<{ isDirectory(): boolean; isSymbolicLink(): boolean; mode: number; uid: number }>;
  open(path: string, flags: number): Promise<FileHandleLike>;
  writeFile(path: string, data: Uint8Array, options: { flag: 'wx'; mode: number }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  rm(path: string, options: { recursive: true; force: true }): Promise<void>;
  /** The same `node:fs/promises`, as the durable writes (`writeNewFileSynced`, `syncDirectory`) use it. */
  durable: Pick<AtomicWriteFs, 'open'>;
  /** `O_RDONLY | O_NOFOLLOW | O_NONBLOCK` where they exist: no link is followed, no FIFO blocks the open. */
  readFlags: number;
  /** The user's id where there is one (not on Windows). */
  uid: number | undefined;
  platform: string;
  tmpdir(): string;
}

interface FsConstants {
  O_RDONLY: number;
  O_NOFOLLOW?: number;
  O_NONBLOCK?: number;
}

let loaded: Promise<OutputFs> | undefined;

/** Loads the Node.js modules on first use, so the main entry stays Worker-safe; rejects outside Node.js. */
export function loadOutputFs(): Promise<OutputFs> {
  loaded ??= loadBuiltins(['node:fs/promises', 'node:fs', 'node:process', 'node:os']).then(([promises, fs, process, os]) => {
    const constants = (fs as { constants: FsConstants }).constants;
    const node = process as { platform: string; getuid?: () => number };
    const fsp = promises as Pick<OutputFs, 'mkdir' | 'mkdtemp' | 'lstat' | 'open' | 'writeFile' | 'rename' | 'rm'>;
    return {
      mkdir: fsp.mkdir,
      mkdtemp: fsp.mkdtemp,
      lstat: fsp.lstat,
      open: fsp.open,
      writeFile: fsp.writeFile,
      rename: fsp.rename,
      rm: fsp.rm,
      durable: promises as Pick<AtomicWriteFs, 'open'>,
      readFlags: constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0),
      uid: typeof node.getuid === 'function' ? node.getuid() : undefined,
      platform: node.platform,
      tmpdir: () => (os as { tmpdir(): string }).tmpdir(),
    };
  });
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}

/** The `code` of a Node.js system error. */
export function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}
