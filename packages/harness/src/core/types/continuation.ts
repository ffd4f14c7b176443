import type { ExecutionContinuation, ExecutionRequest } from '../../execution/types.js';
import type { HarnessApprovalRequest } from './approval.js';
import type { HarnessStopReason } from './outcome.js';
import type { HarnessToolCall, HarnessToolStateEntry } from '../../shared/types/tools.js';
import type { HarnessTranscriptItem } from './transcript.js';
import type { HarnessTurnInput } from '../../shared/types/turn-input.js';
import type { HarnessOutputSchema } from '../../shared/types/schema.js';
import type { HarnessSteering } from '../../shared/types/steering.js';
import type { HarnessAggregateUsage } from '../../shared/types/usage.js';

/** The kinds of pause a continuation can resume. */
export type HarnessContinuationType = 'clarification' | 'approval' | 'deferred';

/** The turn input a continuation carries, so another process can resume without it. */
export type HarnessContinuationInput = Omit<HarnessTurnInput, 'turnId'>;

/** Resume state of a turn the harness's own loop was driving. */
export interface HarnessLoopContinuationState {
  mode: 'loop';
  stopReason: HarnessStopReason;
  input: HarnessContinuationInput;
  transcript: HarnessTranscriptItem[];
  usage: HarnessAggregateUsage;
  /** The question, for `clarification`. */
  question?: string | undefined;
  /** Requests awaiting a decision, for `approval`. Tool approvals use the call id as request id. */
  approvals?: HarnessApprovalRequest[] | undefined;
  /** Calls of the interrupted step that have not run yet; they run first on resume. */
  pendingCalls?: HarnessToolCall[] | undefined;
  /** Unknown tool names the model was already told about. */
  reportedUnknownTools?: string[] | undefined;
  /** The turn's tool state (`HarnessToolExecutionContext.state`), restored on resume. */
  toolState?: HarnessToolStateEntry[] | undefined;
  /** The last iteration number, so transcript numbering continues. */
  iteration: number;
}

/** Resume state of a turn an `ExecutionAdapter` was driving. */
export interface HarnessBackendContinuationState {
  mode: 'backend';
  stopReason: HarnessStopReason;
  backendId: string;
  request: ExecutionRequest;
  backendContinuation?: ExecutionContinuation | undefined;
  usage: HarnessAggregateUsage;
  question?: string | undefined;
  approvals?: HarnessApprovalRequest[] | undefined;
}

/** What `resumeTurn` needs; treat it as opaque. */
export type HarnessContinuationState = HarnessLoopContinuationState | HarnessBackendContinuationState;

/**
 * A paused turn, as plain JSON. Store it anywhere; hand it to `resumeTurn` later, in any process
 * whose harness has the same `continuationSecret`.
 * `signature` is an HMAC-SHA-256 over everything else, made with the harness's `continuationSecret`
 * (or, without one, a random per-process key).
 */
export interface HarnessContinuation {
  version: 1;
  id: string;
  type: HarnessContinuationType;
  turnId: string;
  sessionId?: string | undefined;
  /** ISO-8601 creation time. */
  createdAt: string;
  /** ISO-8601 time after which `resumeTurn` refuses it. */
  expiresAt?: string | undefined;
  /** A random token, unique to this continuation; resume guards record it to make resumes single-use. */
  resumeToken: string;
  state: HarnessContinuationState;
  /** Base64url HMAC-SHA-256; absent only when the harness was configured with `unsignedContinuations: 'allow'` and no secret. */
  signature?: string | undefined;
}

/** How the user or product resolved a paused turn. */
export type HarnessResumeResolution =
  | { type: 'clarification'; answer: string }
  | { type: 'approval'; decisions: Record<string, 'approved' | 'rejected'> }
  | { type: 'deferred' };

/** Options of `resumeTurn`. */
export interface HarnessResumeOptions<TOutputSchema extends HarnessOutputSchema | undefined = HarnessOutputSchema | undefined> {
  signal?: AbortSignal | undefined;
  /** When set, a continuation from another turn is refused (`continuation_invalid`). */
  expectedTurnId?: string | undefined;
  /** When set, a continuation from another session is refused (`continuation_invalid`). */
  expectedSessionId?: string | undefined;
  /** User input added while the resumed turn runs; see `createSteering()`. */
  steering?: HarnessSteering | undefined;
  /**
   * The schema the resumed turn's final answer must match, replacing `createHarness({ output })`.
   * A schema is code, so a continuation does not carry it: give the resuming harness the same
   * schema the paused turn had (as with its tools).
   * @default the harness's `output`
   */
  output?: TOutputSchema;
}

/**
 * Makes resumes exactly-once: `resumeTurn` calls `claim` after the continuation is verified and
 * before anything of the resumed turn runs. Give it as `createHarness({ resumeGuard })`.
 *
 * Built in: `createMemoryResumeGuard()` (one process), `createFileResumeGuard({ directory })`
 * (every process of one machine) and `createRedisResumeGuard({ client })` (every machine sharing
 * a Redis). For another store, implement `claim` with an atomic put-if-absent and prove it with
 * `runResumeGuardConformance` from `@agent-assistant/harness/testing`; see docs/scale-out.md.
 */
export interface HarnessResumeGuard {
  /**
   * Atomically records that `continuation` (key it by `resumeClaimKey(continuation)`) is being
   * resumed. Resolve `true` for the first claim and `false` for every later one; the later
   * resumes end `failed` / `continuation_invalid` without running anything. A claim that throws
   * (or resolves anything but `true`, or does not answer within the turn's `maxElapsedMs`) also
   * refuses the resume. Keep the record at least until the continuation's `expiresAt` plus
   * `RESUME_CLAIM_GRACE_MS` (without an expiry: as long as the continuation may be resumed).
   */
  claim(continuation: HarnessContinuation): Promise<boolean>;
  /**
   * Optional. Undoes the claim that `claim(continuation)` made — called with the same object —
   * when nothing of the resumed turn ran under it: the claim threw (a store may have applied a
   * write whose answer was lost), or it settled `true` after `resumeTurn` had given up on it
   * (the turn's deadline or the caller's signal). Delete the record only if this very claim made
   * it (say, compare a random value it wrote). A claim whose resume started is never released,
   * even when the resumed run fails, because a tool may already have run. Errors are ignored.
   */
  release?(continuation: HarnessContinuation): Promise<void>;
}
