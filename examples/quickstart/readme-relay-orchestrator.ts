import { AgentRelayExecutionAdapter, createHarness } from '@agent-assistant/harness';

const adapter = new AgentRelayExecutionAdapter({
  cwd: process.cwd(), // broker discovery
  channelId: 'nightcto-local-byoh',
  workerName: 'nightcto-local-harness', // where requests go; only its replies count
  orchestratorName: 'nightcto-local-chat',
  timeoutMs: 120_000,
});
const harness = createHarness({ backend: adapter });
const result = await harness.runTurn({
  assistantId: 'nightcto',
  turnId: 'turn-1',
  message: { id: 'message-1', text: 'Summarise the open pull requests.', receivedAt: new Date().toISOString() },
  instructions: { systemPrompt: 'You are a concise engineering assistant.' },
});
console.log(result.outcome, result.assistantMessage?.text);
await adapter.shutdown(); // closes the RelayAdapter the adapter started
