import type { HarnessContinuation } from './continuation.js';
import type { HarnessTranscriptItem } from './transcript.js';
import type { HarnessAggregateUsage } from './usage.js';

/** How a turn ended. */
export type HarnessOutcome =
  | 'completed'
  | 'needs_clarification'
  | 'awaiting_approval'
  | 'deferred'
  | 'failed';

/** Why a turn ended. Each maps to exactly one outcome (see `outcomeForStopReason`). */
export type HarnessStopReason =
  | 'answer_finalized'
  | 'clarification_required'
  | 'approval_required'
  | 'max_iterations_reached'
  | 'max_tool_calls_reached'
  | 'timeout_reached'
  | 'budget_reached'
  | 'cancelled'
  | 'redundant_tool_loop'
  | 'tool_unavailable'
  | 'tool_error_unrecoverable'
  | 'model_refused'
  | 'model_invalid_response'
  | 'runtime_error'
  | 'backend_unsupported'
  | 'continuation_invalid';

/** What the assistant says to the user. */
export interface HarnessAssistantMessage {
  text: string;
  format?: 'markdown' | 'plain';
}

/** Counters for the run that produced the result. */
export interface HarnessTraceSummary {
  /** Model steps taken in this run (never more than `maxIterations`). */
  iterationCount: number;
  /** Tool calls executed in this run. */
  toolCallCount: number;
  hadContinuation: boolean;
  /** Type of the last trace event emitted before `turn_finished`. */
  finalEventType: string;
  /** Trace sink calls that threw or rejected; they never change the outcome. */
  traceSinkErrors: number;
  /** Wall time of this run, in milliseconds. */
  elapsedMs: number;
}

/** Details attached to a result. Known fields are typed; adapters may add more. */
export interface HarnessResultMetadata {
  /** The fault behind `runtime_error`, `model_invalid_response` and other failures. */
  error?: { code: string; message: string; source?: string; retryable?: boolean };
  /** The tool behind `tool_unavailable` or `tool_error_unrecoverable`. */
  toolName?: string;
  [key: string]: unknown;
}

/** The one truthful result of a turn. */
export interface HarnessResult {
  outcome: HarnessOutcome;
  stopReason: HarnessStopReason;
  turnId: string;
  sessionId?: string;
  assistantMessage?: HarnessAssistantMessage;
  /** Present for `needs_clarification`, `awaiting_approval` and `deferred`. */
  continuation?: HarnessContinuation;
  traceSummary: HarnessTraceSummary;
  usage: HarnessAggregateUsage;
  transcript: HarnessTranscriptItem[];
  metadata?: HarnessResultMetadata;
}
