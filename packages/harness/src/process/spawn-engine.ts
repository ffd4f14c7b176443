import type { NodeChildProcessLike, NodeModules, NodeSystemErrorLike, NodeWritableLike } from './node-types.js';
import { processOutputRedactor } from './environment-secrets.js';
import { TailBuffer } from './tail-buffer.js';
import { createProcessGroup, createProcessTimers } from './internal/process-group.js';
import { resolveWindowsSpawn, type WindowsSpawnTarget } from './internal/windows-command.js';
import { describeError } from '../shared/describe-error.js';
import { LineFramer } from './internal/line-framer.js';

/** What to start and under which bounds. `env` is the finished environment (see `buildEnvironment`). */
export interface SpawnEngineOptions {
  command: string;
  args: readonly string[];
  cwd?: string | undefined;
  env: Record<string, string>;
  /** Longest stdout line accepted, in bytes; a longer line stops the engine (`line_too_long`). */
  maxLineBytes: number;
  /** Bytes of stderr kept (the most recent ones); the rest is counted and dropped. */
  maxStderrBytes: number;
  /** Time between SIGTERM and SIGKILL to the process group, and the wait after closing stdin. */
  killGraceMs: number;
  /** Each complete stdout line, without its line ending. A throwing listener is ignored. */
  onLine: (line: string) => void;
}

/** Why an engine process ended. */
export type EngineExit =
  | { kind: 'exited'; exitCode: number | null; exitSignal: string | null }
  | { kind: 'spawn_failed'; code?: string | undefined; message: string }
  | { kind: 'line_too_long'; maxLineBytes: number }
  | { kind: 'disposed'; exitCode: number | null; exitSignal: string | null };

/** A running engine process. */
export interface EngineProcess {
  /** The process id, when the process started. */
  readonly pid: number | undefined;
  /** True until the process has ended (or `dispose` was called). */
  readonly alive: boolean;
  /** Writes one line (a newline is added). False when stdin is closed or the engine is gone. */
  write(line: string): boolean;
  /**
   * The most recent stderr output (at most `maxStderrBytes`), for diagnostics, with the secrets
   * of the engine's environment blanked out (see `processOutputRedactor`). Never shown to a model.
   */
  stderrTail(): string;
  /** Resolves once the process and its group are gone. Never rejects. */
  readonly exited: Promise<EngineExit>;
  /**
   * Closes stdin (most engines then exit on their own), and after `killGraceMs` sends SIGTERM to
   * the whole process group, then SIGKILL. Resolves once everything is gone. Idempotent.
   */
  dispose(): Promise<EngineExit>;
}

interface WritableStdin extends NodeWritableLike {
  write(chunk: string): boolean;
}

/**
 * Starts a long-lived engine process on the same hardening as the local backends: no shell, its
 * own process group (killed as a whole), the given allow-listed environment, stdout split into
 * lines with a per-line byte cap, stderr kept apart and bounded. Never throws: a spawn failure
 * ends `exited` with `spawn_failed`.
 */
