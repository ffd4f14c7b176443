// node scripts/bench/resume-guard-bench.mjs — claim latency and throughput of the resume guards:
// memory, file, Redis (Debian's redis-server started here on a free loopback port: without
// persistence, and with appendfsync always; node-redis and ioredis) and Postgres (a throwaway
// Postgres cluster, the tests' fixture, with fsync off and on, through a `pg` Pool of 20; PGlite in
// memory). BENCH_SKIP=redis,postgres,pglite leaves stores out. Per guard: the latency of one
// claim alone (p50/p99 of BENCH_CLAIM_SAMPLES sequential claims) and BENCH_CLAIMS claims with 64 in
// flight, each for a different continuation. Baseline in the same run: resumeClaimKey alone (the
// SHA-256 every built-in guard computes). Uses the built package (npm run build).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createFileResumeGuard, createMemoryResumeGuard, createPostgresResumeGuard, createRedisResumeGuard, resumeClaimKey } from '@agent-assistant/harness';
import { PGlite } from '@electric-sql/pglite';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createClient } from 'redis';
import { startPostgres } from '../../packages/harness/src/__fixtures__/postgres-server.mjs';

const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 10_000);
const SAMPLES = Number(process.env.BENCH_CLAIM_SAMPLES ?? 2_000);
const CONCURRENCY = 64;
const SKIP = new Set((process.env.BENCH_SKIP ?? '').split(',').filter(Boolean));

let serial = 0;
const continuation = () => {
  serial += 1;
  return { id: `bench-${serial}`, turnId: 'turn-bench', resumeToken: `${serial}-${Math.random()}`, expiresAt: new Date(Date.now() + 3_600_000).toISOString() };
};

function percentile(sorted, fraction) {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

async function measure(claim) {
  for (let index = 0; index < 2_000; index += 1) await claim(continuation()); // warm up
  const latencies = [];
  for (let index = 0; index < SAMPLES; index += 1) {
    const started = performance.now();
    await claim(continuation());
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  const batch = Array.from({ length: CLAIMS }, continuation);
  let next = 0;
  let refused = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < batch.length) if ((await claim(batch[next++])) === false) refused += 1;
    }),
  );
  const elapsedMs = performance.now() - started;
  if (refused !== 0) throw new Error(`${refused} fresh claims were refused`);
  return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), elapsedMs, perSecond: (CLAIMS / elapsedMs) * 1000 };
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startRedis(extra) {
  const directory = await mkdtemp(join(tmpdir(), 'redis-bench-'));
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', directory, ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    child.once('error', (error) => reject(new Error(`redis-server could not start (apt-get install -y redis-server): ${error.message}`)));
    child.once('exit', (code) => reject(new Error(`redis-server exited ${code}`)));
    createInterface({ input: child.stdout }).on('line', (line) => line.includes('Ready to accept connections') && resolve());
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      await rm(directory, { recursive: true, force: true });
    },
  };
}

const rows = [];
async function bench(label, claim, close = async () => undefined) {
  try {
    rows.push({ label, ...(await measure(claim)) });
  } finally {
    await close();
  }
}

await bench('`resumeClaimKey` alone (baseline: the SHA-256 every guard computes)', async (c) => (await resumeClaimKey(c)).length > 0);
const memory = createMemoryResumeGuard();
await bench('`createMemoryResumeGuard()`', (c) => memory.claim(c));
const directory = await mkdtemp(join(tmpdir(), 'claims-bench-'));
const file = createFileResumeGuard({ directory });
await bench('`createFileResumeGuard()` (a directory in os.tmpdir())', (c) => file.claim(c), () => rm(directory, { recursive: true, force: true }));

for (const [persistence, extra] of SKIP.has('redis') ? [] : [
  ['no persistence', ['--appendonly', 'no']],
  ['AOF, appendfsync always', ['--appendonly', 'yes', '--appendfsync', 'always']],
]) {
  const redis = await startRedis(extra);
  try {
    const nodeRedis = await createClient({ url: redis.url }).connect();
    const viaNodeRedis = createRedisResumeGuard({ client: nodeRedis });
    await bench(`\`createRedisResumeGuard\`, node-redis 6.3.1, ${persistence}`, (c) => viaNodeRedis.claim(c), async () => void nodeRedis.destroy());
    const ioredis = new Redis(redis.url);
    const viaIoredis = createRedisResumeGuard({ client: ioredis });
    await bench(`\`createRedisResumeGuard\`, ioredis 5.9.3, ${persistence}`, (c) => viaIoredis.claim(c), async () => void ioredis.disconnect());
  } finally {
    await redis.close();
  }
}

for (const fsync of SKIP.has('postgres') ? [] : [false, true]) {
  const server = await startPostgres({ fsync });
  const pool = new pg.Pool({ connectionString: server.connectionString, max: 20 });
  try {
    const viaPool = createPostgresResumeGuard({ query: pool });
    await viaPool.ensureSchema();
    await bench(`\`createPostgresResumeGuard\`, Postgres 15, \`pg\` 8.23.1 Pool of 20, fsync ${fsync ? 'on' : 'off'}`, (c) => viaPool.claim(c));
  } finally {
    await pool.end();
    await server.destroy();
  }
}
if (!SKIP.has('pglite')) {
  const lite = await PGlite.create();
  const viaLite = createPostgresResumeGuard({ query: lite });
  await viaLite.ensureSchema();
  await bench('`createPostgresResumeGuard`, PGlite 0.5.17 in memory (same process)', (c) => viaLite.claim(c), () => lite.close());
}

console.log(`\nResume guard claims — ${SAMPLES} claims alone for latency, ${CLAIMS} claims with ${CONCURRENCY} in flight for throughput, Node ${process.version}`);
console.log('| guard | claim p50 ms | claim p99 ms | claims / s (64 in flight) |');
console.log('|---|---:|---:|---:|');
for (const row of rows) console.log(`| ${row.label} | ${row.p50.toFixed(3)} | ${row.p99.toFixed(3)} | ${Math.round(row.perSecond).toLocaleString('en-US')} |`);
