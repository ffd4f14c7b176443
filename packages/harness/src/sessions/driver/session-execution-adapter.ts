import { checkExecutionRequest } from '../../execution/execution-request-schema.js';
import { negotiateCapabilities } from '../../execution/negotiate-capabilities.js';
import type {
  ExecutionAdapter,
  ExecutionCapabilities,
  ExecutionNegotiation,
  ExecutionOptions,
  ExecutionRequest,
  ExecutionResult,
} from '../../execution/types.js';
import { AnswerText } from '../../execution/answer-cap.js';
import { incomingContinuationOf } from '../../local/incoming-continuation.js';
import { productToolsReasons } from '../../local/local-cli-preset.js';
import { describeError } from '../../shared/describe-error.js';
import { effectiveTimeout } from './effective-timeout.js';
import { hostVerdict, hostVerdictNote } from './host-verdict.js';
import { SessionPool, SessionPoolError, type SessionLease } from '../session-pool.js';
import { LiveSession } from './live-session.js';
import { readPausedTurnState, type PausedTurnState } from './paused-turn-state.js';
import type { ProtocolSession, SessionCallContext, SessionProtocol } from './session-protocol.js';
import type { SessionTurn } from './session-turn.js';
import { failedResult, SessionTurnReport } from './session-turn-report.js';
import { defineExecutionAdapter } from '../../core/define-execution-adapter.js';

interface Call extends SessionCallContext {
  ephemeral: boolean;
}

/**
 * The session driver: an `ExecutionAdapter` over any {@link SessionProtocol}. It checks the
 * request, negotiates capabilities, keeps one live session per key in a {@link SessionPool},
 * bounds the turn by its timeout and signal (cancelling it in the engine, then stopping the
 * session when it does not end in time), lets the host's rules answer approval requests, pauses
 * the turn `awaiting_approval` on the first one they leave open and answers it in the same live
 * session on `resumeTurn`, forwards steering, caps the answer and reports the trace. `execute`
 * never rejects. Call `dispose()` when done.
 */
export class SessionExecutionAdapter<S extends ProtocolSession, A, E, T extends SessionTurn<A, E> = SessionTurn<A, E>> implements ExecutionAdapter {
  /** The backend id. */
  readonly backendId: string;
  private readonly pool: SessionPool<LiveSession<S, T>>;

  /** @throws HarnessConfigError when a pool limit is invalid. */
  constructor(private readonly protocol: SessionProtocol<S, A, E, T>) {
    this.backendId = protocol.backendId;
    const { maxLiveSessions, idleTimeoutMs } = protocol.settings;
    this.pool = new SessionPool<LiveSession<S, T>>({
      ...(maxLiveSessions === undefined ? {} : { maxLiveSessions }),
      ...(idleTimeoutMs === undefined ? {} : { idleTimeoutMs }),
    });
    defineExecutionAdapter(this);
  }

  /** The protocol's capabilities. */
  describeCapabilities(): ExecutionCapabilities {
    return this.protocol.describeCapabilities();
  }

  /** The standard negotiation, plus a reason when the request brings tools (the engine uses its own). */
  negotiate(request: ExecutionRequest): ExecutionNegotiation {
    return negotiateCapabilities(this.describeCapabilities(), request, productToolsReasons(request, this.protocol.label));
  }

  /** Runs (or resumes) one turn in the session's live engine. Never rejects. */
  async execute(untrusted: ExecutionRequest, options: ExecutionOptions = {}): Promise<ExecutionResult> {
    const report = new SessionTurnReport(this.backendId);
    const label = this.protocol.label;
    const checked = checkExecutionRequest(untrusted, this.backendId);
    if (!checked.ok) return checked.result;
    const request = checked.request;
    let negotiation: ExecutionNegotiation;
    try {
      negotiation = this.negotiate(request);
    } catch (error) {
      return failedResult(report, 'other', `${label}: negotiate failed: ${describeError(error)}`, false);
    }
    if (!negotiation.supported) {
      const message = negotiation.reasons.filter((reason) => reason.severity === 'blocking').map((reason) => reason.message).join(' ');
      return report.result({ status: 'unsupported', error: { code: 'unsupported_capability', message, retryable: false } });
    }
    report.degradation.push(...negotiation.reasons);
    const timeout = AbortSignal.timeout(effectiveTimeout(this.protocol.settings.timeoutMs, request.timeoutMs));
    const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
    const call: Call = { request, options, incoming: incomingContinuationOf(request), signal, report, key: '', ephemeral: false };
    try {
      if (request.resume?.type === 'approval') return await this.resume(call, request.resume.decisions);
      return await this.fresh(call);
    } catch (error) {
      return failedResult(report, 'backend_execution_error', `${label}: ${describeError(error)}`, true);
    }
  }

