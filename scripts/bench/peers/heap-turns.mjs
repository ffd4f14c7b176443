// node --expose-gc heap-turns.mjs <harness module specifier or file URL> [turns]
// Heap per in-flight turn: TURNS concurrent one-step turns, each held mid-flight until all are, then
// released. heapUsed (after gc) with all in flight, minus the larger of before and after (taken 50 ms
// after the last turn settled, once its sockets' 'close' events ran), / TURNS.
// Variants, interleaved in the same run:
//  - createHarness + createOpenAICompatibleModel against a loopback chat-completions server (a child
//    process, so its sockets are not in this heap);
//  - a bare `fetch` POST of the same request to the same server (what undici alone holds);
//  - the same turn with `fetch: createNodeHttpFetch()` (node:http with a keep-alive agent), when the
//    harness build exports it, and a bare `node:http` POST with a keep-alive agent (what node:http alone holds);
//  - the same turn with an in-memory model that waits on a promise (the loop's own share).
import { fork } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';

const specifier = process.argv[2] ?? '@agent-assistant/harness';
const TURNS = Number(process.argv[3] ?? 1000);
const { createHarness, createOpenAICompatibleModel, createNodeHttpFetch } = await import(specifier);

const server = fork(new URL('./loopback-provider.mjs', import.meta.url));
const [{ port }] = await once(server, 'message');
let arrivedAtServer = 0;
let onArrival = () => undefined;
server.on('message', (message) => {
  arrivedAtServer = message.arrived ?? arrivedAtServer;
  onArrival();
});

function heapUsed() {
  for (let index = 0; index < 4; index += 1) globalThis.gc();
  return process.memoryUsage().heapUsed;
}

/** A variant: `start(index)` begins one turn; `allInFlight()` resolves when every turn waits; `release()` lets them finish. */
async function measure(label, variant) {
  await new Promise((resolve) => setTimeout(resolve, 50));
  const before = heapUsed();
  const pending = [];
  for (let index = 0; index < TURNS; index += 1) pending.push(variant.start(index));
  await variant.allInFlight();
  const during = heapUsed();
  variant.release();
  await Promise.all(pending);
  // Let the settled requests' 'close' events run, so 'after' holds no leftovers of the turns.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const after = heapUsed();
  return { label, perTurnBytes: (during - Math.max(before, after)) / TURNS, before, during, after };
}

const viaServer = (start) => ({
  start,
  allInFlight: () =>
    new Promise((resolve) => {
      onArrival = () => {
        if (arrivedAtServer >= TURNS) resolve();
      };
      onArrival();
    }),
  release: () => {
    arrivedAtServer = 0;
    server.send('release');
  },
});

const input = (index) => ({
  assistantId: 'bench',
  turnId: `turn-${index}`,
  message: { id: `m-${index}`, text: 'What is 1 + 2 + 3?', receivedAt: '2026-01-01T00:00:00.000Z' },
  instructions: { systemPrompt: 'bench' },
});
const completed = (result) => {
  if (result.outcome !== 'completed') throw new Error(`turn ended ${result.stopReason}: ${JSON.stringify(result.error)}`);
};

const baseUrl = `http://127.0.0.1:${port}/v1`;
const httpHarness = createHarness({ model: createOpenAICompatibleModel({ baseUrl, model: 'bench', apiKey: 'bench-key-0123456789' }) });
const httpTurns = viaServer(async (index) => completed(await httpHarness.runTurn(input(index))));

const body = JSON.stringify({ model: 'bench', messages: [{ role: 'system', content: 'bench' }, { role: 'user', content: 'What is 1 + 2 + 3?' }] });
const bareFetches = viaServer(async () => {
  const response = await fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer bench-key-0123456789' },
    body,
  });
  await response.json();
});

const nodeHttpHarness =
  createNodeHttpFetch === undefined
    ? undefined
    : createHarness({ model: createOpenAICompatibleModel({ baseUrl, model: 'bench', apiKey: 'bench-key-0123456789', fetch: createNodeHttpFetch() }) });
const nodeHttpTurns = viaServer(async (index) => completed(await nodeHttpHarness.runTurn(input(index))));

const agent = new http.Agent({ keepAlive: true });
const bareNodeHttp = viaServer(
  () =>
    new Promise((resolve, reject) => {
      const request = http.request(
        `${baseUrl}/chat/completions`,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', authorization: 'Bearer bench-key-0123456789', 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          const chunks = [];
          response.on('data', (chunk) => chunks.push(chunk));
          response.on('end', () => {
            JSON.parse(Buffer.concat(chunks).toString('utf8'));
            resolve();
          });
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    }),
);

let gate;
let waiting = 0;
let onWaiting = () => undefined;
const resetGate = () => {
  let open;
  gate = { promise: new Promise((resolve) => (open = resolve)), open };
};
resetGate();
const gatedHarness = createHarness({
  model: {
    async nextStep() {
      waiting += 1;
      onWaiting();
      await gate.promise;
      return { type: 'final_answer', text: '6' };
    },
  },
});
const inMemoryTurns = {
  start: async (index) => completed(await gatedHarness.runTurn(input(index))),
  allInFlight: () =>
    new Promise((resolve) => {
      onWaiting = () => {
        if (waiting >= TURNS) resolve();
      };
      onWaiting();
    }),
  release: () => {
    waiting = 0;
    const { open } = gate;
    resetGate();
    open();
  },
};

const variants = [
  ['harness.runTurn', httpTurns],
  ['bare fetch', bareFetches],
  ['harness.runTurn, in-memory model', inMemoryTurns],
  ...(nodeHttpHarness === undefined ? [] : [['harness.runTurn, fetch: createNodeHttpFetch()', nodeHttpTurns]]),
  ['bare node:http POST', bareNodeHttp],
];
for (const [label, variant] of variants) await measure(`warm-up ${label}`, variant);
const rows = [];
for (let round = 0; round < 2; round += 1) for (const [label, variant] of variants) rows.push(await measure(label, variant));
server.send('exit');
console.log(JSON.stringify({ turns: TURNS, rows }));
