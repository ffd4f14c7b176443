// Starts the llama-server built by build.sh on a free loopback port, for the end-to-end tests.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Version pinned in build.sh. */
export const llamaServerVersion = '3.21.1';

/** Where build.sh put the server: $LLAMA_SERVER_DIR, else its cache directory. */
export function llamaServerDir() {
  if (process.env.LLAMA_SERVER_DIR) return process.env.LLAMA_SERVER_DIR;
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cache, 'agent-assistant-e2e', `llama-server-${llamaServerVersion}`);
}

/**
 * Starts `llama-server` with the random-weights model on 127.0.0.1 (port 0: the server picks a
 * free one and logs it) and resolves once it has loaded the model and listens. `logged(pattern)`
 * resolves when a log line matches (lines already seen count). `stop()` ends the process.
 */
export async function startLlamaServer({ startTimeoutMs = 120_000 } = {}) {
  const dir = llamaServerDir();
  const binary = join(dir, 'bin', 'llama-server');
  if (!existsSync(binary)) throw new Error(`no llama-server at ${binary}: run e2e/llama-server/build.sh (e2e/run.sh does)`);
  const args = ['-m', join(dir, 'model.gguf'), '--jinja', '-c', '4096', '-np', '1', '-t', '2', '--host', '127.0.0.1', '--port', '0', '--no-webui', '--seed', '7'];
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' } });
  const lines = [];
  const waiters = new Set();
  let pending = '';
  const onData = (chunk) => {
    pending += chunk.toString('utf8');
    const parts = pending.split('\n');
    pending = parts.pop();
    for (const line of parts) {
      lines.push(line);
      for (const waiter of [...waiters]) if (waiter.pattern.test(line)) waiter.resolve(line);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  /** Resolves with the first log line (seen or to come) matching `pattern`. */
  const logged = (pattern) => {
    const seen = lines.find((line) => pattern.test(line));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve) => {
      const waiter = {
        pattern,
        resolve: (line) => {
          waiters.delete(waiter);
          resolve(line);
        },
      };
      waiters.add(waiter);
    });
  };

  let timer;
  const listening = await Promise.race([
    logged(/listening on http:\/\/127\.0\.0\.1:\d+/),
    exited.then(({ code, signal }) => {
      throw new Error(`llama-server exited (${code ?? signal}) before listening:\n${lines.slice(-20).join('\n')}`);
    }),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`llama-server did not listen within ${startTimeoutMs} ms:\n${lines.slice(-20).join('\n')}`)), startTimeoutMs);
    }),
  ]).finally(() => clearTimeout(timer));
  const port = Number(/127\.0\.0\.1:(\d+)/.exec(listening)[1]);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    lines,
    logged,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      // llama-server finishes the task in its slot before it exits on SIGTERM; on a loaded machine
      // that can take minutes, so it gets 5 s and then SIGKILL.
      const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(kill);
    },
  };
}
