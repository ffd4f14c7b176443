import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { MAX_ANSWER_CHARS } from '../../execution/answer-cap.js';
import type { ExecutionRequest } from '../../execution/types.js';
import { createMemoryRelay } from '../../testing/memory-relay.js';
import { createTurnInput } from '../../testing/create-turn-input.js';
import { startResponder, type Responder } from '../__fixtures__/start-responder.js';
import { AgentRelayExecutionAdapter, createAgentRelayExecutionAdapter } from './agent-relay-execution-adapter.js';
import { AGENT_RELAY_EXECUTION_RESULT_TYPE } from '../protocol/message-types.js';

const WORKER = 'test-worker';
const CHAT = 'test-chat';

function request(overrides: Partial<ExecutionRequest> = {}): ExecutionRequest {
  return {
    assistantId: 'assistant-1',
    turnId: 'turn-1',
    threadId: 'thread-1',
    message: { id: 'm-1', text: 'What is 2 + 2?', receivedAt: '2026-01-01T00:00:00.000Z' },
    instructions: { systemPrompt: 'Be brief.', developerPrompt: 'Answer in digits.' },
    context: { blocks: [{ id: 'b-1', label: 'facts', content: 'Arithmetic is base 10.' }] },
    ...overrides,
  };
}

const completed = (text: string) => ({ result: { backendId: 'byoh-worker:test', status: 'completed' as const, output: { text } } });

let responder: Responder | undefined;
afterEach(() => {
  responder?.stop();
  responder = undefined;
  vi.useRealTimers();
});

function setup(options: { timeoutMs?: number } = {}) {
  const relay = createMemoryRelay();
  const adapter = createAgentRelayExecutionAdapter({ relay, workerName: WORKER, orchestratorName: CHAT, channelId: 'specialists', ...options });
  return { relay, adapter };
}

