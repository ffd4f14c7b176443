// node scripts/bench/vfs-bench.mjs — cost of a sandboxed createNodeFsVfs read/stat (realpath check,
// descriptor verified through /proc/self/fd, content read through the descriptor) against a bare
// fs.promises.readFile/stat of the same file, measured in the same run, interleaved. Uses the
// built package (npm run build --workspace=packages/vfs), or the build in $VFS_DIST. BENCH_VFS_OPS
// sets operations per variant.
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const { createNodeFsVfs } = await import(
  process.env.VFS_DIST ? pathToFileURL(join(process.env.VFS_DIST, 'node.js')).href : '@agent-assistant/vfs/node'
);

const OPS = Number(process.env.BENCH_VFS_OPS ?? 5_000);
const ROUNDS = 5;
const base = await mkdtemp(join(tmpdir(), 'vfs-bench-'));
await mkdir(join(base, 'a', 'b'), { recursive: true });
const file = join(base, 'a', 'b', 'file.txt');
await writeFile(file, 'x'.repeat(4096));
const vfs = createNodeFsVfs({ root: base });

const variants = {
  'fs.readFile (bare)': () => readFile(file),
  'vfs.read': () => vfs.read('/a/b/file.txt'),
  'fs.stat (bare)': () => stat(file),
  'vfs.stat': () => vfs.stat('/a/b/file.txt'),
};
const totals = Object.fromEntries(Object.keys(variants).map((name) => [name, 0]));
for (const run of Object.values(variants)) for (let index = 0; index < 500; index += 1) await run(); // warm up
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [name, run] of Object.entries(variants)) {
    const started = process.hrtime.bigint();
    for (let index = 0; index < OPS; index += 1) await run();
    totals[name] += Number(process.hrtime.bigint() - started);
  }
}
await rm(base, { recursive: true, force: true });

const perOp = (name) => totals[name] / (OPS * ROUNDS) / 1000;
console.log(`\nVFS — 4 KiB file two directories deep, ${OPS * ROUNDS} operations per variant, Node ${process.version}`);
console.log('| variant | µs / op | ratio vs bare |');
console.log('|---|---:|---:|');
for (const [name, bare] of [['fs.readFile (bare)', 'fs.readFile (bare)'], ['vfs.read', 'fs.readFile (bare)'], ['fs.stat (bare)', 'fs.stat (bare)'], ['vfs.stat', 'fs.stat (bare)']]) {
  console.log(`| ${name} | ${perOp(name).toFixed(1)} | ${(perOp(name) / perOp(bare)).toFixed(1)}× |`);
}
