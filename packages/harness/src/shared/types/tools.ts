import type { HarnessUsage } from './usage.js';

/** A tool call the model asked for. `id` is unique within the turn. */
export interface HarnessToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** A tool as offered to the model. */
export interface HarnessToolDefinition {
  name: string;
  description?: string | undefined;
  /** JSON Schema of the tool's input object. */
  inputSchema?: Record<string, unknown> | undefined;
  /**
   * When `true` (or when the function returns `true` for a call's input) the harness does not
   * run the call; the turn ends `awaiting_approval` and the call runs only after approval on resume.
   * The function fails closed: if it throws or returns anything but `false`, approval is required.
   */
  requiresApproval?: boolean | ((input: Record<string, unknown>) => boolean) | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** Who is asking which tools are available. */
export interface HarnessToolAvailabilityInput {
  assistantId: string;
  turnId: string;
  workspaceId?: string | undefined;
  sessionId?: string | undefined;
  userId?: string | undefined;
  threadId?: string | undefined;
  allowedToolNames?: string[] | undefined;
}

/** Context passed to `HarnessToolRegistry.execute`. */
export interface HarnessToolExecutionContext extends HarnessToolAvailabilityInput {
  iteration: number;
  /** Index of the call within the model's step. */
  toolCallIndex: number;
  /** The id of the call being run (set by the harness's loop). */
  callId?: string | undefined;
  /** The name of the tool being called (set by the harness's loop). */
  toolName?: string | undefined;
  /** Aborted when the turn times out or is cancelled. Tools should stop promptly. */
  signal: AbortSignal;
  /**
   * When the turn runs out of time, in `Date.now()` milliseconds. Work that cannot finish by then
   * (a retry's back-off, say) should not start. Absent when the caller set no deadline.
   */
  deadline?: number | undefined;
  /**
   * Small JSON state kept for the rest of the turn: the harness seals it into the turn's
   * continuation and restores it on resume, so a resumed turn sees it (the planning and
   * scratchpad tools keep their lists here). Bounded in size; absent when the caller of the
   * registry provides none.
   */
  state?: HarnessToolState | undefined;
  /**
   * Present when the harness's own model loop runs the call: lets a tool run a nested turn
   * (a subagent) as part of this one — pause this turn for the nested turn's approval or
   * question, read the resume resolution, see the remaining budget and forward trace events.
   */
  turn?: HarnessToolTurnSeam | undefined;
}

/** An approval request a tool asks the turn to pause for (same shape as the turn's own). */
export interface HarnessToolApprovalRequest {
  id: string;
  kind: string;
  summary: string;
  details?: Record<string, unknown> | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** What a tool may pause its turn for. */
export type HarnessToolPauseRequest =
  | { type: 'approval'; requests: HarnessToolApprovalRequest[] }
  | {
      type: 'clarification';
      question: string;
      /** Answers to offer the user (at most 20, each at most 500 characters; blank ones are dropped). */
      choices?: readonly string[] | undefined;
    };

/** The resolution of a resume, as a tool carried over from the paused step sees it. */
export type HarnessToolResumeResolution =
  | { type: 'clarification'; answer: string }
  | { type: 'approval'; decisions: Readonly<Record<string, 'approved' | 'rejected'>> }
  | { type: 'deferred' };

/** See {@link HarnessToolExecutionContext.turn}. */
export interface HarnessToolTurnSeam {
  /**
   * Pauses the turn once this call returns: the turn ends `awaiting_approval` (these requests)
   * or `needs_clarification` (this question), this call's result is not recorded (its usage is),
   * and the call runs again, with the same id, first thing on resume. Keep what the call needs
   * to continue in `state`. The last request of a call wins.
   */
  pause(request: HarnessToolPauseRequest): void;
  /**
   * On a resume, the caller's resolution; given to the calls carried over from the paused step. A
   * clarification's answer is given only to the call whose question the turn asked; the other
   * carried calls see no resolution (a call that paused for a question of its own asks again).
   */
  readonly resolution?: HarnessToolResumeResolution | undefined;
  /** Cost units this run may still spend; absent without a `budgetLimit`. */
  readonly remainingBudget?: number | undefined;
  /** Tool calls this run may still make after this one (`limits.maxToolCalls` minus those started). */
  readonly remainingToolCalls: number;
  /** Model steps this run may still take (`limits.maxIterations` minus those taken). */
  readonly remainingIterations: number;
  /**
   * Forwards a trace event of a nested turn to this turn's trace sink, as it is (add a nesting
   * marker such as `subagentPath` first). Never throws; the sink cannot affect the turn.
   */
  emitTrace(event: { type: string; turnId: string }): void;
  /**
   * Present only while the turn is streamed (`streamTurn`, `streamResumeTurn`): text this call
   * produces as it works, streamed as `tool_text_delta` events (a subagent forwards its answer as
   * its model writes it). Ignored once the call has returned. Never throws.
   */
  emitText?(text: string): void;
}

/** The result of {@link HarnessToolState.set}: stored, or refused with a reason (nothing changed). */
export type HarnessToolStateWrite = { ok: true } | { ok: false; reason: string };

/** One stored value of a turn's tool state, as sealed into a continuation. */
export interface HarnessToolStateEntry {
  key: string;
  value: unknown;
}

/**
 * Per-turn JSON state shared by the tools of one turn and kept across pauses. Use a key
 * prefixed with your registry's name, e.g. `planning.todos`.
 */
export interface HarnessToolState {
  /** The most bytes (UTF-8 of keys and compact JSON values) all entries may take together. */
  readonly maxBytes: number;
  /** Bytes the entries take now. */
  usedBytes(): number;
  /** A fresh copy of the value stored under `key`, or `undefined`. */
  get(key: string): unknown;
  /**
   * Stores a plain JSON copy of `value` under `key`; `undefined` deletes the key. Refuses, and
   * changes nothing, a value that is not plain JSON or would grow the total past `maxBytes`.
   */
  set(key: string, value: unknown): HarnessToolStateWrite;
}

/** A structured tool failure. */
export interface HarnessToolError {
  code: string;
  message: string;
  /**
   * `false` ends the turn as `failed` / `tool_error_unrecoverable`. `true` or absent: the error
   * goes back to the model, which may retry or answer.
   */
  retryable?: boolean | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** The outcome of one tool call. */
export interface HarnessToolResult {
  callId: string;
  toolName: string;
  status: 'success' | 'error';
  output?: string | undefined;
  structuredOutput?: Record<string, unknown> | undefined;
  error?: HarnessToolError | undefined;
  usage?: HarnessUsage | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** The tool seam: what tools exist, and how to run one. */
export interface HarnessToolRegistry {
  listAvailable(
    input: HarnessToolAvailabilityInput,
  ): HarnessToolDefinition[] | Promise<HarnessToolDefinition[]>;
  execute(call: HarnessToolCall, context: HarnessToolExecutionContext): Promise<HarnessToolResult>;
}
