import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import type { HarnessStreamEvent } from '../../core/types/runtime.js';
import type { HarnessResult } from '../../core/types/result.js';
import { createMemoryRelay, type MemoryRelay } from '../../testing/memory-relay.js';
import { createTurnInput } from '../../testing/create-turn-input.js';
import { startResponder, type Responder } from '../__fixtures__/start-responder.js';
import { createAgentRelayExecutionAdapter } from './agent-relay-execution-adapter.js';
import { AGENT_RELAY_EXECUTION_EVENT_TYPE, type ExecutionRequestMessage } from '../protocol/message-types.js';

const WORKER = 'test-worker';
const CHAT = 'test-chat';

let responder: Responder | undefined;
afterEach(() => {
  responder?.stop();
  responder = undefined;
});

function setup() {
  const relay = createMemoryRelay();
  const adapter = createAgentRelayExecutionAdapter({ relay, workerName: WORKER, orchestratorName: CHAT, channelId: 'specialists' });
  return { relay, harness: createHarness({ backend: adapter }) };
}

/** Delivers an event message of `request` to the orchestrator, as `from`. */
function sendEvents(relay: MemoryRelay, request: ExecutionRequestMessage, seq: number, events: unknown[], options: { from?: string; requestId?: string } = {}) {
  relay.deliver({
    from: options.from ?? WORKER,
    target: CHAT,
    threadId: request.threadId,
    text: JSON.stringify({
      type: AGENT_RELAY_EXECUTION_EVENT_TYPE,
      requestId: options.requestId ?? request.requestId,
      turnId: request.turnId,
      threadId: request.threadId,
      sentAt: new Date().toISOString(),
      seq,
      events,
    }),
  });
}

const answer = (text: string) => ({ result: { backendId: 'worker:test', status: 'completed' as const, output: { text } } });

async function collect(stream: AsyncIterable<HarnessStreamEvent>): Promise<{ live: HarnessStreamEvent[]; result: HarnessResult }> {
  const live: HarnessStreamEvent[] = [];
  let result: HarnessResult | undefined;
  for await (const event of stream) {
    if (event.type === 'result') result = event.result;
    else if (event.type !== 'turn_started' && event.type !== 'step_started' && event.type !== 'step_finished') live.push(event);
  }
  return { live, result: result! };
}

const texts = (events: HarnessStreamEvent[]) => events.flatMap((event) => (event.type === 'text_delta' ? [event.text] : []));