describe('AgentRelayExecutionAdapter over the in-memory relay', () => {
  it('sends the whole request to the worker and returns its completed result with relay metadata', async () => {
    const { relay, adapter } = setup();
    responder = startResponder(relay, WORKER, () => completed('4'));
    const result = await adapter.execute(request());
    expect(result).toMatchObject({ backendId: 'agent-relay', status: 'completed', output: { text: '4' } });
    expect(result.metadata?.['relay']).toMatchObject({
      adapterBackendId: 'agent-relay',
      workerBackendId: 'byoh-worker:test',
      workerName: WORKER,
      orchestratorName: CHAT,
      channelId: 'specialists',
      threadId: 'thread-1',
      shorthand: false,
    });
    const sent = responder.requests[0];
    expect(sent).toMatchObject({ turnId: 'turn-1', threadId: 'thread-1', replyTo: { agentId: CHAT, channelId: 'specialists' } });
    expect(sent?.request.instructions).toEqual({ systemPrompt: 'Be brief.', developerPrompt: 'Answer in digits.' });
    expect(sent?.request.context?.blocks[0]?.content).toBe('Arithmetic is base 10.');
    expect(Date.parse(sent?.deadline ?? '')).toBeGreaterThan(Date.parse(sent?.sentAt ?? ''));
    expect(relay.sent[0]).toMatchObject({ from: CHAT, to: WORKER, threadId: 'thread-1', channelId: 'specialists' });
    expect(relay.subscriberCount(CHAT)).toBe(0);
  });

  it('cuts a worker answer longer than MAX_ANSWER_CHARS (a raised maxReplyChars lets one through) and marks it', async () => {
    const relay = createMemoryRelay();
    const adapter = createAgentRelayExecutionAdapter({ relay, workerName: WORKER, orchestratorName: CHAT, maxReplyChars: 6_000_000 });
    responder = startResponder(relay, WORKER, () => completed('w'.repeat(MAX_ANSWER_CHARS + 100_000)));
    const result = await adapter.execute(request());
    expect(result.status).toBe('completed');
    expect(result.output?.text).toBe('w'.repeat(MAX_ANSWER_CHARS));
    expect(result.metadata).toMatchObject({ answerTruncated: true });
  });

  it('uses the turn id as the thread when the request has none', async () => {
    const { relay, adapter } = setup();
    responder = startResponder(relay, WORKER, () => completed('ok'));
    const { threadId: _threadId, ...withoutThread } = request();
    const result = await adapter.execute(withoutThread);
    expect(result.status).toBe('completed');
    expect(responder.requests[0]?.threadId).toBe('turn-1');
  });

  it('runs a harness turn end to end', async () => {
    const { relay, adapter } = setup();
    responder = startResponder(relay, WORKER, (message) => completed(`echo: ${message.request.message.text}`));
    const harness = createHarness({ backend: adapter });
    const result = await harness.runTurn(createTurnInput({ text: 'hello relay' }));
    expect(result).toMatchObject({ outcome: 'completed', stopReason: 'answer_finalized', assistantMessage: { text: 'echo: hello relay' } });
  });

  it('returns the worker continuation so resumeTurn continues the same worker session', async () => {
    const { relay, adapter } = setup();
    responder = startResponder(relay, WORKER, (message) =>
      message.request.resume === undefined
        ? { result: { backendId: 'w', status: 'needs_clarification', output: { text: 'Which city?' }, continuation: { kind: 'cli-session', continuationId: 'session-42' } } }
        : completed(`resumed ${message.request.continuation?.continuationId ?? 'nothing'} with ${JSON.stringify(message.request.resume)}`),
    );
    const harness = createHarness({ backend: adapter });
    const paused = await harness.runTurn(createTurnInput({ text: 'Weather?' }));
    expect(paused.outcome).toBe('needs_clarification');
    expect(paused.continuation).toBeDefined();
    const resumed = await harness.resumeTurn(paused.continuation!, { type: 'clarification', answer: 'Paris' });
    expect(resumed.outcome).toBe('completed');
    expect(resumed.assistantMessage?.text).toContain('resumed session-42');
    expect(responder.requests[1]?.request.continuation).toEqual({ kind: 'cli-session', continuationId: 'session-42' });
  });

  it('accepts shorthand success: status "ok" plus answer', async () => {
    const { relay, adapter } = setup();
    responder = startResponder(relay, WORKER, (message) => ({
      raw: JSON.stringify({ type: AGENT_RELAY_EXECUTION_RESULT_TYPE, requestId: message.requestId, threadId: message.threadId, status: 'ok', answer: 'four' }),
    }));
    const result = await adapter.execute(request());
    expect(result).toMatchObject({ status: 'completed', output: { text: 'four' }, metadata: { normalizedFromRelayWorker: true, relay: { shorthand: true } } });
  });

  it('ends the wait at once on a shorthand failure (no timeout wait)', async () => {
    const { relay, adapter } = setup({ timeoutMs: 2_000_000_000 });
    responder = startResponder(relay, WORKER, (message) => ({
      raw: JSON.stringify({ type: 'execution-result', turnId: message.turnId, threadId: message.threadId, result: { status: 'error', error: 'claude: not logged in' } }),
    }));
    const result = await adapter.execute(request());
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', message: 'claude: not logged in', retryable: false } });
  });

  it('times out as failed/timeout, retryable, with relay metadata; sends a cancel; drops the late reply', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { relay, adapter } = setup({ timeoutMs: 5_000 });
    let late: (() => void) | undefined;
    responder = startResponder(relay, WORKER, (message) => new Promise((resolve) => (late = () => resolve(completed(`late ${message.requestId}`)))));
    const pending = adapter.execute(request());
    await vi.advanceTimersByTimeAsync(5_000);
    const result = await pending;
    expect(result).toMatchObject({ status: 'failed', error: { code: 'timeout', retryable: true }, metadata: { relay: { workerName: WORKER, threadId: 'thread-1' } } });
    expect(result.trace?.events?.at(-1)).toMatchObject({ type: 'failure', data: { code: 'timeout' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(responder.cancels).toEqual([expect.objectContaining({ requestId: responder.requests[0]?.requestId, reason: 'timeout' })]);
    late?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(relay.subscriberCount()).toBe(1); // only the responder
    expect(vi.getTimerCount()).toBe(0);
  });

  it('uses the request timeout when it is shorter', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { relay, adapter } = setup({ timeoutMs: 60_000 });
    responder = startResponder(relay, WORKER, () => undefined);
    const pending = adapter.execute(request({ timeoutMs: 1_000 }));
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await pending).error?.message).toContain('within 1000 ms');
  });

  it('ends the wait when the turn signal aborts and sends a cancel', async () => {
    const { relay, adapter } = setup();
    const controller = new AbortController();
    responder = startResponder(relay, WORKER, () => {
      controller.abort();
      return undefined;
    });
    const result = await adapter.execute(request(), { signal: controller.signal });
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: true } });
    await vi.waitFor(() => expect(responder?.cancels[0]?.reason).toBe('cancelled'));
    expect(relay.subscriberCount(CHAT)).toBe(0);
  });

  it('gives up at once when the relay reports a lost connection', async () => {
    const { relay, adapter } = setup();
    responder = startResponder(relay, WORKER, () => {
      relay.loseConnection(new Error('broker exited'));
      return undefined;
    });
    const result = await adapter.execute(request());
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: true } });
    expect(result.error?.message).toContain('broker exited');
    expect(relay.watcherCount()).toBe(0);
    expect(relay.subscriberCount(CHAT)).toBe(0);
  });

  it('does not send anything when the signal is already aborted', async () => {
    const { relay, adapter } = setup();
    const result = await adapter.execute(request(), { signal: AbortSignal.abort() });
    expect(result.status).toBe('failed');
    expect(relay.sent).toEqual([]);
  });

  it('ignores and counts malformed, foreign, wrong-sender and wrong-thread messages', async () => {
    const { relay, adapter } = setup();
    responder = startResponder(relay, WORKER, (message) => {
      const reply = (from: string, threadId: string) =>
        relay.deliver({
          from,
          target: CHAT,
          threadId,
          text: JSON.stringify({ type: AGENT_RELAY_EXECUTION_RESULT_TYPE, requestId: message.requestId, turnId: message.turnId, threadId, sentAt: new Date().toISOString(), executionResult: { backendId: 'x', status: 'completed', output: { text: `from ${from}` } } }),
        });
      relay.deliver({ from: WORKER, target: CHAT, threadId: message.threadId, text: 'plain chat, not JSON' });
      relay.deliver({ from: WORKER, target: CHAT, threadId: message.threadId, text: JSON.stringify({ type: 'presence.v1', online: true }) });
      relay.deliver({ from: WORKER, target: CHAT, threadId: message.threadId, text: JSON.stringify({ type: AGENT_RELAY_EXECUTION_RESULT_TYPE, requestId: message.requestId }) });
      relay.deliver({ from: WORKER, target: CHAT, threadId: message.threadId, text: JSON.stringify({ __proto__: { polluted: true }, type: AGENT_RELAY_EXECUTION_RESULT_TYPE, requestId: 7 }) });
      reply('impostor', message.threadId);
      reply(WORKER, 'another-thread');
      reply(WORKER, message.threadId);
      return undefined;
    });
    const result = await adapter.execute(request());
    expect(result).toMatchObject({ status: 'completed', output: { text: `from ${WORKER}` } });
    expect(result.metadata?.['relay']).toMatchObject({
      ignoredMessages: { total: 6, not_json: 1, foreign: 1, malformed: 2, wrong_sender: 1, wrong_thread: 1 },
    });
    const notes = result.trace?.events?.filter((event) => event.type === 'note') ?? [];
    expect(notes.map((event) => event.data?.['ignoredRelayMessage'])).toEqual(['not_json', 'foreign', 'malformed', 'malformed', 'wrong_sender', 'wrong_thread']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('gives each of 20 concurrent turns its own reply, even answered in reverse order', async () => {
    const { relay, adapter } = setup();
    const held: (() => void)[] = [];
    responder = startResponder(relay, WORKER, (message) =>
      new Promise((resolve) => {
        held.push(() => resolve(completed(`answer to ${message.request.message.text}`)));
        if (held.length === 20) for (const release of held.reverse()) release();
      }),
    );
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        adapter.execute(request({ turnId: `turn-${index}`, threadId: index % 2 === 0 ? 'shared-thread' : `thread-${index}`, message: { id: `m-${index}`, text: `question ${index}`, receivedAt: '2026-01-01T00:00:00.000Z' } })),
      ),
    );
    results.forEach((result, index) => expect(result.output?.text).toBe(`answer to question ${index}`));
    expect(relay.subscriberCount(CHAT)).toBe(0);
  });

  it('takes a reply delivered twice only once', async () => {
    const { relay, adapter } = setup();
    responder = startResponder(relay, WORKER, (message) => {
      const text = JSON.stringify({ type: AGENT_RELAY_EXECUTION_RESULT_TYPE, requestId: message.requestId, turnId: message.turnId, threadId: message.threadId, sentAt: new Date().toISOString(), executionResult: { backendId: 'w', status: 'completed', output: { text: 'once' } } });
      relay.deliver({ id: 'event-1', from: WORKER, target: CHAT, threadId: message.threadId, text });
      relay.deliver({ id: 'event-1', from: WORKER, target: CHAT, threadId: message.threadId, text });
      return undefined;
    });
    const result = await adapter.execute(request());
    expect(result).toMatchObject({ status: 'completed', output: { text: 'once' }, metadata: { relay: { eventId: 'event-1' } } });
  });

  it('turns an invalid or hostile request into a failed result without sending', async () => {
    const { relay, adapter } = setup();
    const bad = await adapter.execute({ ...request(), message: { id: '', text: 3 } } as unknown as ExecutionRequest);
    expect(bad).toMatchObject({ status: 'failed', error: { code: 'invalid_request', retryable: false } });
    expect(bad.error?.message).toContain('request.message');
    const hostile = new Proxy(request(), {
      get(target, key) {
        if (key === 'message') throw new Error('boom');
        return Reflect.get(target, key);
      },
    });
    expect((await adapter.execute(hostile)).status).toBe('failed');
    expect(await adapter.execute(null as unknown as ExecutionRequest)).toMatchObject({ status: 'failed' });
    expect(relay.sent).toEqual([]);
  });

  it('answers unsupported without sending when the request needs tools', async () => {
    const { relay, adapter } = setup();
    const result = await adapter.execute(request({ tools: [{ name: 'search' }] }));
    expect(result).toMatchObject({ status: 'unsupported', error: { code: 'unsupported_capability' } });
    expect(relay.sent).toEqual([]);
  });

  it('maps a failed send to a retryable failure and leaves no subscription', async () => {
    const relay = createMemoryRelay({
      intercept: () => {
        throw new Error('broker returned 503');
      },
    });
    const adapter = new AgentRelayExecutionAdapter({ relay, workerName: WORKER, orchestratorName: CHAT });
    const result = await adapter.execute(request());
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: true } });
    expect(result.error?.message).toContain('broker returned 503');
    expect(relay.subscriberCount()).toBe(0);
  });

  it('ends pending turns on shutdown and refuses new ones', async () => {
    const { relay, adapter } = setup();
    responder = startResponder(relay, WORKER, () => undefined);
    const pending = adapter.execute(request());
    await vi.waitFor(() => expect(responder?.requests).toHaveLength(1));
    await adapter.shutdown();
    expect((await pending).error?.message).toContain('shut down');
    expect((await adapter.execute(request())).error?.message).toContain('shut down');
    expect(relay.subscriberCount(CHAT)).toBe(0);
  });

  it('declares honest capabilities and negotiates against them', () => {
    const { adapter } = setup();
    expect(adapter.describeCapabilities()).toMatchObject({ toolUse: 'none', continuationSupport: 'opaque-resume', approvalInterrupts: 'none', attachments: false, streaming: true });
    expect(adapter.negotiate(request({ requirements: { approvalInterrupts: 'required' } })).supported).toBe(false);
    expect(adapter.negotiate(request({ requirements: { continuationSupport: 'required' } })).supported).toBe(true);
    const custom = new AgentRelayExecutionAdapter({ relay: createMemoryRelay(), workerName: WORKER, capabilities: { traceDepth: 'standard' } });
    expect(custom.describeCapabilities().traceDepth).toBe('standard');
  });

  it('rejects bad options with HarnessConfigError naming the field', () => {
    const make = (options: unknown) => () => new AgentRelayExecutionAdapter(options as never);
    expect(make({})).toThrow(expect.objectContaining({ field: 'workerName' }));
    expect(make({ workerName: 'w', timeoutMs: 0 })).toThrow(HarnessConfigError);
    expect(make({ workerName: 'w', timeoutMs: 2 ** 31 })).toThrow(expect.objectContaining({ field: 'timeoutMs' }));
    expect(make({ workerName: 'w', orchestratorName: 'w' })).toThrow(expect.objectContaining({ field: 'orchestratorName' }));
    expect(make({ workerName: 'w', relay: { send: 1 } })).toThrow(expect.objectContaining({ field: 'relay' }));
    expect(make({ workerName: 'w', spawnWorker: { enabled: true } })).toThrow(/not supported.*worker bridge/);
    expect(make({ workerName: 'w', spawnWorker: { enabled: false }, relay: createMemoryRelay() })).not.toThrow();
  });
});
