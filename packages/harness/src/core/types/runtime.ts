import type { ExecutionStreamEvent } from '../../execution/types.js';
import type { HarnessContinuation, HarnessResumeOptions, HarnessResumeResolution } from './continuation.js';
import type { HarnessModelOutput } from './model.js';
import type { HarnessResult } from './result.js';
import type { HarnessToolCall, HarnessToolResult } from '../../shared/types/tools.js';
import type { HarnessRunOptions, HarnessTurnInput } from '../../shared/types/turn-input.js';
import type { HarnessOutputSchema, InferHarnessOutput } from '../../shared/types/schema.js';
import type { HarnessHistoryMessage } from '../../shared/types/turn-input.js';
import type { HarnessCompactOptions, HarnessCompactResult } from './compaction.js';

/**
 * What a backend reports while it works, streamed as it happens: the engine's own tool calls
 * (`tool_activity`), its plan (`plan_update`) and its permission requests (`approval_requested`).
 * Same fields as the backend's `ExecutionStreamEvent`, plus the step's `iteration`.
 */
export type HarnessBackendStreamEvent = Exclude<ExecutionStreamEvent, { type: 'text_delta' }> & { iteration: number };

/**
 * Events of `streamTurn`, discriminated on `type`; the last one is always `result`. The
 * `text_delta`s of a step concatenate to its answer text; a backend that streams live sends them
 * as they come (no repeat at the end). With an `output` schema, an accepted structured answer
 * comes as one `output` event right before `result`.
 */
export type HarnessStreamEvent<TOutput = unknown> =
  | { type: 'turn_started'; turnId: string }
  | { type: 'step_started'; iteration: number }
  | { type: 'text_delta'; iteration: number; text: string }
  /** The model's reasoning text as it arrives (from `reasoning_delta` model parts); never part of the answer. */
  | { type: 'reasoning_delta'; iteration: number; text: string }
  | HarnessBackendStreamEvent
  | { type: 'step_finished'; iteration: number; outputType: HarnessModelOutput['type'] }
  | { type: 'tool_started'; iteration: number; call: HarnessToolCall }
  | { type: 'tool_finished'; iteration: number; result: HarnessToolResult }
  /**
   * Text a tool call produces while it runs (from `context.turn.emitText`): a subagent's answer as
   * its model writes it. Between that call's `tool_started` and `tool_finished`; never part of the answer.
   */
  | { type: 'tool_text_delta'; iteration: number; callId: string; toolName: string; text: string }
  /**
   * With an `output` schema, while a streaming model writes its answer as JSON text: the value the
   * text so far stands for (members read completely, strings as far as they go; numbers and
   * literals once finished), each time it grew; each only extends the one before (a repeated key
   * keeps its first value). Not validated — the schema checks only the whole answer, read like
   * `JSON.parse`; a step that fails it is followed by the retry's partials (a new `iteration`).
   */
  | { type: 'output_partial'; iteration: number; output: HarnessPartialOutput<TOutput> }
  /** The structured answer (the same value as `result.output`), when the turn's `output` schema accepted one. */
  | { type: 'output'; output: TOutput }
  | { type: 'result'; result: HarnessResult<TOutput> };

/** What an `output_partial` event carries: `T` with every member optional, all the way down. */
export type HarnessPartialOutput<T> = T extends readonly (infer Element)[]
  ? HarnessPartialOutput<Element>[]
  : T extends object
    ? { [Key in keyof T]?: HarnessPartialOutput<T[Key]> }
    : T;

/** An async iterable of stream events with the final result as a promise. */
export interface HarnessTurnStream<TOutput = unknown> extends AsyncIterable<HarnessStreamEvent<TOutput>> {
  /** Settles with the turn's result; never rejects for model, tool or sink faults. */
  readonly result: Promise<HarnessResult<TOutput>>;
}

/**
 * The type of `result.output` of one call: from the call's own `output` schema when it has one,
 * else the harness's (`THarnessOutput`).
 */
export type HarnessTurnOutput<TSchema, THarnessOutput> = [TSchema] extends [undefined]
  ? THarnessOutput
  : undefined extends TSchema
    ? InferHarnessOutput<Exclude<TSchema, undefined>> | THarnessOutput
    : InferHarnessOutput<TSchema>;

/**
 * What `createHarness` returns. `TOutput` is the type of `result.output` from the harness's
 * `output` schema; a call's own `output` option replaces it for that call.
 */
export interface HarnessRuntime<TOutput = unknown> {
  /** Runs one bounded turn. Rejects only with `HarnessConfigError` for a malformed input (or `output` schema). */
  runTurn<TSchema extends HarnessOutputSchema | undefined = undefined>(
    input: HarnessTurnInput,
    options?: HarnessRunOptions<TSchema>,
  ): Promise<HarnessResult<HarnessTurnOutput<TSchema, TOutput>>>;
  /** Runs a turn and streams text deltas and step events as they happen. */
  streamTurn<TSchema extends HarnessOutputSchema | undefined = undefined>(
    input: HarnessTurnInput,
    options?: HarnessRunOptions<TSchema>,
  ): HarnessTurnStream<HarnessTurnOutput<TSchema, TOutput>>;
  /**
   * Continues a paused turn from its continuation. A tampered, expired, foreign or malformed
   * continuation yields `failed` / `continuation_invalid`; a malformed resolution throws
   * `HarnessConfigError`.
   */
  resumeTurn<TSchema extends HarnessOutputSchema | undefined = undefined>(
    continuation: HarnessContinuation | unknown,
    resolution: HarnessResumeResolution,
    options?: HarnessResumeOptions<TSchema>,
  ): Promise<HarnessResult<HarnessTurnOutput<TSchema, TOutput>>>;
  /**
   * `resumeTurn` with the events of `streamTurn`: the continued turn's text deltas and a
   * backend's live events (e.g. an engine that runs the command it was just allowed to).
   * A malformed resolution or steering handle makes `result` reject (and the iteration throw)
   * with `HarnessConfigError`.
   */
  streamResumeTurn<TSchema extends HarnessOutputSchema | undefined = undefined>(
    continuation: HarnessContinuation | unknown,
    resolution: HarnessResumeResolution,
    options?: HarnessResumeOptions<TSchema>,
  ): HarnessTurnStream<HarnessTurnOutput<TSchema, TOutput>>;
  /**
   * Compacts a conversation on demand, outside any turn: one summary call (no tools, its own
   * `timeoutMs`) folds the older history — and, with `options.transcript`, the older steps of a
   * turn — into one message, keeping the `keepRecent` most recent units and every `pinned`
   * message, never splitting a tool call from its result and dropping old reasoning first. The
   * result is never larger than the input. Resolves with the new history and a receipt (messages
   * and bytes before and after, the summary's usage); a summary call that fails leaves the input
   * unchanged and says why in `error`. Rejects only with `HarnessConfigError` (malformed input or
   * options, or a harness with a backend). See docs/context.md.
   * @example
   * ```ts
   * const { history, receipt } = await harness.compact(storedHistory, { keepRecent: 6 });
   * console.log(`${receipt.bytesBefore} → ${receipt.bytesAfter} bytes`);
   * ```
   */
  compact(history: readonly HarnessHistoryMessage[], options?: HarnessCompactOptions): Promise<HarnessCompactResult>;
}
