import type { ExecutionContinuation, ExecutionRequest } from '../../execution/types.js';
import type { HarnessApprovalRequest } from './approval.js';
import type { HarnessStopReason } from './outcome.js';
import type { HarnessToolCall } from '../../shared/types/tools.js';
import type { HarnessTranscriptItem } from './transcript.js';
import type { HarnessTurnInput } from '../../shared/types/turn-input.js';
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
  question?: string;
  /** Requests awaiting a decision, for `approval`. Tool approvals use the call id as request id. */
  approvals?: HarnessApprovalRequest[];
  /** Calls of the interrupted step that have not run yet; they run first on resume. */
  pendingCalls?: HarnessToolCall[];
  /** Unknown tool names the model was already told about. */
  reportedUnknownTools?: string[];
  /** The last iteration number, so transcript numbering continues. */
  iteration: number;
}

/** Resume state of a turn an `ExecutionAdapter` was driving. */
export interface HarnessBackendContinuationState {
  mode: 'backend';
  stopReason: HarnessStopReason;
  backendId: string;
  request: ExecutionRequest;
  backendContinuation?: ExecutionContinuation;
  usage: HarnessAggregateUsage;
  question?: string;
  approvals?: HarnessApprovalRequest[];
}

/** What `resumeTurn` needs; treat it as opaque. */
export type HarnessContinuationState = HarnessLoopContinuationState | HarnessBackendContinuationState;

/**
 * A paused turn, as plain JSON. Store it anywhere; hand it to `resumeTurn` later, in any process.
 * When the harness has a `continuationSecret`, `signature` is an HMAC-SHA-256 over everything else.
 */
export interface HarnessContinuation {
  version: 1;
  id: string;
  type: HarnessContinuationType;
  turnId: string;
  sessionId?: string;
  /** ISO-8601 creation time. */
  createdAt: string;
  /** ISO-8601 time after which `resumeTurn` refuses it. */
  expiresAt?: string;
  /** A random token the product may use to make resumes single-use. */
  resumeToken: string;
  state: HarnessContinuationState;
  /** Base64url HMAC-SHA-256, present when the harness was configured with `continuationSecret`. */
  signature?: string;
}

/** How the user or product resolved a paused turn. */
export type HarnessResumeResolution =
  | { type: 'clarification'; answer: string }
  | { type: 'approval'; decisions: Record<string, 'approved' | 'rejected'> }
  | { type: 'deferred' };

/** Options of `resumeTurn`. */
export interface HarnessResumeOptions {
  signal?: AbortSignal;
  /** When set, a continuation from another turn is refused (`continuation_invalid`). */
  expectedTurnId?: string;
  /** When set, a continuation from another session is refused (`continuation_invalid`). */
  expectedSessionId?: string;
}
