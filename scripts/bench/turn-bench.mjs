// node scripts/bench/turn-bench.mjs — the figures of issues 14 and 30, with the peers measured in the same run,
// each framework timed in its own processes (peers/time-turns.mjs).
//
// Peers live in their own workspace: `npm ci --prefix scripts/bench/peers` (not part of the root
// install). Without it only the harness figures print.
//
//   BENCH_ROUNDS=5          processes per variant for each per-step figure (order rotated; median reported)
//   BENCH_WARM_UP=2000      warm-up turns before the steady-state figure
//   BENCH_COLD_WARM_UP=200  warm-up turns before the early figure (which times the next as many turns)
//   BENCH_BATCH_TURNS=400   turns per timed batch of the steady-state figure (5 batches, median)
//   BENCH_HARNESS_SRC=path  bench a bundle of this src/index.ts instead of the built dist
//   BENCH_COMPARE_SRC=path  also bench a second harness (e.g. an older src tree) in the same rounds
//   BENCH_METAFILE=dir      write esbuild metafiles of the bundles there
//   BENCH_SKIP=heap,import  skip sections (timing, bundle, heap, import, peers)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { bundleProgram } from './peers/bundle-program.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const peersDir = fileURLToPath(new URL('./peers/', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const STEADY_WARM_UP = Number(process.env.BENCH_WARM_UP ?? 2000);
const COLD_WARM_UP = Number(process.env.BENCH_COLD_WARM_UP ?? 200);
const skip = new Set((process.env.BENCH_SKIP ?? '').split(',').filter(Boolean));
const havePeers = !skip.has('peers') && existsSync(join(peersDir, 'node_modules', 'ai')) && existsSync(join(peersDir, 'node_modules', '@openai', 'agents'));
const scratch = mkdtempSync(join(tmpdir(), 'turn-bench-'));
const { STEPS } = await import('./peers/scenario.mjs');

/** esbuild plugin: `@agent-assistant/harness` from a src tree instead of the package. */
function harnessFrom(srcIndex) {
  return {
    name: 'harness-src',
    setup(build) {
      if (srcIndex === undefined) return;
      build.onResolve({ filter: /^@agent-assistant\/harness$/ }, () => ({ path: resolve(srcIndex) }));
    },
  };
}

function median(values) {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)];
}

const fmt = (value, digits = 1) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

// ---------------------------------------------------------------- variants
/** Writes a Node bundle of a src tree to the scratch dir; returns its file URL. */
async function bundleForNode(srcIndex) {
  const outfile = join(scratch, `harness-${Math.random().toString(36).slice(2)}.mjs`);
  await esbuild.build({ entryPoints: [srcIndex], bundle: true, format: 'esm', platform: 'node', outfile, nodePaths: [join(root, 'node_modules')], logLevel: 'error' });
  return pathToFileURL(outfile).href;
}

const peerVersions = {};
if (havePeers) {
  for (const name of ['ai', '@openai/agents', 'zod']) {
    peerVersions[name] = JSON.parse(readFileSync(join(peersDir, 'node_modules', name, 'package.json'), 'utf8')).version;
  }
}
const harnessVersion = JSON.parse(readFileSync(join(root, 'packages', 'harness', 'package.json'), 'utf8')).version;
const oursSpecifier = process.env.BENCH_HARNESS_SRC === undefined ? '@agent-assistant/harness' : await bundleForNode(resolve(process.env.BENCH_HARNESS_SRC));
const variants = [{ label: `@agent-assistant/harness ${harnessVersion} runTurn`, framework: 'harness', specifier: oursSpecifier, ours: true }];
if (process.env.BENCH_COMPARE_SRC !== undefined) {
  variants.push({ label: `harness from ${process.env.BENCH_COMPARE_SRC}`, framework: 'harness', specifier: await bundleForNode(resolve(process.env.BENCH_COMPARE_SRC)) });
}
if (havePeers) {
  variants.push({ label: `ai ${peerVersions.ai} generateText`, framework: 'ai', peer: 'ai' });
  variants.push({ label: `@openai/agents ${peerVersions['@openai/agents']} Runner.run`, framework: 'agents', peer: 'agents' });
}

console.log(`Node ${process.version}, ${havePeers ? `peers: ${Object.entries(peerVersions).map(([name, version]) => `${name} ${version}`).join(', ')}` : 'peers not installed (npm ci --prefix scripts/bench/peers)'}`);
console.log(`harness: ${process.env.BENCH_HARNESS_SRC ?? 'dist (@agent-assistant/harness)'}`);

