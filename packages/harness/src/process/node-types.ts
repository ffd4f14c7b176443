// Minimal structural types for the few Node.js APIs the local backends use. They are declared
// here (instead of imported from `@types/node`) so the Worker-safe root entry type-checks without
// Node typings; the real modules are loaded lazily by `loadNodeModules`.

/** A readable child-process stream (`child.stdout`, `child.stderr`). */
export interface NodeReadableLike {
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  destroy(): void;
}

/** A writable child-process stream (`child.stdin`). */
export interface NodeWritableLike {
  on(event: 'error', listener: (error: Error) => void): unknown;
  end(chunk?: string): void;
}

/** An error from a Node.js system call (`ENOENT`, `EACCES`, ...). */
export interface NodeSystemErrorLike extends Error {
  code?: string;
  errno?: number;
  syscall?: string;
  path?: string;
}

/** The parts of `ChildProcess` in use. */
export interface NodeChildProcessLike {
  readonly pid?: number | undefined;
  readonly stdin: NodeWritableLike | null;
  readonly stdout: NodeReadableLike | null;
  readonly stderr: NodeReadableLike | null;
  on(event: 'error', listener: (error: NodeSystemErrorLike) => void): unknown;
  on(event: 'exit' | 'close', listener: (code: number | null, signal: string | null) => void): unknown;
  kill(signal?: 'SIGTERM' | 'SIGKILL'): boolean;
}

/** Options of `spawn` in use. */
export interface NodeSpawnOptionsLike {
  cwd?: string;
  env: Record<string, string>;
  stdio: ['ignore' | 'pipe', 'pipe', 'pipe'];
  detached: boolean;
  windowsHide: boolean;
  shell: false;
  windowsVerbatimArguments?: boolean;
}

/** `node:child_process`, the part in use. */
export interface NodeChildProcessModuleLike {
  spawn(command: string, args: readonly string[], options: NodeSpawnOptionsLike): NodeChildProcessLike;
}

/** `node:process`, the part in use. */
export interface NodeProcessLike {
  readonly env: Record<string, string | undefined>;
  readonly platform: string;
  cwd(): string;
  kill(pid: number, signal?: string | number): boolean;
}

/** `node:fs/promises`, the part in use. */
export interface NodeFsPromisesLike {
  access(path: string, mode?: number): Promise<void>;
  stat(path: string): Promise<{ isFile(): boolean; isDirectory(): boolean }>;
}

/** `node:path`, the part in use. */
export interface NodePathLike {
  readonly delimiter: string;
  readonly sep: string;
  join(...parts: string[]): string;
  resolve(...parts: string[]): string;
  isAbsolute(path: string): boolean;
}

/** The Node.js modules the local backends use, loaded once. */
export interface NodeModules {
  childProcess: NodeChildProcessModuleLike;
  process: NodeProcessLike;
  fs: NodeFsPromisesLike;
  path: NodePathLike;
  /** `fs.constants.X_OK`. */
  executableMode: number;
}
