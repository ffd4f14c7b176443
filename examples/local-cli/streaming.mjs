// npm run streaming --workspace=examples/local-cli — live events and steering, offline:
// 1. streamTurn over a LocalCommand backend that reports a plan, a command and text deltas while it runs,
// 2. steering a backend that takes input mid-turn (an in-process one, `steer: true`),
// 3. steering a backend that cannot: the input comes back `steer_unsupported`, never lost.
import { fileURLToPath } from 'node:url';
import { buildLocalPrompt, createHarness, createSteering, LocalCommandExecutionAdapter } from '@agent-assistant/harness';

const script = fileURLToPath(new URL('./working-cli.mjs', import.meta.url));
const input = (turnId, text) => ({
  assistantId: 'streaming-demo',
  turnId,
  message: { id: `${turnId}-message`, text, receivedAt: new Date().toISOString() },
  instructions: { systemPrompt: 'You are a concise assistant.' },
});
const plain = { toolUse: 'native-iterative', structuredToolCalls: false, continuationSupport: 'none', approvalInterrupts: 'none', traceDepth: 'minimal', attachments: false };

const workingCli = new LocalCommandExecutionAdapter({
  backendId: 'working-cli',
  command: process.execPath,
  capabilities: { ...plain, streaming: true },
  buildArgs: () => [script],
  stdin: (request) => buildLocalPrompt(request),
  // One reader per run: each stdout line becomes zero or more live events.
  streamEvents: () => (line) => {
    const event = JSON.parse(line);
    if (event.delta) return [{ type: 'text_delta', text: event.delta }];
    if (event.running) return [{ type: 'tool_activity', phase: 'started', toolCallId: event.id, name: 'shell', kind: 'command', command: event.running }];
    if (event.finished) return [{ type: 'tool_activity', phase: 'finished', toolCallId: event.finished, name: 'shell', kind: 'command', status: event.ok ? 'succeeded' : 'failed' }];
    if (event.plan) return [{ type: 'plan_update', entries: event.plan.map((entry) => ({ content: entry.step, status: entry.done ? 'completed' : 'pending' })) }];
    return [];
  },
  parseOutput: (stdout) => {
    const last = stdout.trim().split('\n').map((line) => JSON.parse(line)).find((line) => line.answer !== undefined);
    return last === undefined ? null : { text: last.answer };
  },
});

console.log('=== 1. Live events from a backend ===');
const stream = createHarness({ backend: workingCli }).streamTurn(input('turn-1', 'How many words are in this prompt?'));
for await (const event of stream) {
  if (event.type === 'plan_update') console.log(`   plan: ${event.entries.map((entry) => `[${entry.status}] ${entry.content}`).join(', ')}`);
  if (event.type === 'tool_activity') console.log(`   ${event.phase === 'started' ? '$' : '✓'} ${event.command ?? event.name}${event.status ? ` (${event.status})` : ''}`);
  if (event.type === 'text_delta') console.log(`   delta: ${JSON.stringify(event.text)}`);
  if (event.type === 'result') console.log(`-> ${event.result.outcome}: ${event.result.assistantMessage?.text}`);
}

console.log('\n=== 2. Steering a backend that takes input mid-turn ===');
// An in-process backend that keeps working until the user says "done", folding in every input.
const listener = {
  backendId: 'listener',
  describeCapabilities: () => ({ ...plain, steer: true }),
  negotiate: () => ({ supported: true, degraded: false, reasons: [], effectiveCapabilities: { ...plain, steer: true } }),
  execute: (request, { steer } = {}) =>
    new Promise((resolve) => {
      const heard = [request.message.text];
      const detach = steer?.receive((message) => {
        heard.push(message.text);
        if (message.text === 'done') {
          detach();
          resolve({ backendId: 'listener', status: 'completed', output: { text: `I heard: ${heard.join(' / ')}` } });
        }
      });
    }),
};
const steering = createSteering();
const pending = createHarness({ backend: listener }).runTurn(input('turn-2', 'Plan a trip'), { steering });
for (const text of ['to Lisbon', 'in May', 'done']) console.log(`   steer(${JSON.stringify(text)}) -> ${(await steering.steer(text)).status}`);
const steered = await pending;
console.log(`-> ${steered.outcome}: ${steered.assistantMessage?.text} (metadata.steering: ${JSON.stringify(steered.metadata?.steering)})`);

console.log('\n=== 3. Steering a backend that cannot take it ===');
const unsupported = createSteering();
const oneShot = createHarness({ backend: workingCli }).runTurn(input('turn-3', 'Count again'), { steering: unsupported });
const outcome = await unsupported.steer('also count the letters');
console.log(`   steer -> ${outcome.status}: ${outcome.message}`);
console.log(`-> ${(await oneShot).outcome}; send the input as the next turn instead.`);