  /** Stops every session; resolves once none is left. Later turns fail. */
  dispose(): Promise<void> {
    return this.pool.dispose();
  }

  private async fresh(call: Call): Promise<ExecutionResult> {
    const { protocol } = this;
    const placed = protocol.place(call);
    if ('problem' in placed) return failedResult(call.report, 'invalid_request', placed.problem, false);
    call.key = placed.key;
    call.ephemeral = placed.ephemeral;
    let lease;
    try {
      lease = await this.pool.acquire(call.key, async () => new LiveSession<S, T>(await protocol.open(call)), call.signal);
    } catch (error) {
      if (error instanceof SessionPoolError) {
        return failedResult(call.report, 'backend_execution_error', `${protocol.label}: ${error.message}`, error.reason !== 'disposed', { reason: `session_${error.reason}` });
      }
      if (call.signal.aborted) return this.stopped(call, this.timedOut(call), 'the turn was stopped while its session was opening.');
      // The engine could not be started or its session opened: trying again the same way fails the same way.
      return failedResult(call.report, 'backend_execution_error', `${protocol.label}: ${describeError(error)}`, false, { errorCode: 'HARNESS_ERR_BACKEND_UNAVAILABLE' });
    }
    const held = lease;
    return this.holding(call, lease.session, () => this.begin(call, held));
  }

  /** Starts a new turn in the session the call holds (after giving up or refusing over a paused one). */
  private async begin(call: Call, lease: SessionLease<LiveSession<S, T>>): Promise<ExecutionResult> {
    const { protocol } = this;
    const live = lease.session;
    if (lease.restarted) call.report.note('The engine of this session had stopped; a new one was started.');
    const paused = live.turn;
    if (paused !== undefined && !paused.finished) {
      if (protocol.settings.pausedTurn === 'refuse') {
        this.pool.release(call.key, live);
        return failedResult(call.report, 'other', `${protocol.label}: this session waits for an approval answer; resume that turn (resumeTurn) first.`, false, { reason: 'approval_pending' });
      }
      // A turn still paused on an approval request nobody answered: it is given up.
      call.report.note('A paused turn of this session was cancelled: a new turn started instead of resuming it.');
      if (!(await this.stop(live, paused))) {
        await this.pool.discard(call.key, live);
        return failedResult(call.report, 'backend_execution_error', `${protocol.label}: the paused turn did not end when cancelled.`, true);
      }
    }
    const turn = protocol.createTurn(live.session);
    this.attach(call, turn);
    try {
      await protocol.startTurn(live.session, turn, { ...call, reused: lease.reused, restarted: lease.restarted });
    } catch (error) {
      turn.onEvent = undefined;
      return await this.notStarted(call, live, error);
    }
    live.turn = turn;
    call.options.onContinuation?.(protocol.continuation(live.session, turn, call));
    call.report.modelStarted();
    return this.drive(call, live, turn);
  }

  private async resume(call: Call, decisions: Record<string, 'approved' | 'rejected'>): Promise<ExecutionResult> {
    const { protocol } = this;
    const state = readPausedTurnState(call.incoming, protocol.continuationKind);
    const invalid = (why: string) => failedResult(call.report, 'other', `${protocol.label}: ${why}`, false, { reason: 'continuation_invalid' });
    if (state === undefined) return invalid('the continuation does not name a paused approval request.');
    const live = this.pool.peek(state.poolKey);
    const turn = live?.turn;
    const approval = turn?.approvals[0];
    if (live === undefined || turn === undefined || approval === undefined || live.instanceId !== state.instanceId || turn.finished ||
      protocol.describeApproval(live.session, turn, approval, call).approvalKey !== state.approvalKey) {
      return invalid('the engine session that asked for this approval is no longer running (it was restarted, stopped, or belongs to another process); start a new turn.');
    }
    let lease;
    try {
      lease = await this.pool.acquire(state.poolKey, () => Promise.reject(new Error('The engine session is gone.')));
    } catch (error) {
      return invalid(`the engine session cannot be resumed: ${describeError(error)}`);
    }
    if (lease.session !== live) {
      await this.pool.discard(state.poolKey, lease.session);
      return invalid('the engine session that asked for this approval is no longer running.');
    }
    call.key = state.poolKey;
    call.ephemeral = state.ephemeral;
    return this.holding(call, live, () => this.answer(call, live, turn, approval, state, decisions));
  }

