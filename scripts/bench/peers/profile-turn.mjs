// node --cpu-prof --cpu-prof-dir=<dir> scripts/bench/peers/profile-turn.mjs [path/to/src/index.ts] [turns]
// Runs the scripted 3-step turn of turn-bench.mjs back to back for a CPU profile (open the
// .cpuprofile in Chrome DevTools). With a src path the harness is bundled from it first (unminified,
// so the profile names our functions and files); without one the built dist is used.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { harnessTurn } from './harness-turn.mjs';

const [srcIndex, turnsArgument] = process.argv.slice(2);
const TURNS = Number(turnsArgument ?? 30_000);
let harness;
if (srcIndex === undefined || srcIndex === 'dist') {
  harness = await import('@agent-assistant/harness');
} else {
  const outfile = join(mkdtempSync(join(tmpdir(), 'profile-turn-')), 'harness.mjs');
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  await esbuild.build({ entryPoints: [srcIndex], bundle: true, format: 'esm', platform: 'node', outfile, nodePaths: [join(root, 'node_modules')], logLevel: 'error' });
  harness = await import(pathToFileURL(outfile).href);
}
const turn = harnessTurn(harness);
await turn.check();
const started = process.hrtime.bigint();
for (let index = 0; index < TURNS; index += 1) await turn.run();
console.log(`${TURNS} turns, ${(Number(process.hrtime.bigint() - started) / 1000 / TURNS / 3).toFixed(1)} µs per step`);
