import type { NodeChildProcessLike, NodeModules, NodeSystemErrorLike } from './node-types.js';
import { processOutputRedactor } from './environment-secrets.js';
import { OutputCapture } from './internal/output-capture.js';
import { createProcessGroup, createProcessTimers } from './internal/process-group.js';
import { resolveWindowsSpawn, type WindowsSpawnTarget } from './internal/windows-command.js';

/** What to run and under which bounds. */
export interface RunProcessOptions {
  command: string;
  args: readonly string[];
  cwd?: string;
  env: Record<string, string>;
  /** Written to stdin, which is then closed. Absent: stdin is `/dev/null`. */
  stdin?: string;
  timeoutMs: number;
  killGraceMs: number;
  /** Cap per stream (stdout and stderr each), in bytes. */
  maxOutputBytes: number;
  /** Cap on stdout and stderr together, in bytes; passing it stops the process like `maxOutputBytes`. @default no cap */
  maxTotalOutputBytes?: number;
  signal?: AbortSignal;
  onStdoutLine?: (line: string) => void;
}

/** Why the process ended. */
export type ProcessEnding =
  | { kind: 'exited'; exitCode: number | null; exitSignal: string | null }
  | { kind: 'spawn_failed'; error: { code?: string; message: string } }
  | { kind: 'timed_out' }
  | { kind: 'aborted'; reason: 'timeout' | 'cancelled' }
  | { kind: 'output_limit'; stream: 'stdout' | 'stderr' };

/** The ending plus everything captured. */
export interface ProcessOutcome {
  ending: ProcessEnding;
  stdout: string;
  /** Captured stdout as bytes (the same bytes `stdout` decodes). */
  stdoutData: Uint8Array;
  /** Captured stderr, with the secrets of the child's environment blanked out (see `processOutputRedactor`). */
  stderr: string;
  stdoutBytes: number;
  stderrBytes: number;
  /** Exit code and signal of the process when it was stopped by us (timeout, abort, output cap). */
  exitCode: number | null;
  exitSignal: string | null;
  startedAt: number;
  finishedAt: number;
}

/**
 * Spawns `command` without a shell in its own process group, captures bounded output (stderr
 * with the environment's secrets blanked out), and on a timeout, an abort or an output overflow
 * sends SIGTERM to the whole group and SIGKILL after `killGraceMs`. Resolves only once the process and every member of its group are gone (or, for
 * a grandchild that left the group and still holds the pipes, `killGraceMs` after the kill).
 * Never rejects.
 */