// ---------------------------------------------------------------- 1. µs per loop step
/** One fresh process of one framework: warm-up turns, then timed batches; returns µs per step of each batch (`cpu`, `wall`). */
function timeInChild(variant, warmUp, batches, perBatch) {
  const args = [join(peersDir, 'time-turns.mjs'), variant.framework, String(warmUp), String(batches), String(perBatch)];
  if (variant.specifier !== undefined) args.push(variant.specifier);
  const output = execFileSync(process.execPath, args, { cwd: peersDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(output.trim().split('\n').at(-1));
}

const figures = {};
if (!skip.has('timing')) {
  const settings = [
    { key: 'steady', warmUp: STEADY_WARM_UP, batches: 5, perBatch: Number(process.env.BENCH_BATCH_TURNS ?? 400), title: `steady state: ${STEADY_WARM_UP.toLocaleString('en-US')} warm-up turns, then the median of 5 batches of ${process.env.BENCH_BATCH_TURNS ?? 400} turns` },
    { key: 'cold', warmUp: COLD_WARM_UP, batches: 1, perBatch: COLD_WARM_UP, title: `after only ${COLD_WARM_UP} warm-up turns: the next ${COLD_WARM_UP} turns` },
  ];
  for (const setting of settings) {
    const samples = new Map(variants.map((variant) => [variant, []]));
    const wallSamples = new Map(variants.map((variant) => [variant, []]));
    for (let round = 0; round < ROUNDS; round += 1) {
      // Rotate the order each round so no variant always runs after the same one.
      for (let offset = 0; offset < variants.length; offset += 1) {
        const variant = variants[(round + offset) % variants.length];
        const timed = timeInChild(variant, setting.warmUp, setting.batches, setting.perBatch);
        samples.get(variant).push(median(timed.cpu));
        wallSamples.get(variant).push(median(timed.wall));
      }
    }
    const oursSamples = samples.get(variants[0]);
    console.log(`\n1. µs per loop step, ${setting.title}; each variant in its own process, ${ROUNDS} processes each (order rotated), median — the scripted 3-step turn (zod-validated \`add\` twice, then an answer), whole turn / ${STEPS}`);
    console.log('CPU µs: user + system time of the process (all its threads) per step; wall µs: elapsed time (moves with the machine\'s load)');
    console.log('| variant | CPU µs / step (median) | min–max | ratio to ours (median of per-round ratios) | wall µs / step (median) |');
    console.log('|---|---:|---:|---:|---:|');
    for (const variant of variants) {
      const values = samples.get(variant);
      const ratios = values.map((value, index) => value / oursSamples[index]);
      console.log(`| ${variant.label} | ${fmt(median(values))} | ${fmt(Math.min(...values))}–${fmt(Math.max(...values))} | ${variant.ours ? '1.0×' : `${fmt(median(ratios))}×`} | ${fmt(median(wallSamples.get(variant)))} |`);
      if (variant.ours) figures[`${setting.key}StepUs`] = median(values);
      if (variant.peer !== undefined) {
        figures[`${setting.key}${variant.peer === 'ai' ? 'Ai' : 'Agents'}StepUs`] = median(values);
        figures[`${setting.key}${variant.peer === 'ai' ? 'Ai' : 'Agents'}Ratio`] = median(ratios);
      }
    }
    if (havePeers) {
      const fastest = Math.min(figures[`${setting.key}AiRatio`], figures[`${setting.key}AgentsRatio`]);
      console.log(`ours / fastest peer: ${fmt(1 / fastest, 3)} (goal ≤ 0.1)`);
    }
  }
}

// ---------------------------------------------------------------- 2–3. Worker bundles
async function bundleSize(entry, srcIndex) {
  const { code, metafile } = await bundleProgram(entry, [harnessFrom(srcIndex)]);
  if (process.env.BENCH_METAFILE !== undefined) {
    mkdirSync(process.env.BENCH_METAFILE, { recursive: true });
    writeFileSync(join(process.env.BENCH_METAFILE, `${entry}.meta.json`), JSON.stringify(metafile));
  }
  return { minified: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

if (!skip.has('bundle')) {
  const src = process.env.BENCH_HARNESS_SRC;
  const rows = [['ours: scripted turn + JSON-Schema tool', await bundleSize('harness-json-tool.mjs', src)]];
  if (havePeers) {
    rows.push([`ai ${peerVersions.ai}: the same program`, await bundleSize('ai-json-tool.mjs')]);
    rows.push([`@openai/agents ${peerVersions['@openai/agents']}: the same program`, await bundleSize('agents-json-tool.mjs')]);
  }
  const provider = await bundleSize('harness-openai-compatible.mjs', src);
  console.log('\n2–3. Worker bundle (esbuild, minified, ESM, browser/workerd conditions, Node built-ins external; gzip -9)');
  console.log('| program | minified B | gzip B | ratio to ours |');
  console.log('|---|---:|---:|---:|');
  for (const [label, size] of rows) console.log(`| ${label} | ${size.minified.toLocaleString('en-US')} | ${size.gzip.toLocaleString('en-US')} | ${fmt(size.gzip / rows[0][1].gzip)}× |`);
  console.log(`| ours: createHarness + createOpenAICompatibleModel (goal ≤ 25,000 B gzip) | ${provider.minified.toLocaleString('en-US')} | ${provider.gzip.toLocaleString('en-US')} | — |`);
  figures.bundleGzip = rows[0][1].gzip;
  figures.providerBundleGzip = provider.gzip;
  if (havePeers) console.log(`ours / ai: ${fmt(rows[0][1].gzip / rows[1][1].gzip, 3)} (goal ≤ 0.2)`);
}

// ---------------------------------------------------------------- 4. heap per in-flight turn
if (!skip.has('heap')) {
  let specifier = '@agent-assistant/harness';
  if (process.env.BENCH_HARNESS_SRC !== undefined) {
    specifier = join(scratch, 'heap-harness.mjs');
    await esbuild.build({ entryPoints: [resolve(process.env.BENCH_HARNESS_SRC)], bundle: true, format: 'esm', platform: 'node', outfile: specifier, nodePaths: [join(root, 'node_modules')], logLevel: 'error' });
    specifier = pathToFileURL(specifier).href;
  }
  const turns = Number(process.env.BENCH_HEAP_TURNS ?? 1000);
  const output = execFileSync(process.execPath, ['--expose-gc', join(peersDir, 'heap-turns.mjs'), specifier, String(turns)], { cwd: peersDir, encoding: 'utf8' });
  const { rows } = JSON.parse(output.trim().split('\n').at(-1));
  const perTurn = (label) => median(rows.filter((row) => row.label === label).map((row) => row.perTurnBytes));
  const harnessBytes = perTurn('harness.runTurn');
  const fetchBytes = perTurn('bare fetch');
  const loopBytes = perTurn('harness.runTurn, in-memory model');
  const nodeHttpHarnessBytes = perTurn('harness.runTurn, fetch: createNodeHttpFetch()');
  const nodeHttpBytes = perTurn('bare node:http POST');
  console.log(`\n4. Heap per in-flight turn: ${turns} concurrent one-step turns (createOpenAICompatibleModel → loopback server in a child process, held until all arrived); heapUsed after gc, in flight minus settled, median of 2 interleaved rounds`);
  console.log('| variant | KB per in-flight turn |');
  console.log('|---|---:|');
  console.log(`| harness.runTurn | ${fmt(harnessBytes / 1024)} |`);
  console.log(`| bare fetch POST of the same request (undici), same server, same run | ${fmt(fetchBytes / 1024)} |`);
  console.log(`| harness's share over bare fetch (loop + provider; goal ≤ 8 KB) | ${fmt((harnessBytes - fetchBytes) / 1024)} |`);
  console.log(`| harness.runTurn with an in-memory model that waits (the loop alone) | ${fmt(loopBytes / 1024)} |`);
  // Absent when the harness under test predates createNodeHttpFetch.
  if (nodeHttpHarnessBytes !== undefined) console.log(`| harness.runTurn with fetch: createNodeHttpFetch() | ${fmt(nodeHttpHarnessBytes / 1024)} |`);
  if (nodeHttpBytes !== undefined) console.log(`| bare node:http POST (keep-alive agent), same server, same run | ${fmt(nodeHttpBytes / 1024)} |`);
  figures.heapKb = harnessBytes / 1024;
  figures.heapOverFetchKb = (harnessBytes - fetchBytes) / 1024;
  if (nodeHttpHarnessBytes !== undefined) figures.heapNodeHttpKb = nodeHttpHarnessBytes / 1024;
}

// ---------------------------------------------------------------- 5. cold import
if (!skip.has('import')) {
  const RUNS = Number(process.env.BENCH_IMPORT_RUNS ?? 15);
  const spawnMs = (args) => {
    const started = process.hrtime.bigint();
    execFileSync(process.execPath, args, { cwd: peersDir, stdio: 'ignore' });
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  const targets = [['@agent-assistant/harness', '@agent-assistant/harness']];
  if (havePeers) targets.push([`ai ${peerVersions.ai}`, 'ai'], [`@openai/agents ${peerVersions['@openai/agents']}`, '@openai/agents']);
  const times = new Map(targets.map(([label]) => [label, []]));
  const baseline = [];
  for (let run = 0; run < RUNS; run += 1) {
    baseline.push(spawnMs(['-e', '0']));
    for (const [label, specifier] of targets) times.get(label).push(spawnMs(['--input-type=module', '-e', `await import(${JSON.stringify(specifier)})`]));
  }
  const base = median(baseline);
  const oursMs = median(times.get(targets[0][0])) - base;
  console.log(`\n5. Cold import above \`node -e 0\` (${fmt(base)} ms), median of ${RUNS} interleaved runs (the harness as built in dist)`);
  console.log('| module | ms | ratio to ours |');
  console.log('|---|---:|---:|');
  for (const [label] of targets) {
    const ms = median(times.get(label)) - base;
    console.log(`| ${label} | ${fmt(ms)} | ${fmt(ms / oursMs)}× |`);
  }
  figures.importMs = oursMs;
}

rmSync(scratch, { recursive: true, force: true });
console.log(`\nfigures: ${JSON.stringify(figures)}`);
