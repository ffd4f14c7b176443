// node scripts/bench/engine-session-bench.mjs omp|claude-agent-sdk — a session engine of issue 27
// (omp over its RPC on bun, or Claude in-process through the Agent SDK; e2e/node_modules, pinned)
// against the e2e fake model server: time to the first text delta and whole-turn time of a cold
// first turn (starts the engine) and of warm turns in the same live session. Needs `cd e2e && npm ci`
// and the built package (npm run build), or the build in $HARNESS_DIST. BENCH_SESSION_TURNS sets the
// warm turns (default 5).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startFakeModelServer } from '../../e2e/fake-model-server.mjs';

const harness = await import(
  process.env.HARNESS_DIST ? pathToFileURL(join(process.env.HARNESS_DIST, 'index.js')).href : '@agent-assistant/harness'
);
const engine = process.argv[2];
const TURNS = Number(process.env.BENCH_SESSION_TURNS ?? 5);
const bin = fileURLToPath(new URL('../../e2e/node_modules/.bin', import.meta.url));
const server = await startFakeModelServer();
const home = mkdtempSync(join(tmpdir(), `bench-${engine}-session-`));
mkdirSync(join(home, 'work'));
const env = { PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: home, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'sk-fake', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' };
const common = { cwd: join(home, 'work'), env, inheritEnv: [] };
const adapters = {
  omp: () => harness.createOmpRpcAdapter({ ...common, command: join(bin, 'omp'), home, provider: { baseUrl: `${server.url}/v1`, model: 'fake-model', apiKey: 'sk-fake' } }),
  // The SDK from e2e/node_modules, handed over: the built package cannot import it by name from here.
  'claude-agent-sdk': async () =>
    harness.createClaudeAgentSdkAdapter({ ...common, sdk: await import(pathToFileURL(join(bin, '..', '@anthropic-ai', 'claude-agent-sdk', 'sdk.mjs')).href) }),
};
if (!(engine in adapters)) throw new Error('usage: engine-session-bench.mjs omp|claude-agent-sdk');
const session = await adapters[engine]();
const request = (turnId) => ({
  assistantId: 'bench',
  turnId,
  sessionId: 'bench',
  message: { id: turnId, text: 'say hi', receivedAt: new Date().toISOString() },
  instructions: { systemPrompt: 'Answer briefly.' },
});
let continuation;
async function turn(turnId) {
  const started = performance.now();
  let first;
  const result = await session.execute(
    { ...request(turnId), ...(continuation === undefined ? {} : { continuation }) },
    { onEvent: (event) => event.type === 'text_delta' && (first ??= performance.now() - started) },
  );
  if (result.status !== 'completed') throw new Error(`turn ${result.status}: ${result.error?.message}`);
  continuation = result.continuation;
  return { first, total: performance.now() - started };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const cold = await turn('cold');
const warm = [];
for (let index = 0; index < TURNS; index += 1) warm.push(await turn(`warm-${index}`));
await session.dispose();
server.close();
rmSync(home, { recursive: true, force: true });
const ms = (value) => `${Math.round(value)} ms`;
console.log(`${engine}: cold first turn ${ms(cold.first)} / ${ms(cold.total)}; warm turn (median of ${TURNS}) ${ms(median(warm.map((row) => row.first)))} / ${ms(median(warm.map((row) => row.total)))}`);
