// Starts the built `agent-assistant-worker` (or another script) as a child process and follows
// its output line by line, so tests wait on what it prints instead of sleeping.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built bin; the tests need `npm run build` first (`npm test` does it). */
export const WORKER_BIN = fileURLToPath(new URL('../../../dist/agent-assistant-worker.js', import.meta.url));

/** A running child with its output. */
export interface Child {
  process: ChildProcess;
  lines: string[];
  stderr(): string;
  /** Resolves with the first line (printed already or later) matching `pattern`. */
  waitForLine(pattern: RegExp): Promise<string>;
  /** Resolves with the exit code or signal once it exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node <script> ...args` with `env` and `cwd` (or with `runtime`: its `command`, its `args`, then the script). */
export function startChild(
  script: string,
  args: string[],
  options: { env: Record<string, string>; cwd: string; runtime?: { command: string; args: readonly string[] } },
): Child {
  if (!existsSync(script)) throw new Error(`${script} is missing: build the package first (npm run build --workspace=packages/harness).`);
  const runtime = options.runtime ?? { command: process.execPath, args: [] };
  const child = spawn(runtime.command, [...runtime.args, script, ...args], { env: options.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let partial = '';
  let stderr = '';
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    partial += chunk.toString('utf8');
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.pattern.test(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => {
      for (const waiter of waiters.splice(0)) waiter.resolve(`(exited before a line matched ${String(waiter.pattern)}; stderr: ${stderr})`);
      resolve({ code, signal });
    }),
  );
  return {
    process: child,
    lines,
    stderr: () => stderr,
    waitForLine(pattern) {
      const seen = lines.find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(`(already exited; stderr: ${stderr})`);
      return new Promise((resolve) => waiters.push({ pattern, resolve }));
    },
    exited,
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
