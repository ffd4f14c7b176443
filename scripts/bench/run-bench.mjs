// npm run bench — harness overhead vs a bare loop (same run), continuation size, cold import time,
// reduction of an 8 MiB test log, one long line streamed from a local CLI.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createDirectoryOutputStore, createHarness, LocalCommandExecutionAdapter, reduceOutput } from '@agent-assistant/harness';
import { makeTestLog } from '../../packages/harness/src/context/output/__fixtures__/test-log.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const TURNS = Number(process.env.BENCH_TURNS ?? 20_000);
const STEPS = 3;

const call = (id) => ({ id, name: 'noop', input: { n: 1 } });
const outputs = [
  { type: 'tool_request', calls: [call('c1')] },
  { type: 'tool_request', calls: [call('c2')] },
  { type: 'final_answer', text: 'done' },
];
const model = { nextStep: async (input) => outputs[input.iteration - 1] };
const tools = {
  listAvailable: () => [{ name: 'noop', description: 'does nothing' }],
  execute: async (toolCall) => ({ callId: toolCall.id, toolName: toolCall.name, status: 'success', output: 'ok' }),
};
const input = {
  assistantId: 'bench',
  turnId: 'turn-bench',
  message: { id: 'm', text: 'go', receivedAt: '2026-01-01T00:00:00.000Z' },
  instructions: { systemPrompt: 'bench' },
};

async function bareTurn() {
  const signal = new AbortController().signal;
  const transcript = [];
  for (let iteration = 1; iteration <= STEPS; iteration += 1) {
    const output = await model.nextStep({ ...input, transcript, iteration, signal });
    if (output.type !== 'tool_request') return output;
    for (const toolCall of output.calls) transcript.push(await tools.execute(toolCall, { signal }));
  }
  throw new Error('unreachable');
}

async function time(label, turn) {
  for (let index = 0; index < 2_000; index += 1) await turn(); // warm up
  const started = process.hrtime.bigint();
  for (let index = 0; index < TURNS; index += 1) await turn();
  const ns = Number(process.hrtime.bigint() - started);
  return { label, perTurnUs: ns / TURNS / 1000, perIterationUs: ns / TURNS / STEPS / 1000 };
}

const harness = createHarness({ model, tools });
const check = await harness.runTurn(input);
if (check.outcome !== 'completed' || check.usage.toolCalls !== 2) throw new Error('bench turn did not complete as expected');

const bare = await time('bare loop (same model and tool, no harness)', bareTurn);
const plain = await time('harness.runTurn', () => harness.runTurn(input));
const tracedHarness = createHarness({ model, tools, trace: { emit() {} } });
const traced = await time('harness.runTurn + trace sink', () => tracedHarness.runTurn(input));

console.log(`\nLoop overhead — ${STEPS}-step tool turn (2 tool calls), ${TURNS} turns, Node ${process.version}`);
console.log('| variant | µs / turn | µs / iteration | overhead µs / iteration | ratio vs bare |');
console.log('|---|---:|---:|---:|---:|');
for (const row of [bare, plain, traced]) {
  const overhead = row.perIterationUs - bare.perIterationUs;
  console.log(
    `| ${row.label} | ${row.perTurnUs.toFixed(2)} | ${row.perIterationUs.toFixed(2)} | ${row === bare ? '—' : overhead.toFixed(2)} | ${(row.perTurnUs / bare.perTurnUs).toFixed(1)}× |`,
  );
}

