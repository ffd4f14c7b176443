// node scripts/bench/context-packet-bench.mjs — buildContextPacket over a 10,000-file tree (time and
// peak memory), against reading the same files plainly (fs.readFile, 8 at a time, plus one
// JSON.stringify of what was read) and through the sandboxed VFS the same way, measured in the
// same run, interleaved; each variant runs in its own process (import included) so its peak RSS
// is its own. Uses the built packages (npm run build).
// BENCH_PACKET_ROUNDS sets rounds (median reported).
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIRS = 100;
const FILES_PER_DIR = 100;
const LINES = 60;
const SELECTED = 4000;

const rel = (index) => `d${Math.floor(index / FILES_PER_DIR)}/f${index % FILES_PER_DIR}.ts`;
/** Every 2.5th file of the tree: whole, or lines 10–30, a few depending on the one before. */
function manifest() {
  const selections = [];
  for (let index = 0; index < SELECTED; index += 1) {
    const file = Math.floor(index * 2.5);
    const selection = { id: `s${index}`, path: rel(file) };
    if (index % 2 === 1) Object.assign(selection, { startLine: 10, endLine: 30 });
    if (index % 10 === 9) selection.dependsOn = [`s${index - 1}`];
    if (index < 5) selection.required = true;
    selections.push(selection);
  }
  return { selections };
}

async function child(variant, root, budget) {
  const started = process.hrtime.bigint();
  let bytes;
  let detail = '';
  if (variant === 'plain' || variant === 'vfs') {
    const vfs = variant === 'vfs' ? (await import('@agent-assistant/vfs/node')).createNodeFsVfs({ root }) : undefined;
    const read = vfs === undefined ? (path) => readFile(join(root, path), 'utf8') : async (path) => (await vfs.read(path)).content;
    const paths = manifest().selections.map((selection) => selection.path);
    const contents = new Array(paths.length);
    for (let start = 0; start < paths.length; start += 8) {
      const batch = await Promise.all(paths.slice(start, start + 8).map(read));
      batch.forEach((content, offset) => (contents[start + offset] = content));
    }
    bytes = Buffer.byteLength(JSON.stringify(contents));
  } else {
    const { buildContextPacket } = await import('@agent-assistant/harness');
    const { createNodeFsVfs } = await import('@agent-assistant/vfs/node');
    const result = await buildContextPacket(createNodeFsVfs({ root }), manifest(), { budget });
    bytes = result.bytes;
    detail = `${result.packet.sources.length} taken, ${result.packet.omitted.length} omitted`;
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  process.stdout.write(JSON.stringify({ ms, bytes, detail, maxRssKb: process.resourceUsage().maxRSS }));
}

if (process.argv[2] === '--child') {
  await child(process.argv[3], process.argv[4], Number(process.argv[5]));
} else {
  const ROUNDS = Number(process.env.BENCH_PACKET_ROUNDS ?? 5);
  const root = await mkdtemp(join(tmpdir(), 'packet-bench-'));
  const line = (index) => `export function value${index}(input: number): number { return input * ${index} + 1; } // padding\n`;
  const body = Array.from({ length: LINES }, (_, index) => line(index)).join('');
  for (let dir = 0; dir < DIRS; dir += 1) {
    await mkdir(join(root, `d${dir}`));
    await Promise.all(Array.from({ length: FILES_PER_DIR }, (_, file) => writeFile(join(root, `d${dir}`, `f${file}.ts`), `// d${dir}/f${file}\n${body}`)));
  }
  const manifestBytes = Buffer.byteLength(JSON.stringify(manifest()));
  const variants = [
    ['plain: fs.readFile of the same files + JSON.stringify', 'plain', 0],
    ['sandboxed: createNodeFsVfs().read of the same files + JSON.stringify', 'vfs', 0],
    ['buildContextPacket, budget 1 MiB (most left out)', 'packet', 1_048_576],
    ['buildContextPacket, budget 64 MiB (all taken)', 'packet', 67_108_864],
  ];
  const script = fileURLToPath(import.meta.url);
  const runs = variants.map(() => []);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [index, [, variant, budget]] of variants.entries()) {
      runs[index].push(JSON.parse(execFileSync(process.execPath, [script, '--child', variant, root, String(budget)], { encoding: 'utf8' })));
    }
  }
  await rm(root, { recursive: true, force: true });
  const median = (values) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)];
  const baseMs = median(runs[0].map((run) => run.ms));
  const baseRss = median(runs[0].map((run) => run.maxRssKb));
  console.log(
    `\nContext packets — a ${DIRS * FILES_PER_DIR}-file tree (${Buffer.byteLength(body) + 12} B files, ${LINES + 1} lines), ` +
      `a manifest of ${SELECTED} selections (${(manifestBytes / 1024).toFixed(0)} KiB: half whole, half lines 10–30, every 10th depending on the one before), ` +
      `median of ${ROUNDS} rounds, each variant in its own process, Node ${process.version}`,
  );
  const vfsMs = median(runs[1].map((run) => run.ms));
  console.log('| variant | ms | ratio vs plain | ratio vs sandboxed | peak RSS MiB | RSS vs plain | output bytes | taken / omitted |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---|');
  for (const [index, [label]] of variants.entries()) {
    const ms = median(runs[index].map((run) => run.ms));
    const rss = median(runs[index].map((run) => run.maxRssKb));
    const last = runs[index].at(-1);
    console.log(
      `| ${label} | ${ms.toFixed(0)} | ${(ms / baseMs).toFixed(2)}× | ${(ms / vfsMs).toFixed(2)}× | ${(rss / 1024).toFixed(0)} | ${(rss / baseRss).toFixed(2)}× | ${last.bytes} | ${last.detail || '—'} |`,
    );
  }
}
