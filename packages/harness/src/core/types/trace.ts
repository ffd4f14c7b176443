import type { HarnessApprovalRequest } from './approval.js';
import type { HarnessModelOutput } from './model.js';
import type { HarnessOutcome, HarnessStopReason } from './outcome.js';
import type { HarnessToolCall, HarnessToolResult } from '../../shared/types/tools.js';
import type { HarnessSteerStatus } from '../../shared/types/steering.js';
import type { HarnessUsage } from '../../shared/types/usage.js';
import type { HarnessCompactionReceipt } from './compaction.js';

/** Fields on every trace event. */
export interface HarnessBaseTraceEvent {
  /** ISO-8601 time the event was emitted. */
  timestamp: string;
  assistantId: string;
  turnId: string;
  workspaceId?: string;
  sessionId?: string;
  userId?: string;
  threadId?: string;
  iteration: number;
  toolCallCount: number;
  /** Milliseconds since the run started. */
  elapsedMs: number;
  /**
   * On events of a nested turn (a subagent run by the `task` tool): the subagent names from the
   * outermost in. Such events carry the parent's `turnId`; their counters are the nested turn's.
   */
  subagentPath?: string[];
}

/** Every trace event, discriminated on `type`. */
export type HarnessTraceEvent = HarnessBaseTraceEvent &
  (
    | { type: 'turn_started'; resumedFrom?: string }
    | { type: 'model_step_started' }
    | {
        type: 'model_step_finished';
        outputType: HarnessModelOutput['type'];
        usage?: HarnessUsage;
        latencyMs: number;
        invalidKind?: string;
        /** The output's `notes`: what the adapter skipped or noticed without failing the step. */
        notes?: string[];
      }
    | { type: 'tool_requested'; calls: HarnessToolCall[] }
    | { type: 'tool_started'; call: HarnessToolCall }
    | { type: 'tool_finished'; result: HarnessToolResult; latencyMs: number }
    | { type: 'tool_failed'; result: HarnessToolResult; latencyMs: number }
    | { type: 'clarification_requested'; question: string }
    | { type: 'approval_requested'; requests: HarnessApprovalRequest[] }
    | { type: 'limit_reached'; stopReason: HarnessStopReason }
    /**
     * The turn compacted its history and transcript (see docs/context.md): the receipt's counts,
     * the time it took (`latencyMs`, the summary call included) and the model's `contextWindow`.
     * Also when the summary call failed (`compacted: false`; the turn then ends `failed`).
     */
    | ({ type: 'history_compacted'; latencyMs: number; contextWindow?: number } & Omit<HarnessCompactionReceipt, 'iteration'>)
    /** What became of one `steer()` input (its text is not traced, only its length). */
    | { type: 'steer'; steerId: string; status: HarnessSteerStatus; chars: number }
    | { type: 'turn_finished'; outcome: HarnessOutcome; stopReason: HarnessStopReason }
  );

/** The names of all trace event types. */
export type HarnessTraceEventType = HarnessTraceEvent['type'];

/**
 * Receives trace events in order. `emit` is called synchronously and never awaited: a sink
 * that throws, rejects or hangs cannot change or delay the turn. Async sinks should buffer.
 */
export interface HarnessTraceSink {
  emit(event: HarnessTraceEvent): void | Promise<void>;
}