  /** Answers the paused request with the caller's decision (none refuses) and follows the turn on. */
  private async answer(call: Call, live: LiveSession<S, T>, turn: T, approval: A, state: PausedTurnState, decisions: Record<string, 'approved' | 'rejected'>): Promise<ExecutionResult> {
    const { protocol } = this;
    const invalid = (why: string) => failedResult(call.report, 'other', `${protocol.label}: ${why}`, false, { reason: 'continuation_invalid' });
    const decision = Object.prototype.hasOwnProperty.call(decisions, state.approvalKey) && decisions[state.approvalKey] === 'approved' ? 'approved' : 'rejected';
    if (decision === 'rejected') turn.rejected.push(protocol.describeApproval(live.session, turn, approval, call).request.title);
    turn.take(approval);
    if (!protocol.answerApproval(live.session, turn, approval, decision, 'person', call.report)) {
      this.pool.release(call.key, live);
      return invalid('the approval request could not be answered: the engine is gone.');
    }
    this.attach(call, turn);
    call.options.onContinuation?.(protocol.continuation(live.session, turn, call));
    call.report.modelStarted();
    return this.drive(call, live, turn);
  }

  /** Runs `work` on a session this call holds; a throw stops the session (it would stay busy for good otherwise) and passes on. */
  private async holding(call: Call, live: LiveSession<S, T>, work: () => Promise<ExecutionResult>): Promise<ExecutionResult> {
    try {
      return await work();
    } catch (error) {
      await this.pool.discard(call.key, live);
      throw error;
    }
  }

  /** Points the turn's events at this call's listener, with a fresh answer for this call. */
  private attach(call: Call, turn: T): void {
    const listener = call.options.onEvent;
    turn.onEvent = (event) => {
      call.report.sawEvent();
      listener?.(event);
    };
    turn.answerText = new AnswerText();
  }

  private async drive(call: Call, live: LiveSession<S, T>, turn: T): Promise<ExecutionResult> {
    const { protocol } = this;
    const steer = protocol.steer;
    const stopSteering = steer === undefined ? undefined : call.options.steer?.receive((message) => steer.call(protocol, live.session, turn, message.text));
    try {
      let stop = await turn.next(call.signal);
      // The host's rules answer what they decide; the first request they leave open pauses the turn.
      while (stop !== 'aborted' && stop.kind === 'approval' && this.answeredByHost(call, live, turn, stop.approval)) {
        stop = await turn.next(call.signal);
      }
      if (stop === 'aborted') return await this.cancelled(call, live, turn);
      if (stop.kind === 'approval') return this.paused(call, live, turn, stop.approval);
      const { result, engineGone } = protocol.finish(live.session, turn, stop.ending, call);
      if (engineGone) await this.pool.discard(call.key, live);
      else this.finishWith(call, live);
      return result;
    } finally {
      stopSteering?.();
      turn.onEvent = undefined;
    }
  }

  /** Answers an approval request in the live session when the host's rules decide it; false when they leave it to a person. */
  private answeredByHost(call: Call, live: LiveSession<S, T>, turn: T, approval: A): boolean {
    if (call.options.onPermissionRequest === undefined) return false;
    const view = this.protocol.describeApproval(live.session, turn, approval, call);
    const verdict = hostVerdict(call.options, view.request);
    if (verdict === 'ask') return false;
    if (verdict === 'reject') turn.rejected.push(view.request.title);
    call.report.note(hostVerdictNote(verdict, view.request.title));
    turn.take(approval);
    // Answered (or the engine is gone, which the turn's next stop reports).
    this.protocol.answerApproval(live.session, turn, approval, verdict === 'approve' ? 'approved' : 'rejected', 'host', call.report);
    return true;
  }

