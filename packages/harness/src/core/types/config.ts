import type { ExecutionAdapter, ExecutionRequirements } from '../../execution/types.js';
import type { HarnessApprovalRequest } from './approval.js';
import type { HarnessResumeGuard } from './continuation.js';
import type { HarnessInvalidOutput, HarnessModelAdapter } from './model.js';
import type { HarnessCompactionConfig } from './compaction.js';
import type { HarnessResult } from './result.js';
import type {
  HarnessToolRegistry,
  HarnessToolResult,
  HarnessToolAvailabilityInput,
} from '../../shared/types/tools.js';
import type { HarnessTraceSink } from './trace.js';
import type { HarnessOutputSchema } from '../../shared/types/schema.js';
import type { HarnessTranscriptItem } from './transcript.js';
import type { HarnessInstructions, HarnessToolChoice, HarnessUserMessage } from '../../shared/types/turn-input.js';

/** Hard limits of one run of a turn. Every resume gets a fresh set. */
export interface HarnessLimits {
  /**
   * Model steps per run.
   * @default 6
   */
  maxIterations?: number | undefined;
  /**
   * Tool calls executed per run. A step asking for more runs the calls that fit, then defers.
   * @default 8
   */
  maxToolCalls?: number | undefined;
  /**
   * Wall time per run, in milliseconds, enforced during model and tool calls.
   * @default 30000
   */
  maxElapsedMs?: number | undefined;
  /**
   * Invalid model outputs tolerated in a row; one more fails the turn (`model_invalid_response`). A
   * failed provider call (`provider_error`) is never asked again: its adapter already spent the
   * step's retries (`retry.maxRetries`), and the turn ends `provider_error` at once.
   * @default 2
   */
  maxConsecutiveInvalidModelOutputs?: number | undefined;
  /**
   * Cost units a run may spend; checked before every model call. `undefined` turns it off.
   * @default undefined
   */
  budgetLimit?: number | undefined;
  /**
   * Tool calls of one step that may run at once. `1` runs them one after another.
   * @default 1
   */
  toolConcurrency?: number | undefined;
  /**
   * Upper bound on a continuation's JSON size, in UTF-8 bytes, signature included. The carried
   * history (tool outputs, earlier call inputs, texts) is shortened, marked `…[truncated]`, to
   * fit; when even that does not fit (a huge input, many pending calls or approval requests) the
   * turn ends `failed` / `runtime_error` with `metadata.error.code` `continuation_too_large`.
   * `resumeTurn` refuses larger input before reading it.
   * @default 262144
   */
  maxContinuationBytes?: number | undefined;
  /**
   * Attachments a turn may carry, counted over `message` and every `history` message. Checked
   * before the first model or backend call; more ends the turn `failed` / `runtime_error` with
   * `metadata.error.code` `too_many_attachments`.
   * @default 16
   */
  maxAttachments?: number | undefined;
  /**
   * Inline bytes (decoded base64 `data`, or a base64 `data:` URL) one attachment may carry; an
   * `http(s)` URL counts as 0. Checked before the first call; a larger one ends the turn `failed` /
   * `runtime_error` with `metadata.error.code` `attachment_too_large`.
   * @default 20971520
   */
  maxAttachmentBytes?: number | undefined;
  /**
   * Messages `history` may hold. Checked before the first call; more ends the turn `failed` /
   * `runtime_error` with `metadata.error.code` `too_many_history_messages` (trim the oldest).
   * @default 200
   */
  maxHistoryMessages?: number | undefined;
}

/** A time source. Inject one for deterministic tests. */
export interface HarnessClock {
  /** Epoch milliseconds. */
  now(): number;
}

/** Read-only view of a run, given to hooks. */
export interface HarnessExecutionState {
  assistantId: string;
  turnId: string;
  workspaceId?: string | undefined;
  sessionId?: string | undefined;
  userId?: string | undefined;
  threadId?: string | undefined;
  iteration: number;
  toolCallCount: number;
  elapsedMs: number;
  input: { message: HarnessUserMessage; instructions: HarnessInstructions };
  transcript: HarnessTranscriptItem[];
}

