import type { HarnessSteerStatus } from '../../shared/types/steering.js';
import type { HarnessContinuation } from './continuation.js';
import type { HarnessOutcome, HarnessStopReason } from './outcome.js';
import type { HarnessTranscriptItem } from './transcript.js';
import type { HarnessAggregateUsage } from '../../shared/types/usage.js';
import type { HarnessCompactionMetadata } from './compaction.js';
import type { HarnessResultError } from './result-error.js';

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
  error?: { code: string; message: string; source?: string; retryable?: boolean; providerCode?: string };
  /** The tool behind `tool_unavailable` or `tool_error_unrecoverable`. */
  toolName?: string;
  /**
   * The `metadata.receipt` of every model output of this run that carried one, in call order:
   * models from `createModelFromProfile` stamp profile id, protocol, model, endpoint host, request
   * bytes, usage and cost.
   */
  modelReceipts?: Record<string, unknown>[];
  /**
   * For `needs_clarification` asked by a tool call (the `question` tool, a subagent) or after a
   * tool result (`hooks.clarifyOnToolResult`): that call, its tool, the hook's reason, and the
   * answers the asker offered. The question is `assistantMessage.text`.
   */
  clarification?: { callId: string; toolName: string; reason?: string | undefined; choices?: string[] | undefined };
  /** When the caller steered the turn: how many inputs ended in each status (see `createSteering`). */
  steering?: Partial<Record<HarnessSteerStatus, number>>;
  /**
   * When the run compacted its conversation: each compaction's receipt, and the history after the
   * last one (store it in place of the history you sent). See docs/context.md.
   */
  compaction?: HarnessCompactionMetadata;
  [key: string]: unknown;
}

/**
 * The one truthful result of a turn. `TOutput` is the type of `output`, inferred from the turn's
 * `output` schema (see `createHarness`).
 */
export interface HarnessResult<TOutput = unknown> {
  outcome: HarnessOutcome;
  stopReason: HarnessStopReason;
  turnId: string;
  sessionId?: string;
  assistantMessage?: HarnessAssistantMessage;
  /**
   * The structured answer, parsed and validated against the turn's `output` schema (the value its
   * validator returned). Present only when the turn has a schema and ended `completed`; the
   * answer's JSON text is `assistantMessage.text`. See docs/structured-output.md.
   */
  output?: TOutput;
  /** Present for `needs_clarification`, `awaiting_approval` and `deferred`. */
  continuation?: HarnessContinuation;
  traceSummary: HarnessTraceSummary;
  usage: HarnessAggregateUsage;
  transcript: HarnessTranscriptItem[];
  /** Present exactly when `outcome` is `failed`. */
  error?: HarnessResultError;
  metadata?: HarnessResultMetadata;
}
