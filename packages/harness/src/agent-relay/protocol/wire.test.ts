import { describe, expect, it } from 'vitest';
import {
  decodeExecutionCancelMessage,
  decodeExecutionEventMessage,
  decodeExecutionRequestMessage,
  decodeExecutionResultMessage,
  decodeWorkerInboundMessage,
  encodeExecutionCancelMessage,
  encodeExecutionEventMessage,
  encodeExecutionRequestMessage,
  encodeExecutionResultMessage,
  normalizeWorkerResult,
} from './wire.js';

const request = {
  assistantId: 'a',
  turnId: 't',
  message: { id: 'm', text: 'hi', receivedAt: '2026-01-01T00:00:00.000Z' },
  instructions: { systemPrompt: 's' },
};
const ids = { requestId: 'r-1', turnId: 't', threadId: 'th', sentAt: '2026-01-01T00:00:00.000Z' };

describe('relay wire protocol', () => {
  it('round-trips a request, dropping unknown fields', () => {
    const text = encodeExecutionRequestMessage({ ...ids, replyTo: { agentId: 'chat' }, deadline: '2026-01-01T00:01:00.000Z', request });
    const decoded = decodeExecutionRequestMessage(text.replace('"assistantId"', '"extra":1,"assistantId"'));
    expect(decoded).toEqual({ ok: true, message: { type: 'agent-assistant.execution-request.v1', ...ids, replyTo: { agentId: 'chat' }, deadline: '2026-01-01T00:01:00.000Z', request } });
  });

  it('calls a request with a bad inner ExecutionRequest malformed, and other types foreign', () => {
    const bad = JSON.stringify({ type: 'agent-assistant.execution-request.v1', ...ids, replyTo: { agentId: 'c' }, request: { ...request, message: {} } });
    expect(decodeExecutionRequestMessage(bad)).toMatchObject({ ok: false, reason: 'malformed' });
    expect(decodeExecutionRequestMessage(JSON.stringify({ type: 'x' }))).toMatchObject({ ok: false, reason: 'foreign' });
    expect(decodeExecutionRequestMessage('[1]')).toMatchObject({ ok: false, reason: 'not_json' });
    expect(decodeExecutionRequestMessage('{')).toMatchObject({ ok: false, reason: 'not_json' });
    expect(decodeExecutionRequestMessage('x'.repeat(11), { maxChars: 10 })).toMatchObject({ ok: false, reason: 'too_large' });
  });

  it('round-trips a canonical result and a cancel; the worker decoder tells them apart', () => {
    const result = { backendId: 'w', status: 'completed' as const, output: { text: 'ok' }, continuation: { continuationId: 's' } };
    expect(decodeExecutionResultMessage(encodeExecutionResultMessage({ ...ids, executionResult: result }))).toEqual({
      ok: true,
      message: { type: 'agent-assistant.execution-result.v1', ...ids, executionResult: result, shorthand: false },
    });
    const cancel = encodeExecutionCancelMessage({ ...ids, reason: 'timeout' });
    expect(decodeExecutionCancelMessage(cancel)).toMatchObject({ ok: true, message: { reason: 'timeout' } });
    expect(decodeWorkerInboundMessage(cancel)).toMatchObject({ ok: true, message: { type: 'agent-assistant.execution-cancel.v1' } });
    expect(decodeWorkerInboundMessage(JSON.stringify({ type: 'agent-assistant.execution-cancel.v1', ...ids, reason: 'because' }))).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('carries stream: true on a request only when set', () => {
    const streaming = encodeExecutionRequestMessage({ ...ids, replyTo: { agentId: 'chat' }, request, stream: true });
    expect(decodeExecutionRequestMessage(streaming)).toMatchObject({ ok: true, message: { stream: true } });
    const plain = encodeExecutionRequestMessage({ ...ids, replyTo: { agentId: 'chat' }, request, stream: false });
    expect(JSON.parse(plain)).not.toHaveProperty('stream');
    expect(decodeExecutionRequestMessage(plain)).toMatchObject({ ok: true, message: expect.not.objectContaining({ stream: expect.anything() }) });
  });

  it('round-trips an event message, leaving out and counting events of unknown or broken shapes', () => {
    const events = [
      { type: 'text_delta' as const, text: 'Hel' },
      { type: 'tool_activity' as const, phase: 'started' as const, toolCallId: 't1', name: 'Bash', command: 'ls' },
    ];
    const text = encodeExecutionEventMessage({ ...ids, seq: 3, events });
    expect(decodeExecutionEventMessage(text)).toEqual({ ok: true, message: { type: 'agent-assistant.execution-event.v1', ...ids, seq: 3, events, droppedEvents: 0 } });
    const mixed = JSON.stringify({ type: 'agent-assistant.execution-event.v1', ...ids, seq: 0, events: [{ type: 'future' }, { type: 'text_delta', text: '' }, events[0], null] });
    expect(decodeExecutionEventMessage(mixed)).toMatchObject({ ok: true, message: { events: [events[0]], droppedEvents: 3 } });
  });

  it.each([
    ['a negative seq', { seq: -1, events: [{ type: 'text_delta', text: 'a' }] }],
    ['a fractional seq', { seq: 1.5, events: [{ type: 'text_delta', text: 'a' }] }],
    ['no events', { seq: 0, events: [] }],
    ['too many events', { seq: 0, events: Array.from({ length: 257 }, () => ({ type: 'text_delta', text: 'a' })) }],
    ['no request id', { seq: 0, events: [{ type: 'text_delta', text: 'a' }], requestId: '' }],
  ])('calls an event message with %s malformed', (_label, fields) => {
    const body = JSON.stringify({ type: 'agent-assistant.execution-event.v1', ...ids, ...fields });
    expect(decodeExecutionEventMessage(body)).toMatchObject({ ok: false, reason: 'malformed' });
    expect(decodeExecutionEventMessage(JSON.stringify({ type: 'agent-assistant.execution-result.v1', ...ids }))).toMatchObject({ ok: false, reason: 'foreign' });
  });

  it.each([
    [{ status: 'ok', answer: 'a' }, { status: 'completed', output: { text: 'a' } }],
    [{ status: 'success', output: { output_text: 'b' } }, { status: 'completed', output: { text: 'b' } }],
    [{ ok: true, text: 'c', session_id: 's-1' }, { status: 'completed', continuation: { continuationId: 's-1' } }],
    [{ status: 'error', error: 'boom' }, { status: 'failed', error: { code: 'backend_execution_error', message: 'boom', retryable: false } }],
    [{ ok: false, error: { code: 'timeout', message: 'slow' } }, { status: 'failed', error: { code: 'timeout', message: 'slow', retryable: true } }],
    [{ status: 'timed_out' }, { status: 'failed', error: { code: 'timeout' } }],
    [{ status: 'ok', error: 'but also an error' }, { status: 'failed', error: { message: 'but also an error' } }],
    [{ status: 'weird' }, { status: 'failed', error: { message: 'The worker reported status "weird".' } }],
    [{ error: 'no status' }, { status: 'failed', error: { message: 'no status' } }],
    [{ backend: 'codex', status: 'done', result: 'd', tool_calls: [{ id: 1 }] }, { backendId: 'codex', output: { text: 'd', structured: { toolCalls: [{ id: 1 }] } } }],
  ])('normalises worker shorthand %j', (payload, expected) => {
    expect(normalizeWorkerResult(payload)?.result).toMatchObject(expected);
  });

  it('returns nothing for payloads that say nothing', () => {
    expect(normalizeWorkerResult({ foo: 1 })).toBeUndefined();
    expect(decodeExecutionResultMessage(JSON.stringify({ type: 'agent-assistant.execution-result.v1', requestId: 'r', foo: 1 }))).toMatchObject({ ok: false, reason: 'malformed' });
    expect(decodeExecutionResultMessage(JSON.stringify({ type: 'agent-assistant.execution-result.v1', status: 'ok', answer: 'x' }))).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('reads shorthand at the top level of the message', () => {
    expect(decodeExecutionResultMessage(JSON.stringify({ type: 'execution-result', turnId: 't', status: 'ok', answer: 'top' }))).toMatchObject({
      ok: true,
      message: { turnId: 't', shorthand: true, executionResult: { status: 'completed', output: { text: 'top' } } },
    });
  });
});