/** What `clarifyOnToolResult` returns to pause the turn for the user. */
export interface HarnessToolClarification {
  question: string;
  reason?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/**
 * Hooks into the loop. Hooks are awaited within the turn's time limit; one that throws ends the
 * turn `failed` / `runtime_error` — except `onTurnFinished`, whose faults are ignored.
 */
export interface HarnessHooks {
  onInvalidModelOutput?(output: HarnessInvalidOutput, state: HarnessExecutionState): void | Promise<void>;
  /**
   * Called for each failed tool call. Return `'continue'` to hand even a non-retryable error back to
   * the model, or `'fail'` to end the turn `tool_error_unrecoverable` even for a retryable one.
   */
  onToolError?(
    result: HarnessToolResult,
    state: HarnessExecutionState,
  ): void | 'continue' | 'fail' | Promise<void | 'continue' | 'fail'>;
  /** Called for every tool result; returning a question pauses the turn for the user. */
  clarifyOnToolResult?(
    result: HarnessToolResult,
    state: HarnessExecutionState,
  ): HarnessToolClarification | undefined | Promise<HarnessToolClarification | undefined>;
  onTurnFinished?(result: HarnessResult, state: HarnessExecutionState): void | Promise<void>;
  /**
   * Called before every model step (`state.iteration` is the step about to run, counted from 1 in
   * each run — a resume starts again at 1). A returned `toolChoice` replaces the turn's
   * `toolChoice` for that step only, e.g. force a tool on the first step:
   * `prepareStep: (state) => (state.iteration === 1 ? { toolChoice: { name: 'search' } } : undefined)`.
   * A value that is not `undefined` or `{ toolChoice? }` ends the turn `failed` / `runtime_error`.
   */
  prepareStep?(state: HarnessExecutionState): HarnessStepPreparation | undefined | void | Promise<HarnessStepPreparation | undefined | void>;
}

/** What `hooks.prepareStep` may change for one model step. */
export interface HarnessStepPreparation {
  /** This step's tool choice; absent keeps the turn's `toolChoice`. */
  toolChoice?: HarnessToolChoice | undefined;
}

/** Input of `HarnessApprovalAdapter.prepareRequest`. */
export interface HarnessApprovalRequestInput extends HarnessToolAvailabilityInput {
  request: HarnessApprovalRequest;
}

/** Lets a product register approval requests in its own system (and enrich them) before the turn pauses. */
export interface HarnessApprovalAdapter {
  prepareRequest(input: HarnessApprovalRequestInput): HarnessApprovalRequest | Promise<HarnessApprovalRequest>;
}

/** Fields shared by both kinds of harness. */
export interface HarnessBaseConfig {
  tools?: HarnessToolRegistry | undefined;
  approvals?: HarnessApprovalAdapter | undefined;
  trace?: HarnessTraceSink | undefined;
  clock?: HarnessClock | undefined;
  limits?: HarnessLimits | undefined;
  hooks?: HarnessHooks | undefined;
  /**
   * The HMAC-SHA-256 key that signs continuations; resumes refuse unsigned, altered or foreign
   * ones. Give the same secret to every harness that pauses or resumes a turn. At least 16
   * characters (use 32 random bytes, e.g. base64). To rotate, pass `[current, previous]`: the
   * first signs, any of them verifies, so paused turns survive the rotation.
   *
   * Without it, continuations are signed with a random key made once per process (per isolate in
   * a Worker): pausing and resuming in one process works, a continuation from anywhere else is
   * refused (`continuation_invalid`).
   */
  continuationSecret?: string | readonly string[] | undefined;
  /**
   * `'allow'` accepts continuations without a signature and, when there is no
   * `continuationSecret`, seals them unsigned. Risk: whoever can hand `resumeTurn` a continuation
   * can then make it run any pending tool call with any input, already approved — use it only when
   * continuations never leave your own trusted store.
   */
  unsignedContinuations?: 'allow' | undefined;
  /** Continuations expire this many milliseconds after creation. `undefined`: never. */
  continuationTtlMs?: number | undefined;
  /**
   * Makes each continuation resumable once: a second `resumeTurn` of the same continuation ends
   * `failed` / `continuation_invalid` and runs nothing. Without a guard a continuation can be
   * resumed again (and an approved tool would run again).
   */
  resumeGuard?: HarnessResumeGuard | undefined;
  /** Requirements sent to a backend's `negotiate`. Ignored with a `model`. */
  requirements?: ExecutionRequirements | undefined;
  /** Id generator for continuation ids and tokens; defaults to `crypto.randomUUID`. */
  generateId?: (() => string) | undefined;
  /**
   * The schema every turn's final answer must match: a zod 4 schema, any Standard Schema with
   * JSON Schema, or `{ jsonSchema, validate? }` (the forms `defineTool` takes; the root must be an
   * object). A `completed` result then carries the validated value in `result.output`, typed from
   * the schema; an answer that does not match counts as an invalid model output. A call's own
   * `output` option replaces it. Checked by `createHarness` (`HarnessConfigError` naming `output`).
   * See docs/structured-output.md.
   * @default undefined (plain text answers)
   */
  output?: HarnessOutputSchema | undefined;
  /**
   * Fields added to the `metadata` of every result this harness returns (the result's own fields
   * win on a clash), e.g. which project instructions a turn ran with (`createAgentHarness` sets
   * `agentProject`). Plain JSON, copied once by `createHarness`; a value that is not a plain
   * object of JSON values throws `HarnessConfigError` naming `resultMetadata`.
   * @default undefined
   */
  resultMetadata?: Readonly<Record<string, unknown>> | undefined;
}

/** The harness drives the loop with a model adapter. */
export interface HarnessModelConfig extends HarnessBaseConfig {
  model: HarnessModelAdapter;
  backend?: never;
  /**
   * How the turn's conversation is compacted to fit the model's context window: automatically when
   * the model states its `contextWindow` (before a step whose estimated input passes `threshold` of
   * it, and once after the provider's context-overflow error), and by `harness.compact`. Checked by
   * `createHarness` (`HarnessConfigError` naming the field). See docs/context.md.
   * @default { auto: true, threshold: 0.8, keepRecent: 4, maxSummaryChars: 4000 }
   */
  compaction?: HarnessCompactionConfig | undefined;
}

/** An execution backend drives the turn; the harness bounds and normalises it. */
export interface HarnessBackendConfig extends HarnessBaseConfig {
  backend: ExecutionAdapter;
  model?: never;
}

/** Configuration of `createHarness`: exactly one of `model` or `backend`. */
export type HarnessConfig = HarnessModelConfig | HarnessBackendConfig;
