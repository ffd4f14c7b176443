// node scripts/bench/peers/profile-window.mjs <harness module specifier or file URL> <warm-up turns> <profiled turns> <out.cpuprofile>
// CPU profile of only the turns after a warm-up (e.g. turns 201–400: what an isolate that served
// few turns runs), taken with node:inspector so start-up and the warm-up are not in it.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { harnessTurn } from './harness-turn.mjs';

const [specifier = '@agent-assistant/harness', warmUp = '200', profiled = '200', out = 'window.cpuprofile'] = process.argv.slice(2);
const turn = harnessTurn(await import(specifier));
await turn.check();
for (let index = 1; index < Number(warmUp); index += 1) await turn.run();
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 50 });
await session.post('Profiler.start');
for (let index = 0; index < Number(profiled); index += 1) await turn.run();
const { profile } = await session.post('Profiler.stop');
writeFileSync(out, JSON.stringify(profile));
