import { executionStreamEventSchema } from '../../execution/execution-stream-event-schema.js';
import type { ExecutionStreamEvent } from '../../execution/types.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import {
  AGENT_RELAY_EXECUTION_EVENT_TYPE,
  type DecodedExecutionEventMessage,
  type ExecutionEventMessage,
  type RelayDecodeOptions,
  type RelayDecodeResult,
} from './message-types.js';
import { foreign, parseBody, typeOf, type JsonObject } from './parse-body.js';
import { relayWireSchemas } from './wire-schemas.js';

/**
 * Encodes an event message as the JSON body to send. `type` is filled in.
 * @throws TypeError when an event holds a value JSON cannot carry.
 */
export function encodeExecutionEventMessage(message: Omit<ExecutionEventMessage, 'type'>): string {
  const { requestId, turnId, threadId, sentAt, seq, events } = message;
  return JSON.stringify({ type: AGENT_RELAY_EXECUTION_EVENT_TYPE, requestId, turnId, threadId, sentAt, seq, events });
}

/**
 * Decodes an event message on the orchestrator's side. The envelope must be valid; each event is
 * checked against the `ExecutionStreamEvent` shapes on its own, and those that fail are left out
 * and counted in `droppedEvents`. Never throws.
 */
export function decodeExecutionEventMessage(text: string, options?: RelayDecodeOptions): RelayDecodeResult<DecodedExecutionEventMessage> {
  const body = parseBody(text, options);
  if (!body.ok) return body;
  return eventFromBody(body.message);
}

/** Validates a parsed body as an event message. */
export function eventFromBody(body: JsonObject): RelayDecodeResult<DecodedExecutionEventMessage> {
  const type = typeOf(body);
  if (type !== AGENT_RELAY_EXECUTION_EVENT_TYPE) return foreign(type, AGENT_RELAY_EXECUTION_EVENT_TYPE);
  const parsed = relayWireSchemas().eventMessageSchema.safeParse(body);
  if (!parsed.success) return { ok: false, reason: 'malformed', detail: `Invalid event message: ${formatIssues(parsed.error.issues)}.` };
  const events: ExecutionStreamEvent[] = [];
  for (const raw of parsed.data.events) {
    const event = executionStreamEventSchema.safeParse(raw);
    if (event.success) events.push(event.data as ExecutionStreamEvent);
  }
  return { ok: true, message: { ...parsed.data, events, droppedEvents: parsed.data.events.length - events.length } };
}
