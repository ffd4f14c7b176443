// node scripts/bench/peers/compare-turns.mjs <harness A> <harness B> [rounds=20] [turns=500] [warm-up=3000]
// Two builds of the harness (a src tree's index.ts, bundled first like profile-turn.mjs does; or a
// module specifier or file URL, e.g. `dist`'s `@agent-assistant/harness`) in ONE process,
// interleaved: each warms up, then rounds of back-to-back turns alternate between them (the order
// flipped every round). Prints the median CPU µs per step of each and the median of the
// per-round ratios A/B — what a change to the loop is worth, with the machine's load shared alike.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { harnessTurn } from './harness-turn.mjs';
import { STEPS } from './scenario.mjs';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'compare-turns-'));

/** A src tree's index.ts is bundled (its own copy of every module); anything else is imported as it is. */
async function load(target, name) {
  if (!target.endsWith('.ts')) return import(target);
  const outfile = join(scratch, `${name}.mjs`);
  await esbuild.build({ entryPoints: [resolve(target)], bundle: true, format: 'esm', platform: 'node', outfile, nodePaths: [join(root, 'node_modules')], logLevel: 'error' });
  return import(pathToFileURL(outfile).href);
}

const [a, b, rounds = '20', turns = '500', warmUp = '3000'] = process.argv.slice(2);
if (a === undefined || b === undefined) throw new Error('usage: compare-turns.mjs <harness A> <harness B> [rounds] [turns] [warm-up]');
const first = harnessTurn(await load(a, 'a'));
const second = harnessTurn(await load(b, 'b'));
await first.check();
await second.check();
for (let index = 0; index < Number(warmUp); index += 1) {
  await first.run();
  await second.run();
}
async function timeTurns(turn) {
  const started = process.cpuUsage();
  for (let index = 0; index < Number(turns); index += 1) await turn.run();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / Number(turns) / STEPS;
}
const timesA = [];
const timesB = [];
for (let round = 0; round < Number(rounds); round += 1) {
  if (round % 2 === 0) {
    timesA.push(await timeTurns(first));
    timesB.push(await timeTurns(second));
  } else {
    timesB.push(await timeTurns(second));
    timesA.push(await timeTurns(first));
  }
}
const median = (values) => [...values].sort((left, right) => left - right)[values.length >> 1];
const ratios = timesA.map((value, index) => value / timesB[index]);
console.log(`A ${median(timesA).toFixed(2)} µs/step, B ${median(timesB).toFixed(2)} µs/step, A/B ${median(ratios).toFixed(3)} (median of ${rounds} rounds of ${turns} turns)`);