export function runProcess(node: NodeModules, options: RunProcessOptions): Promise<ProcessOutcome> {
  const startedAt = Date.now();
  const pool = { remaining: options.maxTotalOutputBytes ?? Number.POSITIVE_INFINITY };
  const stdout = new OutputCapture(options.maxOutputBytes, options.onStdoutLine, pool);
  const stderr = new OutputCapture(options.maxOutputBytes, undefined, pool);
  const redactor = processOutputRedactor(options.env);
  const outcome = (ending: ProcessEnding, exitCode: number | null = null, exitSignal: string | null = null): ProcessOutcome => {
    stdout.finish();
    const stdoutData = stdout.bytes();
    return {
      ending,
      stdout: new TextDecoder().decode(stdoutData),
      stdoutData,
      stderr: redactor.text(stderr.text(), { end: stderr.overflowed }),
      stdoutBytes: stdout.totalBytes,
      stderrBytes: stderr.totalBytes,
      exitCode,
      exitSignal,
      startedAt,
      finishedAt: Date.now(),
    };
  };
  const abortReason = (signal: AbortSignal): 'timeout' | 'cancelled' => {
    const reason: unknown = signal.reason;
    const kind = typeof reason === 'object' && reason !== null ? (reason as { reason?: unknown; name?: unknown }) : {};
    return kind.reason === 'timeout' || kind.name === 'TimeoutError' ? 'timeout' : 'cancelled';
  };
  if (options.signal?.aborted) return Promise.resolve(outcome({ kind: 'aborted', reason: abortReason(options.signal) }));

  const isWindows = node.process.platform === 'win32';
  if (!isWindows) return watchProcess({ command: options.command, args: options.args, windowsVerbatimArguments: false });
  return resolveWindowsSpawn(node, options.command, options.args, options.env, options.cwd ?? node.process.cwd()).then(
    watchProcess,
    (error: unknown) => outcome({ kind: 'spawn_failed', error: describeError(error) }),
  );

  function watchProcess(target: WindowsSpawnTarget): Promise<ProcessOutcome> {
    if (options.signal?.aborted) return Promise.resolve(outcome({ kind: 'aborted', reason: abortReason(options.signal) }));
    return new Promise<ProcessOutcome>((resolve) => {
      let child: NodeChildProcessLike;
      try {
        child = node.childProcess.spawn(target.command, target.args, {
          ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
          env: options.env,
          stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
          detached: !isWindows,
          windowsHide: true,
          shell: false,
          ...(target.windowsVerbatimArguments ? { windowsVerbatimArguments: true } : {}),
        });
      } catch (error) {
        resolve(outcome({ kind: 'spawn_failed', error: describeError(error) }));
        return;
      }

      let stoppedFor: ProcessEnding | undefined;
      let exit: { code: number | null; signal: string | null } | undefined;
      let settled = false;
      const timers = createProcessTimers();
      const { later } = timers;
      const pid = child.pid;
      const finish = (ending: ProcessEnding) => {
        if (settled) return;
        settled = true;
        timers.clear();
        options.signal?.removeEventListener('abort', onAbort);
        child.stdout?.destroy();
        child.stderr?.destroy();
        resolve(outcome(ending, exit?.code ?? null, exit?.signal ?? null));
      };
      const endingNow = (): ProcessEnding =>
        stoppedFor ?? { kind: 'exited', exitCode: exit?.code ?? null, exitSignal: exit?.signal ?? null };
      const group = createProcessGroup(node, { pid: () => pid, killGraceMs: options.killGraceMs, env: options.env, timers, onGone: () => finish(endingNow()) });
      const terminate = group.terminate;
      const stop = (why: ProcessEnding) => {
        // Once the process has exited, its exit is the ending; we only clean up the group.
        if (exit === undefined) stoppedFor ??= why;
        terminate();
      };
      function onAbort() {
        stop({ kind: 'aborted', reason: abortReason(options.signal!) });
      }

      child.on('error', (error) => {
        // Without a pid the process never started (ENOENT, EACCES, a missing cwd).
        if (pid === undefined) finish({ kind: 'spawn_failed', error: describeError(error) });
      });
      child.on('exit', (code, signal) => {
        exit = { code, signal };
        // Leftover members of the group (a daemonised grandchild) are stopped too.
        if (group.alive()) terminate();
        else later(options.killGraceMs, () => finish(endingNow()));
      });
      child.on('close', (code, signal) => {
        exit ??= { code, signal };
        group.afterPipesClosed(() => finish(endingNow()));
      });
      child.stdout?.on('data', (chunk) => {
        if (!stdout.push(chunk)) stop({ kind: 'output_limit', stream: 'stdout' });
      });
      child.stderr?.on('data', (chunk) => {
        if (!stderr.push(chunk)) stop({ kind: 'output_limit', stream: 'stderr' });
      });
      child.stdout?.on('error', () => undefined);
      child.stderr?.on('error', () => undefined);
      if (options.stdin !== undefined && child.stdin !== null) {
        // EPIPE when the process exits without reading its input is not a failure of ours.
        child.stdin.on('error', () => undefined);
        child.stdin.end(options.stdin);
      }
      options.signal?.addEventListener('abort', onAbort, { once: true });
      later(options.timeoutMs, () => stop({ kind: 'timed_out' }));
    });
  }
}


function describeError(error: unknown): { code?: string; message: string } {
  if (error instanceof Error) {
    const code = (error as NodeSystemErrorLike).code;
    return code === undefined ? { message: error.message } : { code, message: error.message };
  }
  return { message: String(error) };
}
