import { formatIssues } from '../../shared/schemas/format-issues.js';
import {
  AGENT_RELAY_EXECUTION_CANCEL_TYPE,
  type ExecutionCancelMessage,
  type RelayDecodeOptions,
  type RelayDecodeResult,
} from './message-types.js';
import { foreign, parseBody, typeOf } from './parse-body.js';
import { relayWireSchemas } from './wire-schemas.js';

/** Encodes a cancel message as the JSON body to send. `type` is filled in. */
export function encodeExecutionCancelMessage(message: Omit<ExecutionCancelMessage, 'type'>): string {
  const { requestId, turnId, threadId, sentAt, reason } = message;
  return JSON.stringify({ type: AGENT_RELAY_EXECUTION_CANCEL_TYPE, requestId, turnId, threadId, sentAt, reason });
}

/** Decodes a cancel message on the worker's side. Never throws. */
export function decodeExecutionCancelMessage(
  text: string,
  options?: RelayDecodeOptions,
): RelayDecodeResult<ExecutionCancelMessage> {
  const body = parseBody(text, options);
  if (!body.ok) return body;
  return cancelFromBody(body.message);
}

/** Validates a parsed body as a cancel message. */
export function cancelFromBody(body: Record<string, unknown>): RelayDecodeResult<ExecutionCancelMessage> {
  const type = typeOf(body);
  if (type !== AGENT_RELAY_EXECUTION_CANCEL_TYPE) return foreign(type, AGENT_RELAY_EXECUTION_CANCEL_TYPE);
  const parsed = relayWireSchemas().cancelMessageSchema.safeParse(body);
  if (!parsed.success) return { ok: false, reason: 'malformed', detail: `Invalid cancel message: ${formatIssues(parsed.error.issues)}.` };
  return { ok: true, message: parsed.data };
}
