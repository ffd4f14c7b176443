import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

function workerdBinary(): string {
  const require = createRequire(import.meta.url);
  return join(require.resolve('@cloudflare/workerd-linux-64/package.json'), '..', 'bin', 'workerd');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** Polls until workerd answers; workerd has no ready signal on stdout. */
async function waitForServer(url: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`workerd exited with ${child.exitCode}`);
    try {
      await fetch(url, { method: 'HEAD' });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error('workerd did not start');
}

/** A running workerd serving one Worker. */
export interface RunningWorkerd {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** What workerd printed on stderr so far. */
  stderr(): string;
  stop(): void;
}

/**
 * Bundles `entry` (importing the built package, like a user's Worker would) with esbuild for
 * Workers and serves it with workerd on a loopback port. `workerConfig` is the rest of the
 * `Workerd.Worker` definition after `modules` (bindings, Durable Object namespaces…).
 */
export async function startWorkerd(entry: string, workerConfig: string): Promise<RunningWorkerd> {
  const directory = mkdtempSync(join(tmpdir(), 'harness-workerd-'));
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['worker', 'workerd', 'browser'],
    // Node-only adapters load node: modules lazily; they must never be reached in a Worker.
    external: ['node:*'],
    outfile: join(directory, 'worker.js'),
    logLevel: 'silent',
  });
  const port = await freePort();
  writeFileSync(
    join(directory, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "2025-09-01",
  ${workerConfig}
);
`,
  );
  const child = spawn(workerdBinary(), ['serve', join(directory, 'config.capnp')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}/`;
  try {
    await waitForServer(url, child);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${stderr}`, { cause: error });
  }
  return { url, stderr: () => stderr, stop: () => child.kill('SIGKILL') };
}