  private paused(call: Call, live: LiveSession<S, T>, turn: T, approval: A): ExecutionResult {
    const view = this.protocol.describeApproval(live.session, turn, approval, call);
    if (view.event !== undefined) turn.emit(view.event);
    this.pool.release(call.key, live);
    const state: PausedTurnState = { poolKey: call.key, instanceId: live.instanceId, approvalKey: view.approvalKey, ephemeral: call.ephemeral };
    const continuation = this.protocol.continuation(live.session, turn, call);
    const answer = turn.answerText;
    return call.report.result(
      {
        status: 'awaiting_approval',
        ...(answer.length > 0 ? { output: { text: answer.text() } } : {}),
        ...(answer.truncated || view.metadata !== undefined ? { metadata: { ...view.metadata, ...(answer.truncated ? { answerTruncated: true } : {}) } } : {}),
        continuation: { ...continuation, state: { ...continuation.state, ...state } },
        approvalRequest: { ...view.approvalRequest, approvalKey: view.approvalKey },
      },
      'approval_wait',
    );
  }

  private async cancelled(call: Call, live: LiveSession<S, T>, turn: T): Promise<ExecutionResult> {
    const timedOut = this.timedOut(call);
    if (await this.stop(live, turn)) this.finishWith(call, live);
    else {
      call.report.note('The engine did not end the cancelled turn in time; it was stopped.');
      await this.pool.discard(call.key, live);
    }
    return this.stopped(call, timedOut, timedOut ? 'the turn timed out; it was cancelled.' : 'the turn was cancelled.', live, turn);
  }

  /** True when the turn's signal aborted for the timeout, not the caller's signal. */
  private timedOut(call: Call): boolean {
    return !(call.options.signal?.aborted ?? false);
  }

  /** The result of a turn the caller's signal or the timeout stopped, with the session's continuation when it has one. */
  private stopped(call: Call, timedOut: boolean, why: string, live?: LiveSession<S, T>, turn?: T): ExecutionResult {
    const failed = failedResult(call.report, timedOut ? 'timeout' : 'other', `${this.protocol.label}: ${why}`, timedOut, {
      cancelled: true,
      reason: timedOut ? 'timeout' : 'cancelled',
    });
    const continuation = live === undefined ? undefined : this.protocol.continuation(live.session, turn, call);
    return continuation === undefined ? { ...failed, metadata: { cancelled: !timedOut } } : { ...failed, continuation, metadata: { cancelled: !timedOut, continuation } };
  }

  /** Cancels the turn in the engine, refusing what it still asks; true when it ended within the grace time. */
  private async stop(live: LiveSession<S, T>, turn: T): Promise<boolean> {
    const report = new SessionTurnReport(this.backendId);
    for (const approval of turn.approvals.splice(0)) this.protocol.answerApproval(live.session, turn, approval, 'rejected', 'cancel', report);
    this.protocol.cancel(live.session, turn);
    const grace = AbortSignal.timeout(Math.max(1, this.protocol.settings.cancelGraceMs));
    let stop = await turn.next(grace);
    while (stop !== 'aborted' && stop.kind === 'approval') {
      turn.take(stop.approval);
      this.protocol.answerApproval(live.session, turn, stop.approval, 'rejected', 'cancel', report);
      stop = await turn.next(grace);
    }
    return stop !== 'aborted';
  }

  /** A turn the engine did not take: cancelled or timed out on the way, the engine gone, or refused. */
  private async notStarted(call: Call, live: LiveSession<S, T>, error: unknown): Promise<ExecutionResult> {
    const label = this.protocol.label;
    if (!live.alive) {
      await this.pool.discard(call.key, live);
      return failedResult(call.report, 'backend_execution_error', `${label}: ${describeError(error)}`, true, { engineExited: true });
    }
    this.finishWith(call, live);
    if (call.signal.aborted) {
      const timedOut = this.timedOut(call);
      return this.stopped(call, timedOut, `the turn was ${timedOut ? 'out of time' : 'cancelled'} before it started.`, live);
    }
    return failedResult(call.report, 'backend_execution_error', `${label}: the turn could not start: ${describeError(error)}`, true);
  }

  private finishWith(call: Call, live: LiveSession<S, T>): void {
    if (call.ephemeral || !live.alive) void this.pool.discard(call.key, live);
    else this.pool.release(call.key, live);
  }
}

/**
 * An `ExecutionAdapter` for a session engine: the session driver over `protocol`.
 * @throws HarnessConfigError when a pool limit is invalid.
 */
export function createSessionAdapter<S extends ProtocolSession, A, E, T extends SessionTurn<A, E>>(
  protocol: SessionProtocol<S, A, E, T>,
): SessionExecutionAdapter<S, A, E, T> {
  return new SessionExecutionAdapter(protocol);
}
