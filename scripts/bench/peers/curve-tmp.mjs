import { harnessTurn } from '/work/wt-perf/scripts/bench/peers/harness-turn.mjs';
const spec = process.argv[2] ?? '@agent-assistant/harness';
const t = harnessTurn(await import(spec));
await t.check();
const out = [];
for (let b = 0; b < 30; b++) {
  const s = process.cpuUsage();
  for (let i = 0; i < 100; i++) await t.run();
  { const d = process.cpuUsage(s); out.push(((d.user + d.system) / 300).toFixed(0)); }
}
console.log(out.join(' '));
