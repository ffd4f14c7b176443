// node scripts/bench/acp-session-bench.mjs [gemini|opencode|qwen|copilot] — the real engine (e2e/node_modules,
// pinned) against the e2e fake model server: time to first text delta and whole-turn time of the
// ACP session backend (createGeminiAcpAdapter / createOpenCodeAcpAdapter: a cold first turn that
// starts the engine, then warm turns in the same live session) against the one-shot preset
// (GeminiCliExecutionAdapter / OpenCodeExecutionAdapter, one process per turn), interleaved in the
// same run. qwen and copilot (createQwenAcpAdapter / createCopilotAcpAdapter) have no one-shot
// preset here: their session rows only. Needs `cd e2e && npm ci` and the built package (or
// $HARNESS_DIST). BENCH_ACP_TURNS sets the warm turns (default 5).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cli, isolatedEnv, opencodeBinary, opencodeEnv, writeGeminiSettings } from '../../e2e/helpers.mjs';
import { startFakeModelServer } from '../../e2e/fake-model-server.mjs';

const harness = await import(
  process.env.HARNESS_DIST ? pathToFileURL(join(process.env.HARNESS_DIST, 'index.js')).href : '@agent-assistant/harness'
);
const engine = process.argv[2] ?? 'gemini';
const TURNS = Number(process.env.BENCH_ACP_TURNS ?? 5);
const server = await startFakeModelServer();
const home = mkdtempSync(join(tmpdir(), `bench-acp-${engine}-`));
for (const dir of ['work', 'tmp', '.config', '.local/share', '.cache', '.local/state']) mkdirSync(join(home, dir), { recursive: true });

let common;
let makeOneShot;
let session;
if (engine === 'gemini') {
  writeGeminiSettings(home);
  const env = isolatedEnv(home, { GEMINI_API_KEY: 'fake-gemini-key', GOOGLE_GEMINI_BASE_URL: server.url });
  common = { command: cli('gemini'), model: 'gemini-2.5-flash', cwd: join(home, 'work'), env, inheritEnv: [] };
  makeOneShot = () => new harness.GeminiCliExecutionAdapter(common);
  session = harness.createGeminiAcpAdapter(common);
} else if (engine === 'qwen' || engine === 'copilot') {
  const { XDG_CACHE_HOME: _private, ...env } = isolatedEnv(home);
  const provider = { baseUrl: `${server.url}/v1`, apiKey: 'sk-fake-bench', model: 'fake-model' };
  const options = { command: cli(engine), home, provider, cwd: join(home, 'work'), env, inheritEnv: [] };
  session =
    engine === 'qwen'
      ? harness.createQwenAcpAdapter({ ...options, env: { ...env, XDG_CACHE_HOME: join(home, '.cache') } })
      : harness.createCopilotAcpAdapter({ ...options, cacheDir: join(homedir(), '.cache', 'agent-assistant-e2e') });
} else {
  const env = opencodeEnv(home, server.url);
  common = { command: opencodeBinary, cwd: join(home, 'work'), env, inheritEnv: [] };
  makeOneShot = () => new harness.OpenCodeExecutionAdapter(common);
  session = harness.createOpenCodeAcpAdapter(common);
}

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
  if (makeOneShot !== undefined) rows.oneShot.push(await timed(makeOneShot(), `one-${index}`));
  rows.warm.push(await timed(session, `warm-${index}`, { sessionId: 'bench' }));
}
await session.dispose();
await server.close();
rmSync(home, { recursive: true, force: true });

const ms = (value) => (value === undefined ? 'n/a' : `${Math.round(value)} ms`);
console.log(`${engine}: ${TURNS} warm turns, medians`);
console.log(`  ACP session, cold first turn: first delta ${ms(cold.first)}, turn ${ms(cold.total)}`);
console.log(`  ACP session, warm turns:      first delta ${ms(median(rows.warm.map((row) => row.first).filter((v) => v !== undefined)))}, turn ${ms(median(rows.warm.map((row) => row.total)))}`);
if (makeOneShot !== undefined) console.log(`  one-shot preset:              first delta ${ms(median(rows.oneShot.map((row) => row.first).filter((v) => v !== undefined)))}, turn ${ms(median(rows.oneShot.map((row) => row.total)))}`);
