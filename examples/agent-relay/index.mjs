// npm run start --workspace=examples/agent-relay — the orchestrator side of "bring your own harness":
// 1. offline: AgentRelayExecutionAdapter ↔ a worker bridge running a bash script, over the
//    in-memory relay of the testing kit (the same messages the broker would carry);
//    1b. the same under streamTurn: the worker's live events (text deltas, tool activity) arrive first;
// 2. shorthand and timeouts: a worker that answers `{ status: "error" }` ends the turn at once,
//    a worker that never answers ends it failed/timeout and gets a cancel message;
// 3. with a real broker: when a broker's connection.json is found from this directory (start one
//    with `agent-relay up`, and a worker with `agent-assistant-worker --cli claude`), one real turn
//    (needs the optional peer: npm install @agent-relay/harness-driver; this monorepo has it).
import { AgentRelayExecutionAdapter, createHarness } from '@agent-assistant/harness';
import { createMemoryRelay } from '@agent-assistant/harness/testing';
import { createBashCliRunner, createRelayWorkerBridge } from '@agent-assistant/harness/worker-bridge';

const input = (turnId, text) => ({
  assistantId: 'relay-demo',
  turnId,
  message: { id: `${turnId}-message`, text, receivedAt: new Date().toISOString() },
  instructions: { systemPrompt: 'You are a concise assistant.' },
});

// 1. Offline round trip: the worker's bash script upper-cases the prompt it was given.
const relay = createMemoryRelay();
const bridge = await createRelayWorkerBridge({
  relay,
  channelId: 'demo',
  workerName: 'demo-worker',
  runner: createBashCliRunner({ script: "tail -n 1 | tr a-z A-Z" }),
  timeoutMs: 10_000,
});
const adapter = new AgentRelayExecutionAdapter({ relay, channelId: 'demo', workerName: 'demo-worker', orchestratorName: 'demo-chat' });
const harness = createHarness({ backend: adapter });
const first = await harness.runTurn(input('turn-1', 'hello over the relay'));
console.log('1. outcome:', first.outcome, '| answer:', JSON.stringify(first.assistantMessage?.text));
console.log('   relay:', JSON.stringify(first.metadata?.backendMetadata?.relay ?? {}));
await bridge.dispose();

// 1b. Live events: under streamTurn the worker sends what its runner reports (here a runner that
//     writes its answer word by word) ahead of the result; the CLI runners report the CLI's own events.
//     What a runner reports within 40 ms travels in one message, adjacent text deltas merged.
const streamingBridge = await createRelayWorkerBridge({
  relay,
  channelId: 'demo',
  workerName: 'streaming-worker',
  runner: {
    id: 'word-by-word',
    async run({ request, onEvent }) {
      const words = `You said: ${request.message.text}`.split(' ');
      onEvent?.({ type: 'tool_activity', phase: 'started', toolCallId: 'think-1', name: 'think', kind: 'think' });
      for (const [index, word] of words.entries()) onEvent?.({ type: 'text_delta', text: index === 0 ? word : ` ${word}` });
      return { backendId: 'word-by-word', status: 'completed', output: { text: words.join(' ') } };
    },
  },
  timeoutMs: 10_000,
});
const streaming = createHarness({
  backend: new AgentRelayExecutionAdapter({ relay, channelId: 'demo', workerName: 'streaming-worker', orchestratorName: 'demo-chat' }),
});
const seen = [];
for await (const event of streaming.streamTurn(input('turn-1b', 'stream this please'))) {
  if (event.type === 'text_delta') seen.push(JSON.stringify(event.text));
  if (event.type === 'tool_activity') seen.push(`[${event.name} ${event.phase}]`);
  if (event.type === 'result') {
    console.log('1b. live:', seen.join(' '), '| answer:', JSON.stringify(event.result.assistantMessage?.text));
    console.log('    events:', JSON.stringify(event.result.metadata?.backendMetadata?.relay?.events ?? {}));
  }
}
await streamingBridge.dispose();

// 2. A shorthand failure ends the wait at once; silence ends it at the timeout, with a cancel.
const cancels = [];
relay.subscribe('silent-worker', (message) => {
  if (message.text.includes('execution-cancel')) cancels.push(JSON.parse(message.text).reason);
});
relay.subscribe('failing-worker', (message) => {
  const request = JSON.parse(message.text);
  void relay.send({
    from: 'failing-worker',
    to: message.from,
    threadId: message.threadId,
    text: JSON.stringify({ type: 'agent-assistant.execution-result.v1', requestId: request.requestId, threadId: request.threadId, status: 'error', error: 'not logged in' }),
  });
});
const failing = new AgentRelayExecutionAdapter({ relay, workerName: 'failing-worker', orchestratorName: 'demo-chat', timeoutMs: 60_000 });
const failed = await failing.execute({ ...input('turn-2', 'anyone?'), threadId: 'thread-2' });
console.log('2. shorthand failure:', failed.status, '-', failed.error?.message);
const silent = new AgentRelayExecutionAdapter({ relay, workerName: 'silent-worker', orchestratorName: 'demo-chat', timeoutMs: 200 });
const timedOut = await silent.execute({ ...input('turn-3', 'hello?'), threadId: 'thread-3' });
await new Promise((resolve) => setTimeout(resolve, 0)); // the cancel is sent after the result returns
console.log('   silence:', timedOut.status, timedOut.error?.code, `retryable=${timedOut.error?.retryable}`, '| cancel sent:', cancels.join(', '));

// 3. A real broker, if one runs here.
const real = new AgentRelayExecutionAdapter({
  cwd: process.cwd(),
  channelId: process.env.RELAY_CHANNEL ?? 'specialists',
  workerName: process.env.RELAY_WORKER ?? 'specialist-worker',
  orchestratorName: 'example-orchestrator',
  timeoutMs: 120_000,
});
const viaBroker = await createHarness({ backend: real }).runTurn(input('turn-4', 'Say hello in five words.'));
if (viaBroker.outcome === 'completed') {
  console.log('3. through the broker:', JSON.stringify(viaBroker.assistantMessage?.text));
} else {
  console.log('3. no broker turn:', String(viaBroker.metadata?.error?.message ?? viaBroker.stopReason).replaceAll('\n', '\n   '));
}
await real.shutdown();
