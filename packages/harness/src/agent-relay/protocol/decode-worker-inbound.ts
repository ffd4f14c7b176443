import { cancelFromBody } from './execution-cancel-message.js';
import { requestFromBody } from './execution-request-message.js';
import {
  AGENT_RELAY_EXECUTION_CANCEL_TYPE,
  type ExecutionCancelMessage,
  type ExecutionRequestMessage,
  type RelayDecodeOptions,
  type RelayDecodeResult,
} from './message-types.js';
import { parseBody, typeOf } from './parse-body.js';

/** What a worker receives: a request to run, or a cancel of one. */
export type WorkerInboundMessage = ExecutionRequestMessage | ExecutionCancelMessage;

/**
 * Decodes a body a worker received, parsing it once: a request or a cancel message. Anything
 * else is `foreign` (or `not_json`/`too_large`); a request or cancel with a bad shape is
 * `malformed`. Never throws.
 */
export function decodeWorkerInboundMessage(text: string, options?: RelayDecodeOptions): RelayDecodeResult<WorkerInboundMessage> {
  const body = parseBody(text, options);
  if (!body.ok) return body;
  return typeOf(body.message) === AGENT_RELAY_EXECUTION_CANCEL_TYPE ? cancelFromBody(body.message) : requestFromBody(body.message);
}
