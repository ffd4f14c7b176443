import { formatIssues } from '../../shared/schemas/format-issues.js';
import {
  AGENT_RELAY_EXECUTION_RESULT_TYPE,
  LEGACY_EXECUTION_RESULT_TYPE,
  type DecodedExecutionResultMessage,
  type ExecutionResultMessage,
  type RelayDecodeOptions,
  type RelayDecodeResult,
} from './message-types.js';
import { normalizeWorkerResult } from './normalize-worker-result.js';
import { foreign, parseBody, typeOf, type JsonObject } from './parse-body.js';
import { relayWireSchemas } from './wire-schemas.js';
import { isRecord } from '../../shared/is-record.js';

/**
 * Encodes a result message as the JSON body to send. `type` is filled in.
 * @throws TypeError when the result holds a value JSON cannot carry (a cycle, a `BigInt`).
 */
export function encodeExecutionResultMessage(message: Omit<ExecutionResultMessage, 'type'>): string {
  const { requestId, turnId, threadId, sentAt, executionResult } = message;
  return JSON.stringify({ type: AGENT_RELAY_EXECUTION_RESULT_TYPE, requestId, turnId, threadId, sentAt, executionResult });
}

/**
 * Decodes a result message on the orchestrator's side. Accepts the canonical message and worker
 * shorthand: the legacy type `execution-result`, the payload under `executionResult`, `result`
 * or at the top level, and loose payloads such as `{ status: "ok", answer: "…" }` or
 * `{ status: "error", error: "…" }` (see `normalizeWorkerResult`). Needs a `requestId` or a
 * `turnId` to be correlated. Never throws.
 */
export function decodeExecutionResultMessage(
  text: string,
  options?: RelayDecodeOptions,
): RelayDecodeResult<DecodedExecutionResultMessage> {
  const body = parseBody(text, options);
  if (!body.ok) return body;
  return resultFromBody(body.message);
}

/** Reads a parsed body as a result message. */
export function resultFromBody(body: JsonObject): RelayDecodeResult<DecodedExecutionResultMessage> {
  const type = typeOf(body);
  if (type !== AGENT_RELAY_EXECUTION_RESULT_TYPE && type !== LEGACY_EXECUTION_RESULT_TYPE) {
    return foreign(type, AGENT_RELAY_EXECUTION_RESULT_TYPE);
  }
  const envelope = relayWireSchemas().resultEnvelopeSchema.safeParse(body);
  if (!envelope.success) {
    return { ok: false, reason: 'malformed', detail: `Invalid result envelope: ${formatIssues(envelope.error.issues)}.` };
  }
  const { requestId, turnId, threadId, sentAt } = envelope.data;
  if (requestId === undefined && turnId === undefined) {
    return { ok: false, reason: 'malformed', detail: 'The result names neither a requestId nor a turnId.' };
  }
  const payload = [body['executionResult'], body['result']].find(isRecord);
  const normalized = normalizeWorkerResult(payload ?? body);
  if (normalized === undefined) {
    return { ok: false, reason: 'malformed', detail: 'The result carries no status, text or error.' };
  }
  return {
    ok: true,
    message: {
      type,
      ...(requestId === undefined ? {} : { requestId }),
      ...(turnId === undefined ? {} : { turnId }),
      ...(threadId === undefined ? {} : { threadId }),
      ...(sentAt === undefined ? {} : { sentAt }),
      executionResult: normalized.result,
      shorthand: normalized.shorthand,
    },
  };
}
