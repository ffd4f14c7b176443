// node scripts/bench/postgres-bench.mjs — resume-guard claims on Postgres (a throwaway Postgres
// cluster through a `pg` Pool of 20 connections; the server binaries as the tests find them) and
// on PGlite (in memory, in this process). Per store: one claim at a time (latency p50/p99 over
// BENCH_CLAIMS claims) and BENCH_CLAIMS claims with 64 in flight (throughput). Each claim is for a
// different continuation (a real sealed one with a fresh resumeToken), so every one is a win:
// the INSERT path. Uses the built package (npm run build).
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { createHarness, createPostgresResumeGuard } from '@agent-assistant/harness';
import { createFakeToolRegistry, createScriptedModel } from '@agent-assistant/harness/testing';
import { startPostgres } from '../../packages/harness/src/__fixtures__/postgres-server.mjs';

const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 10_000);
const IN_FLIGHT = 64;

const paused = await createHarness({
  model: createScriptedModel([{ type: 'tool_request', calls: [{ id: 'c1', name: 'act', input: {} }] }]),
  tools: createFakeToolRegistry({ act: { requiresApproval: true, execute: () => 'ok' } }),
  continuationSecret: 'bench-secret-0123456789abcdef-0123',
}).runTurn({
  assistantId: 'bench',
  turnId: 'turn-bench',
  message: { id: 'm', text: 'go', receivedAt: '2026-01-01T00:00:00.000Z' },
  instructions: { systemPrompt: 'bench' },
});
let serial = 0;
const fresh = () => ({ ...paused.continuation, resumeToken: `bench-${String((serial += 1))}` });
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

async function measure(label, guard) {
  await guard.ensureSchema();
  for (let index = 0; index < 200; index += 1) await guard.claim(fresh()); // warm up
  const latencies = [];
  for (let index = 0; index < CLAIMS; index += 1) {
    const started = process.hrtime.bigint();
    if ((await guard.claim(fresh())) !== true) throw new Error('a fresh claim was refused');
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  const started = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < CLAIMS) {
        next += 1;
        if ((await guard.claim(fresh())) !== true) throw new Error('a fresh claim was refused');
      }
    }),
  );
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  return { label, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), perSecond: (CLAIMS / elapsedMs) * 1000 };
}

const rows = [];
const server = await startPostgres();
const pool = new pg.Pool({ connectionString: server.connectionString, max: 20 });
try {
  rows.push(await measure('Postgres 15, `pg` Pool (20 connections), loopback', createPostgresResumeGuard({ query: pool })));
} finally {
  await pool.end();
  await server.destroy();
}
const lite = await PGlite.create();
try {
  rows.push(await measure('PGlite 0.5 (in memory, same process)', createPostgresResumeGuard({ query: lite })));
} finally {
  await lite.close();
}

console.log(`\nResume-guard claims — ${CLAIMS} claims per figure, Node ${process.version}`);
console.log(`| store | claim latency p50 (one at a time) | p99 | throughput (${IN_FLIGHT} in flight) |`);
console.log('|---|---:|---:|---:|');
for (const row of rows) console.log(`| ${row.label} | ${row.p50.toFixed(2)} ms | ${row.p99.toFixed(2)} ms | ${Math.round(row.perSecond)} claims/s |`);
