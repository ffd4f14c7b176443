// node --expose-gc heap-turns.mjs <harness module path or specifier> [turns]
// Heap per in-flight turn: TURNS concurrent one-step turns of createHarness + createOpenAICompatibleModel
// against a loopback chat-completions server that holds every request until all arrived. For scale,
// the same number of bare `fetch` POSTs of the same body held by the same server, in the same run.
import { fork } from 'node:child_process';
import { once } from 'node:events';

const specifier = process.argv[2] ?? '@agent-assistant/harness';
const TURNS = Number(process.argv[3] ?? 1000);
const { createHarness, createOpenAICompatibleModel } = await import(specifier);

const server = fork(new URL('./loopback-provider.mjs', import.meta.url));
const [{ port }] = await once(server, 'message');
let arrived = 0;
let waiter;
server.on('message', (message) => {
  arrived = message.arrived ?? arrived;
  if (waiter !== undefined && arrived >= waiter.count) waiter.resolve();
});
const arrivals = (count) => new Promise((resolve) => {
  waiter = { count, resolve };
  if (arrived >= count) resolve();
});

function heapUsed() {
  for (let index = 0; index < 4; index += 1) globalThis.gc();
  return process.memoryUsage().heapUsed;
}

async function measure(label, start) {
  arrived = 0;
  await new Promise((resolve) => setTimeout(resolve, 50));
  const before = heapUsed();
  const pending = [];
  for (let index = 0; index < TURNS; index += 1) pending.push(start(index));
  await arrivals(TURNS);
  const during = heapUsed();
  server.send('release');
  await Promise.all(pending);
  const after = heapUsed();
  return { label, perTurnBytes: (during - Math.max(before, after)) / TURNS, before, during, after };
}

const baseUrl = `http://127.0.0.1:${port}/v1`;
const model = createOpenAICompatibleModel({ baseUrl, model: 'bench', apiKey: 'bench-key-0123456789' });
const harness = createHarness({ model });
const input = (index) => ({
  assistantId: 'bench',
  turnId: `turn-${index}`,
  message: { id: `m-${index}`, text: 'What is 1 + 2 + 3?', receivedAt: '2026-01-01T00:00:00.000Z' },
  instructions: { systemPrompt: 'bench' },
});
const runTurn = async (index) => {
  const result = await harness.runTurn(input(index));
  if (result.outcome !== 'completed') throw new Error(`turn ended ${result.stopReason}: ${JSON.stringify(result.error)}`);
};
const body = JSON.stringify({ model: 'bench', messages: [{ role: 'system', content: 'bench' }, { role: 'user', content: 'What is 1 + 2 + 3?' }] });
const bareFetch = async () => {
  const response = await fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer bench-key-0123456789' },
    body,
  });
  await response.json();
};

// Warm up both paths (connections, JIT), then measure each twice, interleaved.
await measure('warm-up', runTurn);
await measure('warm-up', bareFetch);
const rows = [];
for (let round = 0; round < 2; round += 1) {
  rows.push(await measure('harness.runTurn', runTurn));
  rows.push(await measure('bare fetch', bareFetch));
}
server.send('exit');
console.log(JSON.stringify({ turns: TURNS, rows }));
