import type { HarnessContinuation } from './continuation.js';
import type { HarnessToolCall, HarnessToolDefinition } from '../../shared/types/tools.js';
import type { HarnessApprovalRequest } from './approval.js';
import type { HarnessInvalidOutputKind, HarnessTranscriptItem } from './transcript.js';
import type {
  HarnessHistoryMessage,
  HarnessInstructions,
  HarnessPreparedContext,
  HarnessToolChoice,
  HarnessUserMessage,
} from '../../shared/types/turn-input.js';
import type { HarnessUsage } from '../../shared/types/usage.js';
import type { HarnessReasoningPart } from './reasoning.js';

/** Fields every model output may carry. */
export interface HarnessModelOutputBase {
  usage?: HarnessUsage | undefined;
  metadata?: Record<string, unknown> | undefined;
  /** Reasoning of this step, in order; kept in the transcript for replay. */
  reasoning?: HarnessReasoningPart[] | undefined;
  /**
   * What the adapter noticed but did not fail the step for (e.g. an output item of a type it does
   * not read, skipped). Traced on `model_step_finished` as `notes`; never sent to the model. The
   * harness keeps the first 16, each cut to 500 characters; anything but non-empty strings is dropped.
   */
  notes?: string[] | undefined;
}

/** The model answered. Ends the turn `completed`. */
export interface HarnessFinalAnswerOutput extends HarnessModelOutputBase {
  type: 'final_answer';
  text: string;
  /**
   * The structured answer when the provider received it as a value (e.g. the input of a forced
   * answer tool). Otherwise, with an `output` schema, the harness parses `text` as JSON.
   */
  value?: unknown;
}

/** The model wants tools run. */
export interface HarnessToolRequestOutput extends HarnessModelOutputBase {
  type: 'tool_request';
  calls: HarnessToolCall[];
  /** Text the model said alongside the calls, kept in the transcript. */
  text?: string | undefined;
}

/** The model needs the user to answer a question. */
export interface HarnessClarificationOutput extends HarnessModelOutputBase {
  type: 'clarification';
  question: string;
}

/** The model asks for approval of an action. */
export interface HarnessApprovalRequestOutput extends HarnessModelOutputBase {
  type: 'approval_request';
  request: HarnessApprovalRequest;
}

/** The model declined. Ends the turn `failed` / `model_refused`. */
export interface HarnessRefusalOutput extends HarnessModelOutputBase {
  type: 'refusal';
  reason: string;
}

/** The adapter could not get a usable output. */
export interface HarnessInvalidOutput extends HarnessModelOutputBase {
  type: 'invalid';
  kind: HarnessInvalidOutputKind;
  reason: string;
  /**
   * Whether asking again can help. Defaults to `false` for `provider_error`, `input_too_large` and
   * `model_refused`, `true` otherwise. The loop asks again (up to
   * `limits.maxConsecutiveInvalidModelOutputs`) only for a retryable output that is not a
   * `provider_error`: a failed provider call was already retried by its adapter (one retry budget
   * per step), so for a `provider_error` this says whether running the turn later can help.
   */
  retryable?: boolean | undefined;
  /**
   * The specific cause, which becomes the failed result's `error.code` (for providers e.g.
   * `missing_api_key`, `authentication_failed`, `quota_exceeded`, `rate_limited`). Absent: `kind` is used.
   */
  code?: string | undefined;
  /**
   * The provider's own error code, as it sent it (e.g. `insufficient_quota`, `not_found_error`,
   * `model_not_found`, `NOT_FOUND`): kept in the transcript's `invalid_output` item and in the failed
   * result's `error.providerCode`. At most 200 characters.
   */
  providerCode?: string | undefined;
  httpStatus?: number | undefined;
}

/** What one model step produced. */
export type HarnessModelOutput =
  | HarnessFinalAnswerOutput
  | HarnessToolRequestOutput
  | HarnessClarificationOutput
  | HarnessApprovalRequestOutput
  | HarnessRefusalOutput
  | HarnessInvalidOutput;

/** The structured answer a step must give, as a provider sends it: a name and a JSON Schema (object root). */
export interface HarnessOutputFormat {
  /** A name for the schema (`[A-Za-z0-9_-]`, at most 64 characters). */
  name: string;
  jsonSchema: Record<string, unknown>;
  description?: string | undefined;
}

/** Everything a model adapter needs for one step. Rebuilt every iteration. */
export interface HarnessModelInput {
  assistantId: string;
  turnId: string;
  workspaceId?: string | undefined;
  sessionId?: string | undefined;
  userId?: string | undefined;
  threadId?: string | undefined;
  message: HarnessUserMessage;
  instructions: HarnessInstructions;
  context?: HarnessPreparedContext | undefined;
  /** The conversation before `message`, oldest first; replay it as role messages before `message`. */
  history?: HarnessHistoryMessage[] | undefined;
  /**
   * Present when the final answer must be a JSON value of this schema. Ask natively where the API
   * can; otherwise the schema is in the instructions (see `renderInstructions`).
   */
  output?: HarnessOutputFormat | undefined;
  /** This step's tool choice; absent means `'auto'`. */
  toolChoice?: HarnessToolChoice | undefined;
  /** The turn so far (a copy). */
  transcript: HarnessTranscriptItem[];
  availableTools: HarnessToolDefinition[];
  /** 1-based number of this model step within the current run. */
  iteration: number;
  /** Tool calls executed so far in the current run. */
  toolCallCount: number;
  elapsedMs: number;
  /** Budget left in cost units, when `limits.budgetLimit` is set. */
  remainingBudget?: number | undefined;
  /** The continuation this run resumed from, if any. */
  continuation?: HarnessContinuation | undefined;
  metadata?: Record<string, unknown> | undefined;
  /** Aborted when the turn times out or is cancelled. Adapters should pass it to `fetch`. */
  signal: AbortSignal;
  /**
   * When the turn runs out of time, in `Date.now()` milliseconds (as tools get it). Work that cannot
   * finish by then — a retry's back-off, say — should not start.
   */
  deadline?: number | undefined;
}

/** A piece of a streamed model step: text as it arrives, then exactly one output. */
export type HarnessModelStreamPart =
  | { type: 'text_delta'; text: string }
  /** Reasoning text as it arrives; never part of the answer. */
  | { type: 'reasoning_delta'; text: string }
  | { type: 'output'; output: HarnessModelOutput };

/** The model seam. */
export interface HarnessModelAdapter {
  /**
   * The model's context window in tokens, when known (every provider factory takes it as the
   * `contextWindow` option; profiles as `contextWindow`). Known, the harness compacts the
   * conversation before a step whose estimated input passes `compaction.threshold` of it, and once
   * after the provider answers with its context-overflow error; unknown, never automatically (see
   * docs/context.md). A positive whole number; read once by `createHarness`.
   */
  readonly contextWindow?: number | undefined;
  nextStep(input: HarnessModelInput): Promise<HarnessModelOutput>;
  /** Optional streaming variant used by `streamTurn`. Must end with one `output` part. */
  streamStep?(input: HarnessModelInput): AsyncIterable<HarnessModelStreamPart>;
}
