import type { ExecutionRequest } from '../../execution/types.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import {
  AGENT_RELAY_EXECUTION_REQUEST_TYPE,
  type ExecutionRequestMessage,
  type RelayDecodeOptions,
  type RelayDecodeResult,
} from './message-types.js';
import { foreign, parseBody, typeOf } from './parse-body.js';
import { relayWireSchemas } from './wire-schemas.js';

/**
 * Encodes a request message as the JSON body to send. `type` is filled in.
 * @throws TypeError when the request holds a value JSON cannot carry (a cycle, a `BigInt`).
 */
export function encodeExecutionRequestMessage(message: Omit<ExecutionRequestMessage, 'type'>): string {
  const { requestId, turnId, threadId, replyTo, sentAt, deadline, request, stream } = message;
  return JSON.stringify({
    type: AGENT_RELAY_EXECUTION_REQUEST_TYPE,
    requestId,
    turnId,
    threadId,
    replyTo,
    sentAt,
    ...(deadline === undefined ? {} : { deadline }),
    request,
    ...(stream === true ? { stream } : {}),
  });
}

/**
 * Decodes a request message on the worker's side, validating the envelope and the whole
 * `ExecutionRequest`. Unknown fields are dropped. Never throws: a body that is not a request is
 * `foreign`, a request with a bad shape is `malformed`.
 */
export function decodeExecutionRequestMessage(
  text: string,
  options?: RelayDecodeOptions,
): RelayDecodeResult<ExecutionRequestMessage> {
  const body = parseBody(text, options);
  if (!body.ok) return body;
  return requestFromBody(body.message);
}

/** Validates a parsed body as a request message. */
export function requestFromBody(body: Record<string, unknown>): RelayDecodeResult<ExecutionRequestMessage> {
  const type = typeOf(body);
  if (type !== AGENT_RELAY_EXECUTION_REQUEST_TYPE) return foreign(type, AGENT_RELAY_EXECUTION_REQUEST_TYPE);
  const parsed = relayWireSchemas().requestMessageSchema.safeParse(body);
  if (!parsed.success) return { ok: false, reason: 'malformed', detail: `Invalid request message: ${formatIssues(parsed.error.issues)}.` };
  const { deadline, replyTo, request, stream, ...rest } = parsed.data;
  return {
    ok: true,
    message: {
      ...rest,
      replyTo: { agentId: replyTo.agentId, ...(replyTo.channelId === undefined ? {} : { channelId: replyTo.channelId }) },
      ...(deadline === undefined ? {} : { deadline }),
      request: request as ExecutionRequest,
      ...(stream === true ? { stream } : {}),
    },
  };
}
