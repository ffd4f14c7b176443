import type {
  ExecutionCapabilities,
  ExecutionContinuation,
  ExecutionOptions,
  ExecutionPermissionRequest,
  ExecutionRequest,
  ExecutionResult,
  ExecutionStreamEvent,
} from '../../execution/types.js';
import type { SessionTurn } from './session-turn.js';
import type { SessionTurnReport } from './session-turn-report.js';

/**
 * A live session a protocol opened: an engine process it spoke a handshake with, or an
 * in-process query. The driver keeps it in its session pool across turns.
 */
export interface ProtocolSession {
  /** False once the session can run no more turns (its process ended, its query closed). */
  readonly alive: boolean;
  /** Settles when the session has ended, for whatever reason. Never rejects. */
  readonly exited: Promise<unknown>;
  /** Ends the session and resolves once nothing of it is left running. Never rejects. */
  dispose(): Promise<unknown>;
}

/** The driver's limits for one backend. */
export interface SessionDriverSettings {
  /** Wall time of one `execute` call, in milliseconds; lowered by `request.timeoutMs`. */
  timeoutMs: number;
  /** How long a cancelled turn may take to end before its session is stopped, in milliseconds. */
  cancelGraceMs: number;
  /** Most live sessions (pool default when absent). */
  maxLiveSessions?: number | undefined;
  /** An idle session is stopped after this many milliseconds (pool default when absent). */
  idleTimeoutMs?: number | undefined;
  /**
   * What a new turn does in a session whose previous turn still waits for an approval answer:
   * `cancel` it (and run the new one), or `refuse` the new turn (`error.metadata.reason:
   * 'approval_pending'`).
   */
  pausedTurn: 'cancel' | 'refuse';
}

/** Where a new turn runs. */
export interface SessionPlacement {
  /** The pool key of its session. Outside text goes in only through `JSON.stringify` or a fixed prefix. */
  key: string;
  /** The session lives for this turn only: stopped when the turn ends (not when it pauses). */
  ephemeral: boolean;
}

/** What one `execute` call hands the protocol. */
export interface SessionCallContext {
  request: ExecutionRequest;
  options: ExecutionOptions;
  /** `request.continuation`, else the one in its metadata; shaped, not yet validated. */
  incoming: ExecutionContinuation | undefined;
  /** Aborts on the caller's signal or the turn's timeout. */
  signal: AbortSignal;
  /** Trace events and notes of this call. */
  report: SessionTurnReport;
  /** The pool key of the session. */
  key: string;
}

/** What `startTurn` learns about the session it runs in. */
export interface SessionStartContext extends SessionCallContext {
  /** The session ran turns before (it was taken from the pool). */
  reused: boolean;
  /** The session under this key had died on its own; this one was opened in its place. */
  restarted: boolean;
}

/** How the driver shows one approval request: to the host's rules, in the stream, in the result. */
export interface SessionApprovalView {
  /** The key the caller files the decision under (`approvalRequest.approvalKey`). Unique per request. */
  approvalKey: string;
  /** What the host's rules (`onPermissionRequest`) judge. */
  request: ExecutionPermissionRequest;
  /** The `approval_requested` event reported when the turn pauses; absent when the protocol reported it on arrival. */
  event?: ExecutionStreamEvent | undefined;
  /** The result's `approvalRequest`, without `approvalKey`. */
  approvalRequest: Omit<NonNullable<ExecutionResult['approvalRequest']>, 'approvalKey'>;
  /** More `metadata` of the paused turn's result. */
  metadata?: Record<string, unknown> | undefined;
}

/** Who answers an approval request: a person (resume), the host's rules, or the driver stopping a cancelled turn. */
export type SessionApprovalAnswerer = 'person' | 'host' | 'cancel';

/**
 * What a session engine supplies to the session driver (`createSessionAdapter`). The driver owns
 * request checks, capability negotiation, the session pool, timeouts, the approval pause and
 * resume, the host's permission rules, steering, the turn report and the answer cap; a protocol
 * opens sessions, runs turns in them and maps what its engine says. Nothing here assumes a child
 * process or JSON-RPC: a session may be an in-process query.
 *
 * `S` is the protocol's live session, `T` its turn (a {@link SessionTurn} it feeds), `A` an open
 * approval request, `E` how a turn ends.
 */
export interface SessionProtocol<S extends ProtocolSession, A, E, T extends SessionTurn<A, E> = SessionTurn<A, E>> {
  /** The backend id in results and traces. */
  readonly backendId: string;
  /** The engine's name in messages. */
  readonly label: string;
  /** The continuation kind of its sessions. */
  readonly continuationKind: string;
  /** The driver's limits. */
  readonly settings: SessionDriverSettings;
  /** The backend's capabilities (`steer: true` only with {@link SessionProtocol.steer}). */
  describeCapabilities(): ExecutionCapabilities;
  /** Where a new turn runs, or why its incoming continuation cannot be used (an `invalid_request` failure). */
  place(context: Omit<SessionCallContext, 'key'>): SessionPlacement | { problem: string };
  /** Opens a session (start an engine and its handshake, or begin a query). Rejects with a sentence when it cannot. */
  open(context: SessionCallContext): Promise<S>;
  /** A new, empty turn for the session; the driver attaches its listener before `startTurn` feeds it. */
  createTurn(session: S): T;
  /**
   * Starts `turn` in the session (the prompt built from `context.request`) and feeds it from then
   * on; resolves once the engine took the turn, rejects when it refused it.
   */
  startTurn(session: S, turn: T, context: SessionStartContext): Promise<void>;
  /** How an approval request is shown. */
  describeApproval(session: S, turn: T, approval: A, context: SessionCallContext): SessionApprovalView;
  /** Answers an approval request in the live session; false when the engine is gone. */
  answerApproval(session: S, turn: T, approval: A, decision: 'approved' | 'rejected', by: SessionApprovalAnswerer, report: SessionTurnReport): boolean;
  /** Asks the engine to stop the running turn (cancel, interrupt); the turn ends when the engine says so. */
  cancel(session: S, turn: T): void;
  /** Hands steering input to the running turn; resolves when the engine accepted it. Absent: no steering. */
  steer?(session: S, turn: T, text: string): Promise<void> | void;
  /** The result of a turn that ended; `engineGone` drops the session from the pool. */
  finish(session: S, turn: T, ending: E, context: SessionCallContext): { result: ExecutionResult; engineGone: boolean };
  /** The continuation naming the session (and its turn, when there is one). */
  continuation(session: S, turn: T | undefined, context: SessionCallContext): ExecutionContinuation;
}
