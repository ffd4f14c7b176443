import type { ExecutionStreamEvent } from '../../execution/types.js';
import type { HarnessContinuation, HarnessResumeOptions, HarnessResumeResolution } from './continuation.js';
import type { HarnessModelOutput } from './model.js';
import type { HarnessResult } from './result.js';
import type { HarnessToolCall, HarnessToolResult } from '../../shared/types/tools.js';
import type { HarnessRunOptions, HarnessTurnInput } from '../../shared/types/turn-input.js';

/**
 * What a backend reports while it works, streamed as it happens: the engine's own tool calls
 * (`tool_activity`), its plan (`plan_update`) and its permission requests (`approval_requested`).
 * Same fields as the backend's `ExecutionStreamEvent`, plus the step's `iteration`.
 */
export type HarnessBackendStreamEvent = Exclude<ExecutionStreamEvent, { type: 'text_delta' }> & { iteration: number };

/**
 * Events of `streamTurn`, discriminated on `type`; the last one is always `result`. The
 * `text_delta`s of a step concatenate to its answer text; a backend that streams live sends them
 * as they come (no repeat at the end).
 */
export type HarnessStreamEvent =
  | { type: 'turn_started'; turnId: string }
  | { type: 'step_started'; iteration: number }
  | { type: 'text_delta'; iteration: number; text: string }
  | HarnessBackendStreamEvent
  | { type: 'step_finished'; iteration: number; outputType: HarnessModelOutput['type'] }
  | { type: 'tool_started'; iteration: number; call: HarnessToolCall }
  | { type: 'tool_finished'; iteration: number; result: HarnessToolResult }
  | { type: 'result'; result: HarnessResult };

/** An async iterable of stream events with the final result as a promise. */
export interface HarnessTurnStream extends AsyncIterable<HarnessStreamEvent> {
  /** Settles with the turn's result; never rejects for model, tool or sink faults. */
  readonly result: Promise<HarnessResult>;
}

/** What `createHarness` returns. */
export interface HarnessRuntime {
  /** Runs one bounded turn. Rejects only with `HarnessConfigError` for a malformed input. */
  runTurn(input: HarnessTurnInput, options?: HarnessRunOptions): Promise<HarnessResult>;
  /** Runs a turn and streams text deltas and step events as they happen. */
  streamTurn(input: HarnessTurnInput, options?: HarnessRunOptions): HarnessTurnStream;
  /**
   * Continues a paused turn from its continuation. A tampered, expired, foreign or malformed
   * continuation yields `failed` / `continuation_invalid`; a malformed resolution throws
   * `HarnessConfigError`.
   */
  resumeTurn(
    continuation: HarnessContinuation | unknown,
    resolution: HarnessResumeResolution,
    options?: HarnessResumeOptions,
  ): Promise<HarnessResult>;
  /**
   * `resumeTurn` with the events of `streamTurn`: the continued turn's text deltas and a
   * backend's live events (e.g. an engine that runs the command it was just allowed to).
   * A malformed resolution or steering handle makes `result` reject (and the iteration throw)
   * with `HarnessConfigError`.
   */
  streamResumeTurn(
    continuation: HarnessContinuation | unknown,
    resolution: HarnessResumeResolution,
    options?: HarnessResumeOptions,
  ): HarnessTurnStream;
}
