/**
 * The Agent Relay wire messages (`agent-assistant.execution-*.v1`) with their encoders and
 * decoders (Worker-safe), reached through `@agent-assistant/harness/agent-relay`.
 */
export {
  AGENT_RELAY_EXECUTION_CANCEL_TYPE,
  AGENT_RELAY_EXECUTION_EVENT_TYPE,
  AGENT_RELAY_EXECUTION_REQUEST_TYPE,
  AGENT_RELAY_EXECUTION_RESULT_TYPE,
  LEGACY_EXECUTION_RESULT_TYPE,
  MAX_EVENTS_PER_MESSAGE,
  type DecodedExecutionEventMessage,
  type ExecutionEventMessage,
  type DecodedExecutionResultMessage,
  type ExecutionCancelMessage,
  type ExecutionCancelReason,
  type ExecutionRequestMessage,
  type ExecutionResultMessage,
  type RelayDecodeFailureReason,
  type RelayDecodeOptions,
  type RelayDecodeResult,
  type RelayReplyTo,
} from './message-types.js';
export { encodeExecutionRequestMessage, decodeExecutionRequestMessage } from './execution-request-message.js';
export { encodeExecutionResultMessage, decodeExecutionResultMessage } from './execution-result-message.js';
export { encodeExecutionCancelMessage, decodeExecutionCancelMessage } from './execution-cancel-message.js';
export { encodeExecutionEventMessage, decodeExecutionEventMessage } from './execution-event-message.js';
export { decodeWorkerInboundMessage, type WorkerInboundMessage } from './decode-worker-inbound.js';
export { normalizeWorkerResult, SHORTHAND_WORKER_BACKEND_ID } from './normalize-worker-result.js';
