// npm start --workspace=examples/byoh-worker — a worker for "bring your own harness": it takes the
// turns an orchestrator sends over Agent Relay (see examples/agent-relay) and runs them with a
// CLI on this machine, replying on the same thread.
//
//   agent-relay up                      # a broker for this directory (writes .agentworkforce/relay/connection.json)
//   BYOH_CLI=claude npm start           # claude | codex | opencode | gemini | bash (default bash: echoes the prompt)
//
// The same thing as a command: npx agent-assistant-worker --cli claude --worker-name specialist-worker
import { RelayAdapter } from '@agent-assistant/harness/agent-relay';
import {
  createAdapterRunner,
  createBashCliRunner,
  createClaudeCliRunner,
  createCodexCliRunner,
  createGeminiCliRunner,
  createOpenCodeCliRunner,
  createRelayWorkerBridge,
} from '@agent-assistant/harness/worker-bridge';
import { createFakeExecutionAdapter } from '@agent-assistant/harness/testing';

const cwd = process.env.BYOH_CWD ?? process.cwd();
const channelId = process.env.RELAY_CHANNEL ?? 'specialists';
const workerName = process.env.RELAY_WORKER ?? 'specialist-worker';
const model = process.env.RELAY_MODEL;
const cli = process.env.BYOH_CLI ?? 'bash';

// Every runner is built on the package's local backends: no shell, an environment allow-list
// (secrets must be passed in `env`), output caps, and the whole process group stopped on a
// timeout, a cancel, or when this worker dies.
const runners = {
  claude: () => createClaudeCliRunner({ cwd, ...(model ? { model } : {}) }),
  codex: () => createCodexCliRunner({ cwd, sandbox: 'read-only', ...(model ? { model } : {}) }),
  opencode: () => createOpenCodeCliRunner({ cwd, ...(model ? { model } : {}) }),
  gemini: () => createGeminiCliRunner({ cwd, ...(model ? { model } : {}) }),
  bash: () => createBashCliRunner({ cwd, script: 'echo "worker $(hostname) got $(wc -c) bytes of prompt"' }),
  // Any ExecutionAdapter can be what the worker runs, e.g. an HTTP backend or, here, a fake.
  fake: () => createAdapterRunner(createFakeExecutionAdapter({ steps: [{ status: 'completed', output: { text: 'a canned answer' } }] })),
};
if (!(cli in runners)) {
  console.error(`BYOH_CLI must be one of ${Object.keys(runners).join(', ')}`);
  process.exit(2);
}

const relay = new RelayAdapter({ cwd, channels: [channelId] });
try {
  await relay.start();
} catch (error) {
  console.error(`No broker to work for: ${error.message}`);
  console.error('Start one in this directory with `agent-relay up`, then run this again.');
  process.exit(1);
}

const bridge = await createRelayWorkerBridge({
  relay,
  channelId,
  workerName,
  runner: runners[cli](),
  timeoutMs: Number(process.env.BYOH_WORKER_TIMEOUT_MS ?? 120_000),
  concurrency: 2,
  onEvent(event) {
    if (event.type === 'request_finished') {
      console.log(`${event.turnId} from ${event.from}: ${event.status}${event.errorCode ? ` (${event.errorCode})` : ''} in ${event.durationMs} ms`);
    } else if (event.type === 'message_ignored') {
      console.log(`ignored a message from ${event.from}: ${event.reason}`);
    }
  },
});
console.log(`${workerName} is working on channel ${channelId} with ${cli}; Ctrl-C to stop.`);

let stopping = false;
const stop = async () => {
  if (stopping) {
    await bridge.dispose({ timeoutMs: 0 }); // a second Ctrl-C stops runs in progress at once
    return;
  }
  stopping = true;
  console.log('stopping…', bridge.stats());
  await bridge.dispose(); // no new work; runs in progress finish (up to 30 s) and reply
  await relay.shutdown();
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
