import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import type { ExecutionRequest } from '../../execution/types.js';
import { createTurnInput } from '../../testing/create-turn-input.js';
import { startBrokerRig, type BrokerRig } from '../__fixtures__/broker-rig.js';
import { RelayAdapter } from '../broker-client/relay-adapter.js';
import { startResponder, type Responder } from '../__fixtures__/start-responder.js';
import { AgentRelayExecutionAdapter } from './agent-relay-execution-adapter.js';
import { AGENT_RELAY_EXECUTION_RESULT_TYPE } from '../protocol/message-types.js';

// The adapter in this process, a minimal responder on its own RelayAdapter (its own broker
// client), the real agent-relay-broker 9.1.6 between them. The worker bridge in a child process
// is tested in src/worker-bridge.

const WORKER = 'relay-test-worker';
const CHAT = 'relay-test-chat';

let rig: BrokerRig;
let workerRelay: RelayAdapter;
let responder: Responder | undefined;
const adapters: AgentRelayExecutionAdapter[] = [];

const activeSockets = () => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPSocketWrap').length;
let socketsBefore = 0;

beforeEach(async () => {
  vi.stubEnv('AGENT_RELAY_STATE_DIR', undefined as unknown as string);
  socketsBefore = activeSockets();
  rig = await startBrokerRig();
  workerRelay = new RelayAdapter({ cwd: rig.cwd });
  await workerRelay.start();
});

afterEach(async () => {
  responder?.stop();
  responder = undefined;
  await Promise.all(adapters.splice(0).map((adapter) => adapter.shutdown()));
  await workerRelay.shutdown();
  await rig.stop();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  // Every socket to the broker and the stand-in is gone once both are down.
  await vi.waitFor(() => expect(activeSockets()).toBeLessThanOrEqual(socketsBefore), { timeout: 5_000 });
});

function adapter(options: Partial<ConstructorParameters<typeof AgentRelayExecutionAdapter>[0]> = {}) {
  const created = new AgentRelayExecutionAdapter({ cwd: rig.cwd, workerName: WORKER, orchestratorName: CHAT, channelId: 'specialists', ...options });
  adapters.push(created);
  return created;
}

function request(index = 0): ExecutionRequest {
  return {
    assistantId: 'assistant-1',
    turnId: `turn-${index}`,
    threadId: `thread-${index}`,
    message: { id: `m-${index}`, text: `question ${index}`, receivedAt: '2026-01-01T00:00:00.000Z' },
    instructions: { systemPrompt: 'Be brief.' },
  };
}

const completed = (text: string) => ({ result: { backendId: 'broker-test-worker', status: 'completed' as const, output: { text } } });

describe('AgentRelayExecutionAdapter through the real broker', () => {
  it('discovers the broker, loads RelayAdapter lazily and completes a turn', async () => {
    responder = startResponder(workerRelay, WORKER, (message) => completed(`answer to ${message.request.message.text}`));
    const result = await adapter().execute(request());
    expect(result).toMatchObject({ status: 'completed', output: { text: 'answer to question 0' }, metadata: { relay: { workerBackendId: 'broker-test-worker', threadId: 'thread-0' } } });
    expect(responder.requests[0]?.replyTo).toEqual({ agentId: CHAT, channelId: 'specialists' });
  });

  it('runs createHarness({ backend: adapter }) end to end', async () => {
    responder = startResponder(workerRelay, WORKER, (message) => completed(`echo ${message.request.message.text}`));
    const harness = createHarness({ backend: adapter() });
    const result = await harness.runTurn(createTurnInput({ text: 'over the broker' }));
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'echo over the broker' } });
  });

  it('gives 20 concurrent turns their own replies', async () => {
    responder = startResponder(workerRelay, WORKER, (message) => completed(`answer to ${message.request.message.text}`));
    const relayAdapter = adapter();
    const results = await Promise.all(Array.from({ length: 20 }, (_, index) => relayAdapter.execute(request(index))));
    results.forEach((result, index) => expect(result.output?.text).toBe(`answer to question ${index}`));
  });

  it('ignores a reply from the wrong sender and ends at once on a shorthand failure', async () => {
    responder = startResponder(workerRelay, WORKER, async (message) => {
      const body = (text: string) => JSON.stringify({ type: AGENT_RELAY_EXECUTION_RESULT_TYPE, requestId: message.requestId, threadId: message.threadId, status: 'ok', answer: text });
      await workerRelay.send({ from: 'impostor', to: CHAT, threadId: message.threadId, text: body('forged') });
      await workerRelay.send({ from: WORKER, to: CHAT, threadId: message.threadId, text: 'not json at all' });
      return { raw: JSON.stringify({ type: AGENT_RELAY_EXECUTION_RESULT_TYPE, requestId: message.requestId, threadId: message.threadId, status: 'failed', error: 'runner crashed' }) };
    });
    const result = await adapter({ timeoutMs: 600_000 }).execute(request());
    expect(result).toMatchObject({ status: 'failed', error: { message: 'runner crashed' }, metadata: { relay: { ignoredMessages: { wrong_sender: 1, not_json: 1 } } } });
  });

  it('times out as failed/timeout and sends the worker a cancel', async () => {
    responder = startResponder(workerRelay, WORKER, () => undefined);
    const result = await adapter({ timeoutMs: 300 }).execute(request());
    expect(result).toMatchObject({ status: 'failed', error: { code: 'timeout', retryable: true }, metadata: { relay: { workerName: WORKER } } });
    await vi.waitFor(() => expect(responder?.cancels[0]).toMatchObject({ reason: 'timeout', requestId: responder?.requests[0]?.requestId }));
  });

  it('fails without retry, listing the paths tried, when no broker is found', async () => {
    const result = await adapter({ cwd: `${rig.cwd}/no-broker-here` }).execute(request());
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: false } });
    expect(result.error?.message).toContain(`${rig.cwd}/no-broker-here/.agentworkforce/relay/connection.json (not found)`);
    expect(result.error?.message).toContain(`${rig.cwd}/no-broker-here/.agent-relay/connection.json (not found)`);
  });

  it('ends a waiting turn with a structured failure when the broker is killed mid-turn', async () => {
    const relayAdapter = adapter({ timeoutMs: 600_000 });
    // The broker dies only once it has accepted the request (the orchestrator's send settled), so
    // the turn is truly waiting for the reply; a failed send is reported differently ('Sending the request … failed').
    const send = RelayAdapter.prototype.send;
    let accepted: Promise<void> | undefined;
    vi.spyOn(RelayAdapter.prototype, 'send').mockImplementation(function (this: RelayAdapter, message) {
      const sending = send.call(this, message);
      if (message.from === CHAT) accepted ??= sending.then(() => undefined, () => undefined);
      return sending;
    });
    let killed: Promise<void> | undefined;
    responder = startResponder(workerRelay, WORKER, () => {
      killed = accepted?.then(() => rig.killBroker());
      return undefined;
    });
    const result = await relayAdapter.execute(request());
    await killed;
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: true } });
    expect(result.error?.message).toMatch(/Lost the connection to the relay/);
    const after = await relayAdapter.execute(request(1));
    expect(after).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: true } });
  });
});
