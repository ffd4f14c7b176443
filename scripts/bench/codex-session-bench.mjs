// node scripts/bench/codex-session-bench.mjs — the real `codex` (e2e/node_modules, pinned) against
// the e2e fake model server (OpenAI Responses): time to first text delta and whole-turn time of the
// app-server session backend (createCodexAppServerAdapter: a cold first turn that starts
// `codex app-server`, then warm turns on the same live thread) against the one-shot preset
// (createCodexAdapter, `codex exec --json`, one process per turn), interleaved in the same run.
// Needs `cd e2e && npm ci` and the built package (npm run build), or the build in $HARNESS_DIST.
// BENCH_CODEX_TURNS sets the warm turns (default 8).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cli, isolatedEnv } from '../../e2e/helpers.mjs';
import { startFakeModelServer } from '../../e2e/fake-model-server.mjs';

const harness = await import(
  process.env.HARNESS_DIST ? pathToFileURL(join(process.env.HARNESS_DIST, 'index.js')).href : '@agent-assistant/harness'
);
const TURNS = Number(process.env.BENCH_CODEX_TURNS ?? 8);
const server = await startFakeModelServer();
const home = mkdtempSync(join(tmpdir(), 'bench-codex-session-'));
for (const dir of ['work', 'tmp', '.codex', '.config', '.local/share', '.cache', '.local/state']) mkdirSync(join(home, dir), { recursive: true });
const env = isolatedEnv(home, { CODEX_HOME: join(home, '.codex'), FAKE_API_KEY: 'sk-fake' });
const common = {
  command: cli('codex'),
  model: 'gpt-5.5',
  config: {
    model_provider: 'fake',
    'model_providers.fake.name': 'fake',
    'model_providers.fake.base_url': `${server.url}/v1`,
    'model_providers.fake.env_key': 'FAKE_API_KEY',
    'model_providers.fake.wire_api': 'responses',
    check_for_update_on_startup: false,
    'features.plugins': false,
    'analytics.enabled': false,
  },
  cwd: join(home, 'work'),
  env,
  inheritEnv: [],
};
const session = harness.createCodexAppServerAdapter({ ...common, sandbox: 'danger-full-access' });

const request = (turnId, extra = {}) => ({
  assistantId: 'bench',
  turnId,
  message: { id: turnId, text: 'say hi', receivedAt: new Date().toISOString() },
  instructions: { systemPrompt: 'Answer briefly.' },
  ...extra,
});

async function timed(adapter, turnId, extra) {
  const started = performance.now();
  let first;
  const result = await adapter.execute(request(turnId, extra), { onEvent: (event) => event.type === 'text_delta' && (first ??= performance.now() - started) });
  if (result.status !== 'completed') throw new Error(`${turnId}: ${result.status} ${result.error?.message ?? ''}`);
  return { first, total: performance.now() - started };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const cold = await timed(session, 'cold', { sessionId: 'bench' });
const rows = { oneShot: [], warm: [] };
for (let index = 0; index < TURNS; index += 1) {
  rows.oneShot.push(await timed(harness.createCodexAdapter(common), `one-${index}`));
  rows.warm.push(await timed(session, `warm-${index}`, { sessionId: 'bench' }));
}
await session.dispose();
await server.close();
rmSync(home, { recursive: true, force: true });

const ms = (value) => (value === undefined ? 'n/a' : `${Math.round(value)} ms`);
const firsts = (list) => list.map((row) => row.first).filter((value) => value !== undefined);
console.log(`codex ${TURNS} turns per variant (medians), fake model on loopback`);
console.log(`  one-shot preset (codex exec):   first delta ${ms(median(firsts(rows.oneShot)))}, turn ${ms(median(rows.oneShot.map((row) => row.total)))}`);
console.log(`  app-server, cold first turn:    first delta ${ms(cold.first)}, turn ${ms(cold.total)}`);
console.log(`  app-server, warm turns:         first delta ${ms(median(firsts(rows.warm)))}, turn ${ms(median(rows.warm.map((row) => row.total)))}`);
