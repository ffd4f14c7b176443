import { describe, expect, it } from 'vitest';
import { MAX_ANSWER_CHARS } from '../../../execution/answer-cap.js';
import type { ExecutionStreamEvent } from '../../../execution/types.js';
import { AGENT_RELAY_EXECUTION_EVENT_TYPE, type DecodedExecutionEventMessage } from '../../protocol/message-types.js';
import { forwardRelayEvents } from './forward-relay-events.js';

const message = (seq: number, events: ExecutionStreamEvent[]): DecodedExecutionEventMessage => ({
  type: AGENT_RELAY_EXECUTION_EVENT_TYPE,
  requestId: 'r',
  turnId: 't',
  threadId: 'th',
  sentAt: '2026-01-01T00:00:00.000Z',
  seq,
  events,
  droppedEvents: 0,
});

describe('forwardRelayEvents', () => {
  it('stops text deltas at MAX_ANSWER_CHARS across messages, and forwards other events', () => {
    const seen: ExecutionStreamEvent[] = [];
    const forwarder = forwardRelayEvents((event) => seen.push(event));
    const piece = 'x'.repeat(1_000_000);
    for (let seq = 0; seq < 6; seq += 1) {
      forwarder.receive(message(seq, [{ type: 'text_delta', text: piece }, { type: 'plan_update', entries: [] }]));
    }
    const text = seen.flatMap((event) => (event.type === 'text_delta' ? [event.text] : [])).join('');
    expect(text.length).toBe(MAX_ANSWER_CHARS);
    expect(seen.filter((event) => event.type === 'plan_update')).toHaveLength(6);
    expect(forwarder.stats).toMatchObject({ messages: 6, dropped: 1 });
  });
});
