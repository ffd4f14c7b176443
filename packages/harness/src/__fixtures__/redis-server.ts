// A real Debian redis-server for tests: a free loopback port, no persistence (--save '' --appendonly no),
// stoppable and restartable on the same port (the store-down checks), closed after. Fails loudly when
// redis-server is missing or does not start: .ci/run installs it (scripts/ci/install-redis.sh).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** A running redis-server the test owns. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Kills the server (SIGKILL: a crash, nothing saved) and resolves once it is gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port, with no data; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it for good and removes its folder. */
  close(): Promise<void>;
}

const INSTALL_HINT = 'install it with `apt-get install -y redis-server` (.ci/run does, through scripts/ci/install-redis.sh)';

/** A loopback port nobody listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts redis-server; resolves once it logs that it accepts connections. */
function launch(port: number, directory: string): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', directory, '--daemonize', 'no', '--loglevel', 'notice'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  return new Promise((resolve, reject) => {
    child.once('error', (error) => {
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      reject(new Error(missing ? `redis-server is not installed: ${INSTALL_HINT}` : `redis-server could not start: ${error.message}`));
    });
    child.once('exit', (code, signal) => reject(new Error(`redis-server exited (${signal ?? String(code)}) before it was ready:\n${output}`)));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output += `${line}\n`;
      if (line.includes('Ready to accept connections')) resolve(child);
    });
  });
}

/** Starts a throwaway redis-server on a free loopback port. */
export async function startRedisServer(): Promise<RedisServer> {
  const directory = await mkdtemp(join(tmpdir(), 'redis-test-'));
  const port = await freePort();
  let child: ChildProcess | undefined = await launch(port, directory);
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGKILL');
    await exited;
  };
  return {
    url: `redis://127.0.0.1:${String(port)}`,
    port,
    stop,
    start: async () => {
      if (child !== undefined) return;
      child = await launch(port, directory);
    },
    close: async () => {
      await stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