// Continuation size of a 6-step turn: five tool steps, then a clarification.
const sixSteps = [
  ...['Oslo', 'Rome', 'Lima', 'Kyiv', 'Pune'].map((city, index) => ({
    type: 'tool_request',
    calls: [{ id: `w${index}`, name: 'lookup_weather', input: { city } }],
  })),
  { type: 'clarification', question: 'Which of these cities do you mean?' },
];
const weatherTools = {
  listAvailable: () => [{ name: 'lookup_weather', description: 'weather' }],
  execute: async (toolCall) => ({
    callId: toolCall.id,
    toolName: toolCall.name,
    status: 'success',
    output: `${toolCall.input.city}: sunny, 21°C, wind 3 m/s`,
  }),
};
const paused = await createHarness({
  model: { nextStep: async (step) => sixSteps[step.iteration - 1] },
  tools: weatherTools,
  limits: { maxIterations: 6 },
  continuationSecret: 'bench-secret-0123456789abcdef0123',
}).runTurn({ ...input, message: { ...input.message, text: 'What is the weather in my cities?' } });
if (paused.outcome !== 'needs_clarification') throw new Error(`6-step turn ended ${paused.outcome}`);
const continuationBytes = Buffer.byteLength(JSON.stringify(paused.continuation));
console.log(`\nContinuation of a 6-step turn (5 tool results, signed): ${continuationBytes} bytes JSON (target ≤ 4096)`);

// Cold import of the main entry, minus a bare node start, medians of several runs.
function median(values) {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)];
}
function spawnMs(args) {
  const started = process.hrtime.bigint();
  execFileSync(process.execPath, args, { cwd: root, stdio: 'ignore' });
  return Number(process.hrtime.bigint() - started) / 1e6;
}
const RUNS = 15;
const baseline = [];
const withImport = [];
const withZod = [];
for (let index = 0; index < RUNS; index += 1) {
  baseline.push(spawnMs(['-e', '0']));
  withImport.push(spawnMs(['-e', "import('@agent-assistant/harness')"]));
  withZod.push(spawnMs(['-e', "import('zod')"]));
}
const importMs = median(withImport) - median(baseline);
console.log(`\nCold import of @agent-assistant/harness: ${importMs.toFixed(1)} ms over node -e 0 (${median(baseline).toFixed(1)} ms); target ≤ 40 ms`);
console.log(`  for scale, import('zod') in the same run: ${(median(withZod) - median(baseline)).toFixed(1)} ms`);

const entry = readFileSync(new URL('../../packages/harness/dist/index.js', import.meta.url));
console.log(`Main entry bundle: ${(entry.length / 1024).toFixed(1)} KB, ${(gzipSync(entry).length / 1024).toFixed(1)} KB gzip (dist/index.js plus shared chunks it imports)`);

