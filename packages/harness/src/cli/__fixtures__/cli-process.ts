// Runs the `agent-assistant` program for tests: the built bin as a process (pipes, a given stdin
// file descriptor, or a pseudo-terminal through util-linux `script`), or `runCliMain` in this
// process with captured output.
import { spawn, spawnSync, type StdioOptions } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCliMain } from '../cli-main.js';

/** The built bin (`npm run build`). */
export const binPath = fileURLToPath(new URL('../../../dist/agent-assistant.js', import.meta.url));

/** What a run printed, and its exit code. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a run: no API keys, agent-assistant settings or config directory
 * (`XDG_CONFIG_HOME`, `APPDATA`: the continuation key file) of the developer's, a private HOME and
 * state directory.
 */
export function cliEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && !/_API_KEY$|^AGENT_ASSISTANT_|^XDG_CONFIG_HOME$|^APPDATA$/.test(entry[0]),
    ),
  );
  return { ...env, HOME: home, AGENT_ASSISTANT_STATE_DIR: join(home, 'state'), ...extra };
}

/** Options of {@link runBin}. */
export interface RunBinOptions {
  cwd: string;
  env: Record<string, string>;
  /** Written to stdin (a pipe), which is then closed. */
  input?: string;
  /** A file descriptor to give the process as stdin instead of a pipe. */
  stdinFd?: number;
  onSpawn?: (pid: number) => void;
}

/** Runs the built bin with `node`; resolves when it has exited and its output is read. */
export function runBin(args: readonly string[], options: RunBinOptions): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const stdio: StdioOptions = [options.stdinFd ?? 'pipe', 'pipe', 'pipe'];
    const child = spawn(process.execPath, [binPath, ...args], { cwd: options.cwd, env: options.env, stdio });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin?.on('error', () => undefined).end(options.input ?? '');
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
  });
}

/** Whether util-linux `script` is there to give the bin a pseudo-terminal. */
export const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

/** Runs the bin in a pseudo-terminal (util-linux `script`); resolves with what the terminal showed, stdout and stderr together. */
export function runOnTerminal(args: readonly string[], options: { cwd: string; env: Record<string, string> }): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, binPath, ...args].map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: options.cwd, env: { ...options.env, TERM: 'xterm' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, screen: stdout.replace(/\r/g, '') }));
    child.stdin.end();
  });
}

/** Options of {@link runCliInProcess}. */
export interface InProcessOptions {
  cwd: string;
  env: Record<string, string>;
  /** Standard input (not a terminal); without it, stdin is a terminal. */
  input?: string;
  /** Standard output and error are terminals. */
  terminal?: boolean;
}

/** Runs `runCliMain` in this process, capturing what it writes. */
export async function runCliInProcess(argv: readonly string[], options: InProcessOptions): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const input = options.input;
  const code = await runCliMain({
    argv,
    env: options.env,
    cwd: options.cwd,
    version: '0.0.0-test',
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    stdoutIsTty: options.terminal === true,
    stderrIsTty: options.terminal === true,
    stdinIsTty: input === undefined,
    readStdin: (maxBytes) => Promise.resolve(Buffer.from(input ?? '', 'utf8').subarray(0, maxBytes + 1)),
    onInterrupt: () => () => undefined,
  });
  return { code, stdout, stderr };
}
