// node scripts/bench/relay-bench.mjs — round trip orchestrator → worker → orchestrator through the
// real agent-relay-broker (9.1.6, offline against the test suite's loopback Relaycast stand-in):
//   raw:  HarnessDriverClient.sendMessage → a second client's onEvent → sendMessage back → onEvent
//   ours: AgentRelayExecutionAdapter.execute → RelayAdapter → broker → RelayAdapter →
//         createRelayWorkerBridge (an instant in-memory ExecutionAdapter as its runner) → reply → result
// Both in this process, interleaved turn by turn, same broker. Uses the built package (npm run build).
// BENCH_RELAY_TURNS sets the measured round trips per variant (default 200).
import { mkdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { AgentRelayExecutionAdapter, negotiateCapabilities } from '@agent-assistant/harness';
import { RelayAdapter } from '@agent-assistant/harness/agent-relay';
import { createRelayWorkerBridge } from '@agent-assistant/harness/worker-bridge';
import { HarnessDriverClient } from '@agent-relay/harness-driver';

const TURNS = Number(process.env.BENCH_RELAY_TURNS ?? 200);
const WARMUP = 20;
const root = fileURLToPath(new URL('../../', import.meta.url));

// The broker rig is the test suite's TypeScript fixture; bundle it (Node builtins only) to run it here.
const cache = `${root}node_modules/.cache/agent-assistant-bench`;
await mkdir(cache, { recursive: true });
await build({
  entryPoints: [`${root}packages/harness/src/agent-relay/__fixtures__/broker-rig.ts`],
  outfile: `${cache}/broker-rig.mjs`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  logLevel: 'silent',
});
const { startBrokerRig } = await import(pathToFileURL(`${cache}/broker-rig.mjs`).href);

delete process.env.AGENT_RELAY_STATE_DIR;
const rig = await startBrokerRig();
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

try {
  // --- raw: two broker clients echoing on a thread ---
  const rawChat = new HarnessDriverClient({ baseUrl: rig.baseUrl, apiKey: rig.apiKey });
  const rawWorker = new HarnessDriverClient({ baseUrl: rig.baseUrl, apiKey: rig.apiKey });
  rawWorker.onEvent((event) => {
    if (event.kind === 'relay_inbound' && event.target === 'raw-worker') {
      void rawWorker.sendMessage({ to: 'raw-chat', from: 'raw-worker', text: event.body, threadId: event.thread_id ?? undefined });
    }
  });
  const waiting = new Map();
  rawChat.onEvent((event) => {
    if (event.kind === 'relay_inbound' && event.target === 'raw-chat') waiting.get(event.thread_id)?.(event.body);
  });
  rawChat.connectEvents();
  rawWorker.connectEvents();
  let rawSequence = 0;
  const rawRoundTrip = () =>
    new Promise((resolve, reject) => {
      const threadId = `raw-${++rawSequence}`;
      waiting.set(threadId, () => {
        waiting.delete(threadId);
        resolve();
      });
      rawChat.sendMessage({ to: 'raw-worker', from: 'raw-chat', text: `ping ${threadId}`, threadId }).catch(reject);
    });

  // --- ours: adapter → bridge → adapter ---
  const workerRelay = new RelayAdapter({ cwd: rig.cwd });
  await workerRelay.start();
  const capabilities = { toolUse: 'none', structuredToolCalls: false, continuationSupport: 'none', approvalInterrupts: 'none', traceDepth: 'minimal', attachments: false };
  const echo = {
    backendId: 'bench-echo',
    describeCapabilities: () => capabilities,
    negotiate: (request) => negotiateCapabilities(capabilities, request),
    execute: async (request) => ({ backendId: 'bench-echo', status: 'completed', output: { text: request.message.text } }),
  };
  const bridge = await createRelayWorkerBridge({ relay: workerRelay, channelId: 'bench', workerName: 'bench-worker', runner: echo, concurrency: 4 });
  const adapter = new AgentRelayExecutionAdapter({ cwd: rig.cwd, channelId: 'bench', workerName: 'bench-worker', orchestratorName: 'bench-chat', timeoutMs: 10_000 });
  let oursSequence = 0;
  const oursRoundTrip = async () => {
    const index = ++oursSequence;
    const result = await adapter.execute({
      assistantId: 'bench',
      turnId: `turn-${index}`,
      threadId: `ours-${index}`,
      message: { id: `m-${index}`, text: `ping ${index}`, receivedAt: new Date().toISOString() },
      instructions: { systemPrompt: 'bench' },
    });
    if (result.status !== 'completed' || result.output?.text !== `ping ${index}`) throw new Error(`bench turn failed: ${JSON.stringify(result.error ?? result.status)}`);
  };

  const timed = async (roundTrip) => {
    const started = process.hrtime.bigint();
    await roundTrip();
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  for (let index = 0; index < WARMUP; index += 1) {
    await rawRoundTrip();
    await oursRoundTrip();
  }
  const raw = [];
  const ours = [];
  for (let index = 0; index < TURNS; index += 1) {
    // Alternate which goes first so neither always follows the other.
    if (index % 2 === 0) {
      raw.push(await timed(rawRoundTrip));
      ours.push(await timed(oursRoundTrip));
    } else {
      ours.push(await timed(oursRoundTrip));
      raw.push(await timed(rawRoundTrip));
    }
  }

  console.log(`\nAgent Relay round trip through agent-relay-broker 9.1.6 — ${TURNS} interleaved round trips each, Node ${process.version}`);
  console.log('| variant | median ms | p90 ms | min ms |');
  console.log('|---|---:|---:|---:|');
  for (const [label, values] of [
    ['raw HarnessDriverClient echo (two clients)', raw],
    ['AgentRelayExecutionAdapter → worker bridge → adapter', ours],
  ]) {
    console.log(`| ${label} | ${median(values).toFixed(2)} | ${percentile(values, 0.9).toFixed(2)} | ${Math.min(...values).toFixed(2)} |`);
  }
  const overhead = median(ours) - median(raw);
  console.log(`\nOverhead at the median: ${overhead.toFixed(2)} ms (goal ≤ 5 ms)`);

  bridge.dispose();
  await adapter.shutdown();
  await workerRelay.shutdown();
  rawChat.disconnect();
  rawWorker.disconnect();
} finally {
  await rig.stop();
}
