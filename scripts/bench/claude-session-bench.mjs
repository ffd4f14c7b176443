// node scripts/bench/claude-session-bench.mjs — the real `claude` (e2e/node_modules, pinned) against
// the e2e fake model server: time to first text delta and whole-turn time of the live session
// backend (ClaudeCodeSessionAdapter: a cold first turn that starts the process, then warm turns in
// the same process) against the one-shot preset (ClaudeCodeExecutionAdapter with onTextDelta, one
// process per turn), interleaved in the same run. Needs `cd e2e && npm ci` and the built package
// (npm run build), or the build in $HARNESS_DIST. BENCH_CLAUDE_TURNS sets the warm turns (default 8).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startFakeModelServer } from '../../e2e/fake-model-server.mjs';

const harness = await import(
  process.env.HARNESS_DIST ? pathToFileURL(join(process.env.HARNESS_DIST, 'index.js')).href : '@agent-assistant/harness'
);
const TURNS = Number(process.env.BENCH_CLAUDE_TURNS ?? 8);
const claude = fileURLToPath(new URL('../../e2e/node_modules/.bin/claude', import.meta.url));
const server = await startFakeModelServer();
const home = mkdtempSync(join(tmpdir(), 'bench-claude-session-'));
mkdirSync(join(home, 'work'));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'sk-fake', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' };
const common = { command: claude, cwd: join(home, 'work'), env, inheritEnv: [] };
const request = (turnId) => ({
  assistantId: 'bench',
  turnId,
  message: { id: turnId, text: 'say hi', receivedAt: new Date().toISOString() },
  instructions: { systemPrompt: 'Answer briefly.' },
});

async function oneShot(turnId) {
  const started = performance.now();
  let first;
  const adapter = new harness.ClaudeCodeExecutionAdapter({ ...common, onTextDelta: () => (first ??= performance.now() - started) });
  const result = await adapter.execute(request(turnId));
  if (result.status !== 'completed') throw new Error(`one-shot turn ${result.status}`);
  return { first, total: performance.now() - started };
}

const session = harness.createClaudeCodeSessionAdapter(common);
let continuation;
async function sessionTurn(turnId) {
  const started = performance.now();
  let first;
  const result = await session.execute(
    { ...request(turnId), ...(continuation === undefined ? {} : { continuation }) },
    { onEvent: (event) => event.type === 'text_delta' && (first ??= performance.now() - started) },
  );
  if (result.status !== 'completed') throw new Error(`session turn ${result.status}`);
  continuation = result.continuation;
  return { first, total: performance.now() - started };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const cold = await sessionTurn('cold');
const rows = { oneShot: [], warm: [] };
for (let index = 0; index < TURNS; index += 1) {
  rows.oneShot.push(await oneShot(`one-${index}`));
  rows.warm.push(await sessionTurn(`warm-${index}`));
}
await session.dispose();
await server.close();
rmSync(home, { recursive: true, force: true });
const show = (label, list) =>
  console.log(`${label.padEnd(28)} first delta ${median(list.map((row) => row.first)).toFixed(0).padStart(5)} ms   turn ${median(list.map((row) => row.total)).toFixed(0).padStart(5)} ms`);
console.log(`claude ${TURNS} turns per variant (medians), fake model on loopback`);
show('one-shot preset (spawn/turn)', rows.oneShot);
show('session, cold first turn', [cold]);
show('session, warm turn', rows.warm);
