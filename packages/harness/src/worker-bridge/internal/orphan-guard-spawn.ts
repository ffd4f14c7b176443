import { spawn } from 'node:child_process';
import process from 'node:process';
import type { LocalSpawnFn } from '../../local/local-spawn.js';

/**
 * The guard, run as `node -e GUARD -- '["command", ...args]'` in the run's process group: it starts the
 * command (same group, same stdin/stdout/stderr), exits as the command does, and when its parent —
 * the worker — dies (its end of the pipe on fd 3 closes) it stops the whole group: SIGTERM, then
 * SIGKILL two seconds later. SIGTERM/SIGINT to the group reach the command directly; the guard
 * waits for the command's exit instead of dying first.
 */
const GUARD = `
const { spawn } = require('node:child_process');
// The last argument, whatever comes before it: Deno puts its eval module's path at argv[1].
const [command, ...args] = JSON.parse(process.argv[process.argv.length - 1]);
let done = false;
const ignore = () => {};
process.on('SIGTERM', ignore);
process.on('SIGINT', ignore);
const child = spawn(command, args, { stdio: 'inherit' });
child.on('error', (error) => {
  done = true;
  process.stderr.write('spawn ' + command + ' ' + (error.code || error.message) + '\\n');
  process.exit(error.code === 'ENOENT' ? 127 : 126);
});
child.on('exit', (code, signal) => {
  done = true;
  if (signal === null) process.exit(code === null ? 1 : code);
  // Die of the same signal (SIGUSR1 would start Node's inspector instead), else exit 128 + n.
  process.off('SIGTERM', ignore);
  process.off('SIGINT', ignore);
  if (signal !== 'SIGUSR1') process.kill(process.pid, signal);
  process.exit(128 + (require('node:os').constants.signals[signal] || 0));
});
// Under Bun a net.Socket on an inherited pipe never sees its end, so Bun reads it as a file; Node
// must not (process.exit waits for the pool thread blocked in that read), nor Deno.
const parent = typeof Bun === 'undefined'
  ? new (require('node:net').Socket)({ fd: 3, readable: true, writable: false }).unref()
  : require('node:fs').createReadStream('', { fd: 3 });
parent.on('data', ignore);
const orphaned = () => {
  if (done) return;
  try { process.kill(0, 'SIGTERM'); } catch {}
  setTimeout(() => { try { process.kill(0, 'SIGKILL'); } catch {} }, 2000).unref();
};
parent.on('end', orphaned);
parent.on('close', orphaned);
parent.on('error', orphaned);
`;

/**
 * A `spawnFn` that runs each CLI under a small guard process, so the CLI and everything it
 * started are stopped when the worker process dies without cleaning up (e.g. `kill -9`): the
 * guard notices the closed pipe to its parent and kills its process group. Costs one extra
 * Node.js process per run. `undefined` on Windows (no process groups): the default spawn applies.
 */
export function orphanGuardSpawn(): LocalSpawnFn | undefined {
  if (process.platform === 'win32') return undefined;
  return (command, args, options) => {
    const child = spawn(process.execPath, ['-e', GUARD, '--', JSON.stringify([command, ...args])], { ...options, stdio: [...options.stdio, 'pipe'] });
    // Our end of the guard's pipe: never written, closed with the process.
    const lifeline = child.stdio[3];
    const close = () => lifeline?.destroy();
    child.once('exit', close);
    child.once('error', close);
    return child;
  };
}