describe('AgentRelayExecutionAdapter: a worker’s live events under streamTurn', () => {
  it('asks for events only when streaming, and streams them in order before the result, repeats dropped', async () => {
    const { relay, harness } = setup();
    responder = startResponder(relay, WORKER, (request) => {
      if (request.stream !== true) return answer('Hello');
      const started = { type: 'tool_activity', phase: 'started', toolCallId: 't1', name: 'Bash', kind: 'command', command: 'ls' };
      sendEvents(relay, request, 0, [{ type: 'text_delta', text: 'Hel' }, started]);
      sendEvents(relay, request, 0, [{ type: 'text_delta', text: 'Hel' }, started]);
      sendEvents(relay, request, 1, [{ type: 'text_delta', text: 'lo' }]);
      return answer('Hello');
    });
    const { live, result } = await collect(harness.streamTurn(createTurnInput({ text: 'hi' })));
    expect(responder.requests[0]?.stream).toBe(true);
    expect(live.map((event) => event.type)).toEqual(['text_delta', 'tool_activity', 'text_delta']);
    expect(live[1]).toMatchObject({ type: 'tool_activity', phase: 'started', name: 'Bash', command: 'ls', iteration: 1 });
    expect(texts(live).join('')).toBe('Hello');
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Hello' } });

    const plain = await harness.runTurn(createTurnInput({ text: 'again' }));
    expect(plain.assistantMessage?.text).toBe('Hello');
    expect(responder.requests[1]).not.toHaveProperty('stream');
  });

  it('stops streaming text after a lost message, and the result completes the answer', async () => {
    const { relay, harness } = setup();
    responder = startResponder(relay, WORKER, (request) => {
      sendEvents(relay, request, 0, [{ type: 'text_delta', text: 'Hel' }]);
      sendEvents(relay, request, 2, [{ type: 'text_delta', text: 'XX' }, { type: 'plan_update', entries: [{ content: 'answer', status: 'completed' }] }]);
      return answer('Hello');
    });
    const { live, result } = await collect(harness.streamTurn(createTurnInput()));
    expect(live.map((event) => event.type)).toEqual(['text_delta', 'plan_update', 'text_delta']);
    expect(texts(live)).toEqual(['Hel', 'lo']);
    expect(result.assistantMessage?.text).toBe('Hello');
  });

  it('ignores event messages of another request or from another sender, and events of unknown shape', async () => {
    const { relay, harness } = setup();
    responder = startResponder(relay, WORKER, (request) => {
      sendEvents(relay, request, 0, [{ type: 'text_delta', text: 'not yours' }], { requestId: 'another-request' });
      sendEvents(relay, request, 0, [{ type: 'text_delta', text: 'impostor' }], { from: 'impostor' });
      sendEvents(relay, request, 0, [{ type: 'future_event', x: 1 }, { type: 'text_delta', text: '' }, { type: 'text_delta', text: 'ok' }]);
      relay.deliver({ from: WORKER, target: CHAT, threadId: request.threadId, text: JSON.stringify({ type: AGENT_RELAY_EXECUTION_EVENT_TYPE, requestId: request.requestId, seq: -1, events: [] }) });
      return answer('ok');
    });
    const { live, result } = await collect(harness.streamTurn(createTurnInput()));
    expect(texts(live)).toEqual(['ok']);
    expect(result.outcome).toBe('completed');
  });

  it('keeps a concurrent turn that does not stream free of another turn’s events; its own unasked events count as foreign', async () => {
    const { relay, harness } = setup();
    responder = startResponder(relay, WORKER, (request) => {
      sendEvents(relay, request, 0, [{ type: 'text_delta', text: `for ${request.turnId}` }]);
      return answer(request.turnId);
    });
    const [streamed, plain] = await Promise.all([
      collect(harness.streamTurn(createTurnInput({ turnId: 'streamed' }))),
      harness.runTurn(createTurnInput({ turnId: 'plain' })),
    ]);
    expect(texts(streamed.live)).toEqual(['for streamed']);
    const relayMetadata = (result: HarnessResult) => (result.metadata?.['backendMetadata'] as { relay?: Record<string, unknown> }).relay;
    expect(relayMetadata(plain)?.['ignoredMessages']).toEqual({ total: 1, foreign: 1 });
    expect(relayMetadata(streamed.result)?.['ignoredMessages']).toBeUndefined();
  });

  it('reports what came of the events in the backend result’s relay metadata', async () => {
    const relay = createMemoryRelay();
    const adapter = createAgentRelayExecutionAdapter({ relay, workerName: WORKER, orchestratorName: CHAT, channelId: 'specialists' });
    responder = startResponder(relay, WORKER, (request) => {
      sendEvents(relay, request, 0, [{ type: 'text_delta', text: 'a' }, { type: 'nope' }]);
      sendEvents(relay, request, 0, [{ type: 'text_delta', text: 'a' }]);
      sendEvents(relay, request, 3, [{ type: 'text_delta', text: 'lost' }]);
      return answer('ab');
    });
    const seen: unknown[] = [];
    const result = await adapter.execute(
      { assistantId: 'a', turnId: 't', message: { id: 'm', text: 'x', receivedAt: '2026-01-01T00:00:00.000Z' }, instructions: { systemPrompt: 'Be brief.' } },
      { onEvent: (event) => seen.push(event) },
    );
    expect(seen).toEqual([{ type: 'text_delta', text: 'a' }]);
    expect(result.metadata?.['relay']).toMatchObject({ events: { messages: 2, forwarded: 1, dropped: 2, gaps: 1, repeats: 1 } });
  });
});
