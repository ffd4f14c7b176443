// node time-turns.mjs <harness|ai|agents> <warm-up turns> <batches> <turns per batch> [harness module specifier]
// One framework alone in a fresh process: checks the scripted turn, runs the warm-up turns, then
// times `batches` batches of back-to-back turns. Prints one JSON line: µs per loop step of each batch,
// as CPU time of this process (user + system, all its threads: what the turn costs, whatever else the
// machine runs) and as wall time.
// turn-bench.mjs starts one of these per variant and round, so no framework warms or pollutes
// another's JIT state, heap or inline caches.
import { STEPS } from './scenario.mjs';

const [framework, warmUpArgument, batchesArgument, perBatchArgument, specifier = '@agent-assistant/harness'] = process.argv.slice(2);
const WARM_UP = Number(warmUpArgument);
const BATCHES = Number(batchesArgument);
const PER_BATCH = Number(perBatchArgument);

async function load() {
  if (framework === 'harness') {
    const { harnessTurn } = await import('./harness-turn.mjs');
    const turn = harnessTurn(await import(specifier));
    return { run: turn.run, check: turn.check };
  }
  if (framework === 'ai') {
    const { runAiTurn, checkAiTurn } = await import('./ai-turn.mjs');
    return { run: runAiTurn, check: checkAiTurn };
  }
  if (framework === 'agents') {
    const { runAgentsTurn, checkAgentsTurn } = await import('./agents-turn.mjs');
    return { run: runAgentsTurn, check: checkAgentsTurn };
  }
  throw new Error(`unknown framework ${framework}`);
}

const { run, check } = await load();
// The check is the first turn: it counts as warm-up.
await check();
for (let index = 1; index < WARM_UP; index += 1) await run();
const cpu = [];
const wall = [];
for (let batch = 0; batch < BATCHES; batch += 1) {
  const started = process.hrtime.bigint();
  const cpuStarted = process.cpuUsage();
  for (let index = 0; index < PER_BATCH; index += 1) await run();
  const used = process.cpuUsage(cpuStarted);
  wall.push(Number(process.hrtime.bigint() - started) / 1000 / PER_BATCH / STEPS);
  cpu.push((used.user + used.system) / PER_BATCH / STEPS);
}
console.log(JSON.stringify({ framework, warmUp: WARM_UP, cpu, wall }));
