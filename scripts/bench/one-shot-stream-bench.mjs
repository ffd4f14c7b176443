// node scripts/bench/one-shot-stream-bench.mjs — the real one-shot CLIs (e2e/node_modules, pinned)
// against the e2e fake model server, under createHarness().streamTurn: time to the first live
// event, to the first text delta and to the result, per CLI (medians of BENCH_STREAM_RUNS runs,
// default 3). The turn asks for one shell command (FAKE_SHELL), so tool activity precedes the
// answer. Needs `cd e2e && npm ci` and the built package (npm run build), or $HARNESS_DIST.
// BENCH_ENGINES=pi,copilot runs only those.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startFakeModelServer } from '../../e2e/fake-model-server.mjs';

const harness = await import(
  process.env.HARNESS_DIST ? pathToFileURL(join(process.env.HARNESS_DIST, 'index.js')).href : '@agent-assistant/harness'
);
const RUNS = Number(process.env.BENCH_STREAM_RUNS ?? 3);
const bin = (name) => fileURLToPath(new URL(`../../e2e/node_modules/.bin/${name}`, import.meta.url));
const server = await startFakeModelServer();
const home = mkdtempSync(join(tmpdir(), 'bench-one-shot-stream-'));
mkdirSync(join(home, 'work'));
mkdirSync(join(home, '.codex'));
mkdirSync(join(home, '.gemini'));
writeFileSync(
  join(home, '.gemini', 'settings.json'),
  JSON.stringify({
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
  }),
);
const base = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home };
const common = (env) => ({ cwd: join(home, 'work'), env: { ...base, ...env }, inheritEnv: [] });
const backends = {
  claude: () =>
    harness.createClaudeCodeAdapter({
      command: bin('claude'),
      allowedTools: ['Bash'],
      ...common({ ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'sk-fake', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' }),
    }),
  gemini: () =>
    harness.createGeminiCliAdapter({
      command: bin('gemini'),
      model: 'gemini-2.5-flash',
      approvalMode: 'yolo',
      ...common({ GEMINI_API_KEY: 'fake', GOOGLE_GEMINI_BASE_URL: server.url }),
    }),
  codex: () =>
    harness.createCodexAdapter({
      command: bin('codex'),
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
      ...common({ CODEX_HOME: join(home, '.codex'), FAKE_API_KEY: 'sk-fake' }),
    }),
  pi: () =>
    harness.createPiAdapter({
      command: bin('pi'),
      tools: ['read', 'bash'],
      provider: { name: 'fake', baseUrl: `${server.url}/v1`, apiKeyEnv: 'FAKE_API_KEY' },
      model: 'fake-model',
      ...common({ FAKE_API_KEY: 'sk-fake' }),
      env: { PATH: base.PATH, FAKE_API_KEY: 'sk-fake' }, // the adapter's own private HOME
    }),
  copilot: () =>
    harness.createCopilotAdapter({
      command: bin('copilot'),
      provider: { baseUrl: `${server.url}/v1` },
      model: 'fake-model',
      // The 235 MB package cache the e2e tests share, unpacked once.
      cacheDir: join(homedir(), '.cache', 'agent-assistant-e2e', 'copilot-xdg'),
      ...common({}),
      env: { PATH: base.PATH, COPILOT_PROVIDER_API_KEY: 'sk-fake' },
    }),
};
const only = process.env.BENCH_ENGINES?.split(',');
const input = (turnId) => ({
  assistantId: 'bench',
  turnId,
  message: { id: turnId, text: 'FAKE_SHELL[echo BENCH]', receivedAt: new Date().toISOString() },
  instructions: { systemPrompt: 'Answer briefly.' },
});

async function run(name, index) {
  const started = performance.now();
  let firstEvent;
  let firstDelta;
  const backend = backends[name]();
  const stream = harness.createHarness({ backend, limits: { maxElapsedMs: 120_000 } }).streamTurn(input(`${name}-${index}`));
  for await (const event of stream) {
    if (['tool_activity', 'plan_update', 'approval_requested', 'text_delta'].includes(event.type)) firstEvent ??= performance.now() - started;
    if (event.type === 'text_delta') firstDelta ??= performance.now() - started;
  }
  const result = await stream.result;
  await backend.dispose?.(); // pi and copilot: their private HOME
  if (result.outcome !== 'completed') throw new Error(`${name}: ${result.outcome} ${JSON.stringify(result.metadata?.error)}`);
  return { firstEvent, firstDelta, total: performance.now() - started };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`one-shot presets under streamTurn, ${RUNS} runs each (medians), fake model on loopback, one shell call per turn`);
for (const name of Object.keys(backends).filter((key) => only === undefined || only.includes(key))) {
  const rows = [];
  for (let index = 0; index < RUNS; index += 1) rows.push(await run(name, index));
  const show = (key) => `${median(rows.map((row) => row[key])).toFixed(0).padStart(5)} ms`;
  console.log(`${name.padEnd(7)} first live event ${show('firstEvent')}   first delta ${show('firstDelta')}   result ${show('total')}`);
}
await server.close();
rmSync(home, { recursive: true, force: true });
