// Shared helpers of the fake CLIs: option parsing, stdin, the call log, session files.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const args = process.argv.slice(2);

/** `--name value` or `--name=value`. */
export function option(name) {
  const inline = args.find((arg) => arg.startsWith(`${name}=`));
  if (inline !== undefined) return inline.slice(name.length + 1);
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
}

export function readStdin() {
  return new Promise((resolve) => {
    const chunks = [];
    process.stdin.on('data', (chunk) => chunks.push(chunk));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

export function logCall(stdin) {
  if (process.env.FAKE_CLI_LOG) appendFileSync(process.env.FAKE_CLI_LOG, `${JSON.stringify({ argv: args, stdin, env: process.env })}\n`);
}

/** A JSON session file under $HOME/.<name>; `undefined` when asked to load one that is missing. */
export function sessionStore(name) {
  const dir = join(process.env.HOME ?? '.', `.${name}`);
  mkdirSync(dir, { recursive: true });
  return {
    load: (id) => (existsSync(join(dir, `${id}.json`)) ? JSON.parse(readFileSync(join(dir, `${id}.json`), 'utf8')) : undefined),
    save: (id, value) => writeFileSync(join(dir, `${id}.json`), JSON.stringify(value)),
  };
}

export const hang = () => globalThis.setInterval(() => undefined, 60_000);

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot), or '' without procfs. */
function startTime(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

/**
 * For a cancel test: starts a "tool" child (a Node process that ignores SIGTERM, like a shell
 * command that does), writes `<pid> <start time>` of this process and the child to $PID_FILE
 * (see `readPids` in test-helpers.ts), then calls `ready` and hangs.
 */
export async function hangWithToolChild(ready) {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, ['-e', "process.on('SIGTERM',()=>{});process.send('up');setInterval(()=>{},60000)"], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
  child.once('message', () => {
    if (process.env.PID_FILE) writeFileSync(process.env.PID_FILE, `${[process.pid, child.pid].map((pid) => `${pid} ${startTime(pid)}`.trim()).join('\n')}\n`);
    ready();
  });
  hang();
}
