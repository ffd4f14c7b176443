// A worker that speaks the protocol badly on purpose, run as a child process with the built
// package: it answers each request according to a word in its message (MALFORMED, SHORTHAND_OK,
// SHORTHAND_FAIL, WRONG_SENDER, DUPLICATE), through the real broker found in argv[2].
// Prints "ready" once subscribed; stops on SIGTERM.
import { RelayAdapter } from '@agent-assistant/harness/agent-relay';
import { decodeExecutionRequestMessage, encodeExecutionResultMessage } from '@agent-assistant/harness';

const [cwd, workerName] = process.argv.slice(2);
const relay = new RelayAdapter({ cwd });
await relay.start();

const canonical = (message, text) =>
  encodeExecutionResultMessage({
    requestId: message.requestId,
    turnId: message.turnId,
    threadId: message.threadId,
    sentAt: new Date().toISOString(),
    executionResult: { backendId: 'raw-worker', status: 'completed', output: { text } },
  });

const answers = {
  MALFORMED: (message) => [[workerName, JSON.stringify({ type: 'agent-assistant.execution-result.v1', requestId: message.requestId, executionResult: 'nope' })]],
  SHORTHAND_OK: (message) => [
    [workerName, JSON.stringify({ type: 'execution-result', turnId: message.turnId, threadId: message.threadId, result: { status: 'ok', answer: 'shorthand answer' } })],
  ],
  SHORTHAND_FAIL: (message) => [
    [workerName, JSON.stringify({ type: 'agent-assistant.execution-result.v1', requestId: message.requestId, turnId: message.turnId, threadId: message.threadId, status: 'error', error: 'the worker broke' })],
  ],
  WRONG_SENDER: (message) => [['impostor', canonical(message, 'from the impostor')]],
  DUPLICATE: (message) => [
    [workerName, canonical(message, 'once')],
    [workerName, canonical(message, 'twice')],
  ],
};

const stop = relay.subscribe(workerName, (inbound) => {
  const decoded = decodeExecutionRequestMessage(inbound.text);
  if (!decoded.ok) return;
  const message = decoded.message;
  const word = Object.keys(answers).find((key) => message.request.message.text.includes(key));
  if (word === undefined) return;
  void (async () => {
    for (const [from, text] of answers[word](message)) {
      await relay.send({ from, to: inbound.from, text, threadId: message.threadId }).catch((error) => process.stderr.write(`send failed: ${error.message}\n`));
    }
  })();
});

process.once('SIGTERM', () => {
  stop();
  void relay.shutdown().then(() => process.stdout.write('stopped\n'));
});
process.stdout.write('ready\n');
