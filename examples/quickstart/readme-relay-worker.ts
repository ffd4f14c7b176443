import { RelayAdapter } from '@agent-assistant/harness/agent-relay';
import { createClaudeCliRunner, createRelayWorkerBridge } from '@agent-assistant/harness/worker-bridge';

const relay = new RelayAdapter({ cwd: process.cwd(), channels: ['specialists'] }); // broker discovery
await relay.start();
const bridge = await createRelayWorkerBridge({
  relay,
  channelId: 'specialists',
  workerName: 'specialist-worker', // the orchestrator's adapter sends to this name
  runner: createClaudeCliRunner(), // `claude -p` on this machine; its session id comes back as the continuation
  timeoutMs: 120_000,
});
console.log('worker ready');
process.once('SIGTERM', () => {
  void bridge.dispose().then(() => relay.shutdown()); // finish or stop runs in progress, then disconnect
});
