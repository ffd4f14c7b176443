// The runtimes of the cross-runtime suite: the pinned binaries of ./package.json (installed by
// ../run.sh), the vitest host's own Node 20, and how each runs a script or the built bins.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** A runtime with a file system and processes: `command` plus `args` runs an ES module file. */
export interface ScriptRuntime {
  name: string;
  command: string;
  /** Put before the script path. */
  args: readonly string[];
  env: Readonly<Record<string, string>>;
}

const offline = { DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1' };

/** Node 20 (this process), Node 22 and 24, Bun and Deno; workerd is driven through its server. */
export const SCRIPT_RUNTIMES: readonly ScriptRuntime[] = [
  { name: 'node20', command: process.execPath, args: [], env: {} },
  { name: 'node22', command: here('./node_modules/node22/bin/node'), args: [], env: {} },
  { name: 'node24', command: here('./node_modules/node24/bin/node'), args: [], env: {} },
  { name: 'bun', command: here('./node_modules/@oven/bun-linux-x64/bin/bun'), args: [], env: {} },
  // Deno's permissions are all granted: the suite tests the library, not Deno's sandbox.
  { name: 'deno', command: here('./node_modules/@deno/linux-x64-glibc/deno'), args: ['run', '--allow-all', '--no-lock'], env: offline },
];

/** The pinned binaries that are missing (run ../run.sh, which installs them). */
export function missingRuntimes(): string[] {
  return SCRIPT_RUNTIMES.filter((runtime) => !existsSync(runtime.command)).map((runtime) => runtime.command);
}

/** What a run printed, and its exit code. */
export interface RuntimeRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `script` with `runtime` (arguments after it), stdin closed; resolves once it exited. */
export function runScript(runtime: ScriptRuntime, script: string, args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<RuntimeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(runtime.command, [...runtime.args, script, ...args], {
      cwd: options.cwd,
      env: { ...(options.env ?? process.env), ...runtime.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs `runtime-tests/runtimes/main.mjs` with `request` and returns its JSON result. */
export async function runRequest(runtime: ScriptRuntime, requestFile: string): Promise<Record<string, unknown>> {
  const run = await runScript(runtime, here('./main.mjs'), [requestFile]);
  if (run.code !== 0) throw new Error(`${runtime.name} exited with ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}
