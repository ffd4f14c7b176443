import type { ExecutionRequest, ExecutionResult, ExecutionStreamEvent } from '../../execution/types.js';

/** The `type` of a request message: an orchestrator asks a worker to run one turn. */
export const AGENT_RELAY_EXECUTION_REQUEST_TYPE = 'agent-assistant.execution-request.v1';
/** The `type` of a result message: a worker answers one request. */
export const AGENT_RELAY_EXECUTION_RESULT_TYPE = 'agent-assistant.execution-result.v1';
/** The `type` of an event message: a worker's live events of one request, while it runs. */
export const AGENT_RELAY_EXECUTION_EVENT_TYPE = 'agent-assistant.execution-event.v1';
/** Most events one event message carries. */
export const MAX_EVENTS_PER_MESSAGE = 256;
/** The `type` of a cancel message: the orchestrator no longer waits for a request's result. */
export const AGENT_RELAY_EXECUTION_CANCEL_TYPE = 'agent-assistant.execution-cancel.v1';
/** A result `type` older workers send; accepted when decoding results, never sent. */
export const LEGACY_EXECUTION_RESULT_TYPE = 'execution-result';

/** Where a worker sends its reply. */
export interface RelayReplyTo {
  /** The orchestrator's name on the relay: the `to` of the reply. */
  agentId: string;
  /** The channel of the conversation, informational. */
  channelId?: string;
}

/** The body of a request message, as JSON. One request id per `execute` call. */
export interface ExecutionRequestMessage {
  type: typeof AGENT_RELAY_EXECUTION_REQUEST_TYPE;
  /** Unique per `execute` call; the reply and any cancel carry it. */
  requestId: string;
  /** `request.turnId`. */
  turnId: string;
  /** The relay thread the reply must come back on. */
  threadId: string;
  replyTo: RelayReplyTo;
  /** ISO-8601 time the orchestrator sent the message. */
  sentAt: string;
  /** ISO-8601 time after which the orchestrator no longer waits; a worker should stop by then. */
  deadline?: string;
  /** The whole turn, as the harness built it. */
  request: ExecutionRequest;
  /**
   * `true` when the orchestrator streams the turn: the worker may send its live events as
   * `agent-assistant.execution-event.v1` messages before the result. Workers that do not know
   * the field ignore it and send only the result.
   */
  stream?: boolean;
}

/** The body of a result message, as JSON. */
export interface ExecutionResultMessage {
  type: typeof AGENT_RELAY_EXECUTION_RESULT_TYPE;
  /** The `requestId` of the request this answers. */
  requestId: string;
  turnId: string;
  threadId: string;
  /** ISO-8601 time the worker sent the message. */
  sentAt: string;
  /** The worker's answer, following the `ExecutionResult` contract. */
  executionResult: ExecutionResult;
}

/**
 * The body of an event message, as JSON: live events of one request (`text_delta`,
 * `tool_activity`, `plan_update`, `approval_requested`), sent by the worker while the run goes on
 * and before its result, only for a request that asked for them (`stream: true`). Best effort: the
 * result carries the whole answer whatever events were lost.
 */
export interface ExecutionEventMessage {
  type: typeof AGENT_RELAY_EXECUTION_EVENT_TYPE;
  requestId: string;
  turnId: string;
  threadId: string;
  /** ISO-8601 time the worker sent the message. */
  sentAt: string;
  /** 0 for the first event message of a request, then 1, 2 …: the receiver drops repeats and notices gaps. */
  seq: number;
  /** 1 to {@link MAX_EVENTS_PER_MESSAGE} events, in the order they happened. */
  events: ExecutionStreamEvent[];
}

/** An event message as decoded: events of unknown or broken shapes are left out and counted. */
export interface DecodedExecutionEventMessage extends ExecutionEventMessage {
  /** Events of the message that were not valid `ExecutionStreamEvent`s (a newer worker's, or broken). */
  droppedEvents: number;
}

/** Why the orchestrator cancelled a request. */
export type ExecutionCancelReason = 'cancelled' | 'timeout';

/** The body of a cancel message, as JSON. A worker stops the run of that request, if any. */
export interface ExecutionCancelMessage {
  type: typeof AGENT_RELAY_EXECUTION_CANCEL_TYPE;
  requestId: string;
  turnId: string;
  threadId: string;
  /** ISO-8601 time the orchestrator sent the message. */
  sentAt: string;
  reason: ExecutionCancelReason;
}

/**
 * A result message as decoded on the orchestrator's side. Workers that speak the protocol loosely
 * may leave out ids, so each is optional here; `shorthand` tells whether the result was rebuilt
 * from a non-canonical payload such as `{ status: "ok", answer: "…" }`.
 */
export interface DecodedExecutionResultMessage {
  type: typeof AGENT_RELAY_EXECUTION_RESULT_TYPE | typeof LEGACY_EXECUTION_RESULT_TYPE;
  requestId?: string;
  turnId?: string;
  threadId?: string;
  sentAt?: string;
  executionResult: ExecutionResult;
  /** `true` when `executionResult` was normalised from worker shorthand. */
  shorthand: boolean;
}

/** Why a body was not decoded as the expected message. */
export type RelayDecodeFailureReason =
  /** Longer than the decoder's limit; not parsed at all. */
  | 'too_large'
  /** Not JSON, or JSON that is not an object. */
  | 'not_json'
  /** A JSON object of another type: not meant for this decoder. */
  | 'foreign'
  /** The right type, but a shape that breaks the protocol. */
  | 'malformed';

/** The outcome of a decoder: the message, or why there is none. Decoders never throw. */
export type RelayDecodeResult<Message> =
  | { ok: true; message: Message }
  | { ok: false; reason: RelayDecodeFailureReason; detail: string };

/** Options of the decoders. */
export interface RelayDecodeOptions {
  /** Bodies longer than this many characters are rejected unparsed. Default 4 000 000. */
  maxChars?: number;
}