// Output reduction: an 8 MiB test log with one failing test in the middle (vitest, pytest, go test
// -v), reduced to a 16 KiB budget; in-memory store (the reduction) and directory store (plus disk).
const REDUCE_RUNS = Number(process.env.BENCH_REDUCE_RUNS ?? 9);
const memoryStore = () => {
  const artifacts = new Map();
  return { put: async (id, streams) => void artifacts.set(id, streams), get: async (id) => artifacts.get(id) };
};
const artifactsDir = await mkdtemp(join(tmpdir(), 'reduce-bench-'));
console.log(`\nOutput reduction — 8 MiB test log, one failure in the middle, budget 16 KiB, median of ${REDUCE_RUNS} runs`);
console.log('| log | lines | ms (memory store) | MiB/s | ms (directory store) | reduced bytes | shown lines | failing test\'s lines shown |');
console.log('|---|---:|---:|---:|---:|---:|---:|---|');
for (const kind of ['vitest', 'pytest', 'go']) {
  const { text, failingLines } = makeTestLog(kind, 8 * 1024 * 1024);
  const stdout = new TextEncoder().encode(text);
  const output = { argv: ['npm', 'test'], exitCode: 1, stdout, stderr: '', captureComplete: true };
  await reduceOutput(output, { budget: 16_384, store: memoryStore() }); // warm up
  // Memory and directory stores take turns, so both see the same machine load.
  const times = { memory: [], disk: [] };
  let result;
  for (let run = 0; run < REDUCE_RUNS; run += 1) {
    for (const [variant, store] of [['memory', memoryStore()], ['disk', createDirectoryOutputStore({ directory: join(artifactsDir, `${kind}-${run}`) })]]) {
      const started = process.hrtime.bigint();
      result = await reduceOutput(output, { budget: 16_384, store });
      times[variant].push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  }
  const memory = { ms: median(times.memory), result };
  const disk = { ms: median(times.disk) };
  const shown = memory.result.stdout.shown.flatMap((block) => block.text.split('\n'));
  const kept = failingLines.every((line) => shown.includes(line));
  console.log(
    `| ${kind} | ${memory.result.stdout.lines} | ${memory.ms.toFixed(0)} | ${(8 / (memory.ms / 1000)).toFixed(0)} | ${disk.ms.toFixed(0)} | ${Buffer.byteLength(JSON.stringify(memory.result))} | ${shown.length} | ${kept ? `all ${failingLines.length}` : 'NO'} |`,
  );
  if (!kept) process.exitCode = 1;
}
await rm(artifactsDir, { recursive: true, force: true });

// One long line on a streamed local CLI's stdout (read line by line, as every streaming preset
// does), up to the 8 MiB default cap and past it; a raw spawn collecting the same bytes for scale.
// Splitting lines is linear: time per MiB stays flat as the line grows.
const LINE_RUNS = Number(process.env.BENCH_LINE_RUNS ?? 5);
const printLine = (lineBytes) => ['-e', `process.stdout.write('x'.repeat(${lineBytes - 1}) + '\\n')`];
const lineAdapter = (lineBytes) =>
  new LocalCommandExecutionAdapter({
    backendId: 'bench-long-line',
    command: process.execPath,
    capabilities: { toolUse: 'none', structuredToolCalls: false, continuationSupport: 'none', approvalInterrupts: 'none', traceDepth: 'minimal', attachments: false },
    buildArgs: () => printLine(lineBytes),
    maxOutputBytes: Math.max(lineBytes, 8 * 1024 * 1024),
    onStdoutLine: (line) => {
      if (line.length !== lineBytes - 1) throw new Error(`line of ${line.length} characters`);
    },
    parseOutput: (stdout) => ({ text: String(stdout.length) }),
  });
const rawLine = (lineBytes) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, printLine(lineBytes), { stdio: ['ignore', 'pipe', 'ignore'] });
    let received = 0;
    child.stdout.on('data', (chunk) => (received += chunk.length));
    child.on('error', reject);
    child.on('close', () => (received === lineBytes ? resolve() : reject(new Error(`raw spawn read ${received} bytes`))));
  });
console.log(`\nOne long stdout line from a local CLI, read line by line (onStdoutLine), median of ${LINE_RUNS} runs`);
console.log('| line | LocalCommandExecutionAdapter ms | ms per MiB | raw spawn ms (collect only) |');
console.log('|---|---:|---:|---:|');
for (const mib of [1, 8, 16]) {
  const lineBytes = mib * 1024 * 1024;
  const adapter = lineAdapter(lineBytes);
  const times = { adapter: [], raw: [] };
  for (let run = 0; run < LINE_RUNS; run += 1) {
    let started = process.hrtime.bigint();
    const result = await adapter.execute({ ...input, turnId: `line-${mib}-${run}` });
    if (result.status !== 'completed' || result.output?.text !== String(lineBytes)) throw new Error(`long line ${mib} MiB: ${result.status} ${result.error?.message}`);
    times.adapter.push(Number(process.hrtime.bigint() - started) / 1e6);
    started = process.hrtime.bigint();
    await rawLine(lineBytes);
    times.raw.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  const adapterMs = median(times.adapter);
  console.log(`| ${mib} MiB${mib === 8 ? ' (the default cap)' : ''} | ${adapterMs.toFixed(0)} | ${(adapterMs / mib).toFixed(1)} | ${median(times.raw).toFixed(0)} |`);
}
