// A hostile worker over the in-memory relay (issue 22, items 12 and 13): absurdly nested values in
// every free-form field of its reply, values JSON cannot carry, control characters in ids. Every
// turn resolves with a structured result that JSON.stringify can write, trace events included.
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import { cyclic, deeplyNested, throwingGetter, throwingProxy } from '../../core/__fixtures__/hostile-values.js';
import type { ExecutionRequestMessage } from '../protocol/message-types.js';
import { createMemoryRelay } from '../../testing/memory-relay.js';
import { createTurnInput } from '../../testing/create-turn-input.js';
import { memoryTraceSink } from '../../testing/index.js';
import { startResponder, type Responder } from '../__fixtures__/start-responder.js';
import { createAgentRelayExecutionAdapter } from './agent-relay-execution-adapter.js';
import { normalizeWorkerResult } from '../protocol/normalize-worker-result.js';

const WORKER = 'hostile-worker';
const CHAT = 'chat';
const LEVELS = 400_000;

/** JSON text of a value nested `levels` deep, built without recursion: `{"d":{"d":…{}…}}`. */
const deepText = (levels: number) => `${'{"d":'.repeat(levels)}{}${'}'.repeat(levels)}`;

/** A raw result body for `message` whose executionResult is `payload` (JSON text, spliced in as is). */
const rawReply = (message: ExecutionRequestMessage, payload: string) =>
  `{"type":"agent-assistant.execution-result.v1","requestId":${JSON.stringify(message.requestId)},"turnId":${JSON.stringify(message.turnId)},` +
  `"threadId":${JSON.stringify(message.threadId)},"sentAt":"2026-01-01T00:00:00.000Z","executionResult":${payload}}`;

/** The worker's payload for each field that carries free-form JSON, with `value` (JSON text) in that field. */
const fields: [label: string, payload: (value: string) => string][] = [
  ['output.structured', (value) => `{"backendId":"w","status":"completed","output":{"text":"{}","structured":{"v":${value}}}}`],
  ['metadata', (value) => `{"backendId":"w","status":"completed","output":{"text":"ok"},"metadata":{"v":${value}}}`],
  ['error.metadata', (value) => `{"backendId":"w","status":"failed","error":{"code":"other","message":"no","metadata":{"v":${value}}}}`],
  ['the shorthand structured', (value) => `{"status":"ok","answer":"ok","structured":{"v":${value}}}`],
  ['approvalRequest.metadata', (value) => `{"backendId":"w","status":"awaiting_approval","approvalRequest":{"reason":"r","metadata":{"v":${value}}}}`],
  ['continuation.state', (value) => `{"backendId":"w","status":"completed","output":{"text":"ok"},"continuation":{"continuationId":"s","state":{"v":${value}}}}`],
  ['trace', (value) => `{"backendId":"w","status":"completed","output":{"text":"ok"},"trace":{"events":[{"type":"note","data":${value}}]}}`],
];

let responder: Responder | undefined;
afterEach(() => {
  responder?.stop();
  responder = undefined;
});

/** Runs one harness turn against a worker that answers `body(message)`; returns the result and the trace. */
async function turnAgainst(body: (message: ExecutionRequestMessage) => string) {
  const relay = createMemoryRelay();
  const adapter = createAgentRelayExecutionAdapter({ relay, workerName: WORKER, orchestratorName: CHAT, timeoutMs: 20_000 });
  responder = startResponder(relay, WORKER, (message) => ({ raw: body(message) }));
  const trace = memoryTraceSink();
  const result = await createHarness({ backend: adapter, trace }).runTurn(createTurnInput());
  return { result, trace, relay };
}

function expectWritable(value: unknown) {
  expect(() => JSON.stringify(value)).not.toThrow();
}

