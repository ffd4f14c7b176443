import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const here = fileURLToPath(new URL('.', import.meta.url));
const distEntry = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

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

describe('the built main entry inside workerd (the Cloudflare Workers runtime)', () => {
  let child: ChildProcess | undefined;
  let url = '';
  let stderr = '';

  beforeAll(async () => {
    expect(existsSync(distEntry), 'build the package first (npm test does)').toBe(true);
    const directory = mkdtempSync(join(tmpdir(), 'harness-workerd-'));
    await build({
      entryPoints: [join(here, 'worker.mjs')],
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
  bindings = [(name = "CONTINUATION_SECRET", text = "workerd-secret-0123456789abcdef")],
);
`,
    );
    child = spawn(workerdBinary(), ['serve', join(directory, 'config.capnp')], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    url = `http://127.0.0.1:${port}/`;
    await waitForServer(url, child);
  }, 60_000);

  afterAll(() => {
    child?.kill('SIGKILL');
  });

  it('runs, pauses, signs, resumes and bounds turns', async () => {
    const response = await fetch(url);
    expect(response.status, stderr).toBe(200);
    expect(await response.json()).toEqual({
      weather: ['completed', 'Sunny in Oslo', 9],
      paused: ['awaiting_approval', 43],
      resumed: ['completed', 'Booked Maaemo'],
      refused: ['failed', 'continuation_invalid'],
      timedOut: ['deferred', 'timeout_reached'],
      perIsolateKey: [43, 'completed', 'Booked Kontrast'],
    });
  }, 30_000);

  it('runs an agent project turn from an in-memory VFS: a skill, a deny, an ask resumed by a new agent harness', async () => {
    const response = await fetch(`${url}project`);
    expect(response.status, stderr).toBe(200);
    expect(await response.json()).toEqual({
      offered: ['bash', 'skill'],
      paused: ['awaiting_approval', 'git push*'],
      resumed: ['completed', expect.stringMatching(/^NOTES-BODY\n[\s\S]*- template\.md \| permission_denied \| ran git push with token-value and undefined$/), 3],
      instructions: ['lead', 'AGENTS.md', 12],
      ran: ['git push'],
    });
  }, 30_000);
});
