// node scripts/bench/local-command-bench.mjs — overhead of a LocalCommand turn through
// createHarness over a raw spawn of the same process (a fixture printing JSON), measured in the
// same run with the two interleaved. Uses the built package (npm run build), or the build in
// $HARNESS_DIST. BENCH_LOCAL_TURNS sets the number of measured turns per variant (default 60).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const harnessPackage = await import(
  process.env.HARNESS_DIST ? pathToFileURL(join(process.env.HARNESS_DIST, 'index.js')).href : '@agent-assistant/harness'
);
const { createHarness, LocalCommandExecutionAdapter } = harnessPackage;

const TURNS = Number(process.env.BENCH_LOCAL_TURNS ?? 60);
const WARMUP = 5;
const fixture = fileURLToPath(new URL('../../packages/harness/src/local/__fixtures__/misbehave.mjs', import.meta.url));
const payload = JSON.stringify({ text: 'PONG from the fixture', usage: { in: 3, out: 4 } });
const args = [fixture, 'print', payload];

/** Spawns the fixture directly, collects stdout, parses it: the floor any adapter pays. */
function rawSpawn() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (code !== 0 || parsed.text === undefined) reject(new Error('raw spawn failed'));
      else resolve(parsed.text);
    });
  });
}

const adapter = new LocalCommandExecutionAdapter({
  backendId: 'bench-fixture',
  command: process.execPath,
  capabilities: {
    toolUse: 'none',
    structuredToolCalls: false,
    continuationSupport: 'none',
    approvalInterrupts: 'none',
    traceDepth: 'minimal',
    attachments: false,
  },
  buildArgs: () => args,
  parseOutput: (stdout) => {
    const parsed = JSON.parse(stdout);
    return { text: parsed.text, usage: { inputTokens: parsed.usage.in, outputTokens: parsed.usage.out } };
  },
});
const harness = createHarness({ backend: adapter });
const input = {
  assistantId: 'bench',
  turnId: 'turn-bench',
  message: { id: 'm', text: 'go', receivedAt: '2026-01-01T00:00:00.000Z' },
  instructions: { systemPrompt: 'bench' },
};
const request = { ...input };

const variants = [
  { label: 'raw spawn (child_process.spawn + collect + JSON.parse)', run: rawSpawn },
  {
    label: 'LocalCommandExecutionAdapter.execute',
    run: async () => {
      const result = await adapter.execute(request);
      if (result.status !== 'completed') throw new Error(`adapter: ${result.status} ${result.error?.message}`);
    },
  },
  {
    label: 'createHarness({ backend }).runTurn',
    run: async () => {
      const result = await harness.runTurn(input);
      if (result.outcome !== 'completed') throw new Error(`harness: ${result.outcome} ${result.metadata?.error?.message}`);
    },
  },
];

for (const variant of variants) for (let index = 0; index < WARMUP; index += 1) await variant.run();
const samples = variants.map(() => []);
for (let turn = 0; turn < TURNS; turn += 1) {
  // Interleaved, in rotating order, so machine noise hits every variant alike.
  for (let offset = 0; offset < variants.length; offset += 1) {
    const index = (turn + offset) % variants.length;
    const started = process.hrtime.bigint();
    await variants[index].run();
    samples[index].push(Number(process.hrtime.bigint() - started) / 1e6);
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 0 ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle];
};
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const rawMedian = median(samples[0]);
const rawMean = mean(samples[0]);

console.log(`\nLocalCommand overhead — ${TURNS} turns per variant, interleaved, Node ${process.version}, ${process.platform}/${process.arch}`);
console.log('| variant | median ms | mean ms | median overhead ms | ratio (median) | ratio (mean) |');
console.log('|---|---:|---:|---:|---:|---:|');
variants.forEach((variant, index) => {
  const med = median(samples[index]);
  const avg = mean(samples[index]);
  console.log(
    `| ${variant.label} | ${med.toFixed(2)} | ${avg.toFixed(2)} | ${(med - rawMedian).toFixed(2)} | ${(med / rawMedian).toFixed(3)} | ${(avg / rawMean).toFixed(3)} |`,
  );
});
