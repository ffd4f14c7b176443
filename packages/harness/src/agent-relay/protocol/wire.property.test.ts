import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../__fixtures__/property-runs.js';
import { executionResultSchema } from '../../execution/execution-result-schema.js';
import {
  decodeExecutionEventMessage,
  decodeExecutionResultMessage,
  decodeWorkerInboundMessage,
  encodeExecutionCancelMessage,
  encodeExecutionRequestMessage,
  encodeExecutionResultMessage,
} from './wire.js';
import { executionStreamEventSchema } from '../../execution/execution-stream-event-schema.js';

// Any body a relay can deliver: decoders answer, never throw, and what they accept is a valid result.

const resultish = fc.record(
  {
    type: fc.constantFrom('agent-assistant.execution-result.v1', 'execution-result', 'agent-assistant.execution-request.v1', 'agent-assistant.execution-event.v1', 'other'),
    requestId: fc.oneof(fc.string(), fc.integer(), fc.constant('__proto__')),
    turnId: fc.string(),
    threadId: fc.string(),
    status: fc.oneof(fc.constantFrom('ok', 'error', 'completed', 'failed', 'timeout', 'deferred', ''), fc.string(), fc.integer()),
    answer: fc.oneof(fc.string(), fc.integer()),
    error: fc.oneof(fc.string(), fc.record({ code: fc.string(), message: fc.anything() }, { requiredKeys: [] }), fc.anything()),
    executionResult: fc.anything(),
    result: fc.anything(),
    ok: fc.anything(),
    seq: fc.oneof(fc.nat(), fc.integer(), fc.double(), fc.string()),
    events: fc.oneof(fc.array(fc.oneof(fc.record({ type: fc.constantFrom('text_delta', 'tool_activity', 'plan_update'), text: fc.string() }), fc.anything())), fc.anything()),
  },
  { requiredKeys: [] },
);

describe('relay wire decoders (properties)', () => {
  it('never throw on arbitrary text, and accept only results the harness accepts', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), resultish.map((value) => JSON.stringify(value))), (text) => {
        const result = decodeExecutionResultMessage(text);
        if (result.ok) expect(executionResultSchema.safeParse(result.message.executionResult).success).toBe(true);
        const events = decodeExecutionEventMessage(text);
        if (events.ok) for (const event of events.message.events) expect(executionStreamEventSchema.safeParse(event).success).toBe(true);
        decodeWorkerInboundMessage(text);
      }),
      { numRuns: propertyRuns() },
    );
  });

  it('round-trip every canonical result unchanged', () => {
    const canonical = fc.record({
      backendId: fc.string(),
      status: fc.constantFrom('completed', 'needs_clarification', 'awaiting_approval', 'deferred', 'failed', 'unsupported'),
      output: fc.record({ text: fc.string() }),
      continuation: fc.record({ continuationId: fc.string() }, { requiredKeys: [] }),
    }) as fc.Arbitrary<Parameters<typeof encodeExecutionResultMessage>[0]['executionResult']>;
    fc.assert(
      fc.property(canonical, fc.string({ minLength: 1 }), (executionResult, id) => {
        const text = encodeExecutionResultMessage({ requestId: id, turnId: id, threadId: id, sentAt: '2026-01-01T00:00:00.000Z', executionResult });
        const decoded = decodeExecutionResultMessage(text);
        expect(decoded.ok && decoded.message.executionResult).toEqual(executionResult);
      }),
      { numRuns: propertyRuns() },
    );
  });

  it('accept an id in any message exactly when it holds no control character', () => {
    const ids = { turnId: 't', threadId: 'th', sentAt: '2026-01-01T00:00:00.000Z' };
    const request = { assistantId: 'a', turnId: 't', message: { id: 'm', text: 'hi', receivedAt: '2026-01-01T00:00:00.000Z' }, instructions: { systemPrompt: 's' } };
    fc.assert(
      fc.property(fc.string({ minLength: 1, unit: 'binary' }), fc.constantFrom('requestId', 'turnId', 'threadId'), (id, field) => {
        const clean = !/\p{Cc}/u.test(id);
        const bodies = [
          encodeExecutionRequestMessage({ requestId: 'r', ...ids, [field]: id, replyTo: { agentId: 'chat' }, request }),
          encodeExecutionCancelMessage({ requestId: 'r', ...ids, [field]: id, reason: 'cancelled' }),
        ];
        for (const body of bodies) expect(decodeWorkerInboundMessage(body).ok).toBe(clean);
        const result = encodeExecutionResultMessage({ requestId: 'r', ...ids, [field]: id, executionResult: { backendId: 'w', status: 'completed' } });
        expect(decodeExecutionResultMessage(result).ok).toBe(clean);
        const replyTo = encodeExecutionRequestMessage({ requestId: 'r', ...ids, replyTo: { agentId: id }, request });
        expect(decodeWorkerInboundMessage(replyTo).ok).toBe(clean);
      }),
      { numRuns: propertyRuns() },
    );
  });
});