describe('a worker reply nested 400,000 levels deep (issue 22, item 12)', () => {
  it.each(fields)('in %s fails the turn with invalid_backend_output; the result and every trace event stringify', async (_label, payload) => {
    const { result, trace } = await turnAgainst((message) => rawReply(message, payload(deepText(LEVELS))));
    expect(result).toMatchObject({ outcome: 'failed', metadata: { error: { code: 'invalid_backend_output' } } });
    expect(result.metadata?.error?.message).toContain('nested deeper than 56 levels');
    expectWritable(result);
    expect(trace.events.length).toBeGreaterThan(0);
    for (const event of trace.events) expectWritable(event);
  });

  it('the same at the top level of a shorthand reply, and under its `result`', async () => {
    for (const body of [
      (message: ExecutionRequestMessage) => `{"type":"execution-result","requestId":${JSON.stringify(message.requestId)},"status":"ok","answer":"a","extra":${deepText(LEVELS)}}`,
      (message: ExecutionRequestMessage) => `{"type":"execution-result","requestId":${JSON.stringify(message.requestId)},"result":{"status":"ok","answer":"a","structured":{"v":${deepText(LEVELS)}}}}`,
    ]) {
      const { result } = await turnAgainst(body);
      expect(result).toMatchObject({ outcome: 'failed', metadata: { error: { code: 'invalid_backend_output' } } });
      expectWritable(result);
    }
  });

  it('keeps a value within the bound as the worker sent it', async () => {
    const { result } = await turnAgainst((message) => rawReply(message, fields[1]![1](deepText(50))));
    expect(result.outcome).toBe('completed');
    expect(JSON.stringify(result.metadata)).toContain(deepText(50));
  });
});

describe('normalizeWorkerResult on values that are not JSON data (objects from a caller)', () => {
  const cases: [label: string, payload: () => Record<string, unknown>, reason: RegExp][] = [
    ['nested 400,000 levels deep', () => ({ status: 'ok', answer: 'a', structured: deeplyNested(LEVELS) }), /nested deeper than 56 levels/],
    ['circular', () => ({ backendId: 'w', status: 'completed', metadata: cyclic() }), /nested deeper|circular/],
    ['holding a BigInt', () => ({ backendId: 'w', status: 'completed', metadata: { n: 10n } }), /bigint/],
    ['with a getter that throws', () => ({ status: 'ok', answer: 'a', structured: throwingGetter('x') }), /threw/],
    ['a Proxy whose traps throw', () => throwingProxy() as Record<string, unknown>, /threw/],
  ];

  it.each(cases)('refuses a payload %s with a failed result, never throwing', (_label, payload, reason) => {
    const normalized = normalizeWorkerResult(payload());
    expect(normalized?.result).toMatchObject({ status: 'failed', error: { code: 'invalid_backend_output', retryable: false } });
    expect(normalized?.result.error?.message).toMatch(reason);
    expectWritable(normalized);
  });
});

describe('control characters in ids and names (issue 22, item 13)', () => {
  it('ignores a reply whose request id holds a line break (counted as malformed), then takes the right one', async () => {
    const relay = createMemoryRelay();
    const adapter = createAgentRelayExecutionAdapter({ relay, workerName: WORKER, orchestratorName: CHAT, timeoutMs: 20_000 });
    responder = startResponder(relay, WORKER, (message) => {
      const forged = rawReply({ ...message, requestId: `${message.requestId}\n` }, '{"backendId":"w","status":"completed","output":{"text":"forged"}}');
      relay.deliver({ from: WORKER, target: CHAT, text: forged, threadId: message.threadId });
      return { raw: rawReply(message, '{"backendId":"w","status":"completed","output":{"text":"real"}}') };
    });
    const executed = await adapter.execute({
      assistantId: 'a',
      turnId: 't-1',
      message: { id: 'm', text: 'hi', receivedAt: '2026-01-01T00:00:00.000Z' },
      instructions: { systemPrompt: 's' },
    });
    expect(executed).toMatchObject({ status: 'completed', output: { text: 'real' }, metadata: { relay: { ignoredMessages: { malformed: 1 } } } });
  });

  it.each([
    ['turn id', { turnId: 'turn\n1' }],
    ['thread id', { turnId: 't', threadId: 'thread\u001b[31m' }],
  ])('fails at once, without sending, a turn whose %s holds a control character', async (_label, ids) => {
    const relay = createMemoryRelay();
    const adapter = createAgentRelayExecutionAdapter({ relay, workerName: WORKER, orchestratorName: CHAT, timeoutMs: 20_000 });
    const executed = await adapter.execute({
      assistantId: 'a',
      message: { id: 'm', text: 'hi', receivedAt: '2026-01-01T00:00:00.000Z' },
      instructions: { systemPrompt: 's' },
      ...ids,
    } as Parameters<typeof adapter.execute>[0]);
    expect(executed).toMatchObject({ status: 'failed', error: { code: 'invalid_request', retryable: false } });
    expect(relay.sent).toHaveLength(0);
  });

  it.each(['workerName', 'orchestratorName', 'channelId'])('refuses a %s with a control character as a config error', (field) => {
    const options = { relay: createMemoryRelay(), workerName: WORKER, orchestratorName: CHAT, [field]: 'name\nforged' };
    expect(() => createAgentRelayExecutionAdapter(options)).toThrow(expect.objectContaining({ field }));
  });
});