export function spawnEngine(node: NodeModules, options: SpawnEngineOptions): EngineProcess {
  const isWindows = node.process.platform === 'win32';
  let child: NodeChildProcessLike | undefined;
  let stdin: WritableStdin | null = null;
  let alive = true;
  let disposing = false;
  let stdinOpen = false;
  let stoppedFor: EngineExit | undefined;
  let exit: { code: number | null; signal: string | null } | undefined;
  let settled = false;
  const timers = createProcessTimers();
  const { later } = timers;
  const stderr = new TailBuffer(options.maxStderrBytes);
  const redactor = processOutputRedactor(options.env);
  let resolveExited!: (exit: EngineExit) => void;
  const exited = new Promise<EngineExit>((resolve) => {
    resolveExited = resolve;
  });
  const framer = new LineFramer(options.maxLineBytes, (line) => {
    try {
      options.onLine(line);
    } catch {
      // A faulty listener never breaks the engine.
    }
  });

  const finish = (ending: EngineExit) => {
    if (settled) return;
    settled = true;
    alive = false;
    stdinOpen = false;
    timers.clear();
    child?.stdout?.destroy();
    child?.stderr?.destroy();
    resolveExited(ending);
  };
  const endingNow = (): EngineExit => {
    if (stoppedFor !== undefined) return stoppedFor;
    const exitCode = exit?.code ?? null;
    const exitSignal = exit?.signal ?? null;
    return disposing ? { kind: 'disposed', exitCode, exitSignal } : { kind: 'exited', exitCode, exitSignal };
  };
  const group = createProcessGroup(node, { pid: () => child?.pid, killGraceMs: options.killGraceMs, env: options.env, timers, onGone: () => finish(endingNow()) });
  const terminate = group.terminate;
  const closeStdin = () => {
    if (!stdinOpen) return;
    stdinOpen = false;
    try {
      stdin?.end();
    } catch {
      // Already closed.
    }
  };

  const start = (target: WindowsSpawnTarget) => {
    if (disposing) {
      finish({ kind: 'disposed', exitCode: null, exitSignal: null });
      return;
    }
    try {
      child = node.childProcess.spawn(target.command, target.args, {
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        env: options.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: !isWindows,
        windowsHide: true,
        shell: false,
        ...(target.windowsVerbatimArguments ? { windowsVerbatimArguments: true } : {}),
      });
    } catch (error) {
      finish(spawnFailed(error));
      return;
    }
    const pid = child.pid;
    stdin = child.stdin as WritableStdin | null;
    stdinOpen = stdin !== null && pid !== undefined;
    stdin?.on('error', () => {
      // EPIPE after the engine exited: later writes report false.
      stdinOpen = false;
    });
    child.on('error', (error: NodeSystemErrorLike) => {
      if (pid === undefined) finish(spawnFailed(error));
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      alive = false;
      stdinOpen = false;
      if (group.alive()) terminate();
      else later(options.killGraceMs, () => finish(endingNow()));
    });
    child.on('close', (code, signal) => {
      exit ??= { code, signal };
      framer.finish();
      group.afterPipesClosed(() => finish(endingNow()));
    });
    child.stdout?.on('data', (chunk) => {
      if (stoppedFor !== undefined) return;
      if (!framer.push(chunk)) {
        stoppedFor = { kind: 'line_too_long', maxLineBytes: options.maxLineBytes };
        alive = false;
        closeStdin();
        terminate();
      }
    });
    child.stderr?.on('data', (chunk) => stderr.push(chunk));
    child.stdout?.on('error', () => undefined);
    child.stderr?.on('error', () => undefined);
  };

  if (!isWindows) start({ command: options.command, args: options.args, windowsVerbatimArguments: false });
  else {
    resolveWindowsSpawn(node, options.command, options.args, options.env, options.cwd ?? node.process.cwd()).then(start, (error: unknown) =>
      finish(spawnFailed(error)),
    );
  }

  return {
    get pid() {
      return child?.pid;
    },
    get alive() {
      return alive && !disposing;
    },
    write(line: string): boolean {
      if (!stdinOpen || stdin === null || disposing) return false;
      try {
        stdin.write(`${line}\n`);
        return true;
      } catch {
        stdinOpen = false;
        return false;
      }
    },
    stderrTail: () => redactor.text(stderr.text(), { start: stderr.dropped }),
    exited,
    dispose(): Promise<EngineExit> {
      if (settled || disposing) return exited;
      disposing = true;
      closeStdin();
      if (child === undefined) return exited; // Windows lookup pending: `start` finishes as disposed.
      if (exit !== undefined && !group.alive()) return exited;
      later(options.killGraceMs, terminate);
      return exited;
    },
  };
}

function spawnFailed(error: unknown): EngineExit {
  const code = typeof error === 'object' && error !== null ? readCode(error as NodeSystemErrorLike) : undefined;
  return { kind: 'spawn_failed', ...(code === undefined ? {} : { code }), message: describeError(error) };
}

function readCode(error: NodeSystemErrorLike): string | undefined {
  try {
    return typeof error.code === 'string' ? error.code : undefined;
  } catch {
    return undefined;
  }
}
