import { checkExecutionRequest } from '../../execution/execution-request-schema.js';
import { negotiateCapabilities } from '../../execution/negotiate-capabilities.js';
import type {
  ExecutionAdapter,
  ExecutionCapabilities,
  ExecutionContinuation,
  ExecutionNegotiation,
  ExecutionOptions,
  ExecutionRequest,
  ExecutionResult,
} from '../../execution/types.js';
import { buildLocalPrompt } from '../../local/build-local-prompt.js';
import { incomingContinuationOf } from '../../local/incoming-continuation.js';
import { productToolsReasons } from '../../local/local-cli-preset.js';
import { AnswerText } from '../../execution/answer-cap.js';
import { describeError } from '../../shared/describe-error.js';
import { SessionPool, SessionPoolError } from '../session-pool.js';
import { resolveAcpAdapterOptions, type AcpAdapterOptions, type ResolvedAcpAdapterOptions } from './acp-adapter-options.js';
import { readApprovalState, type AcpApprovalState } from './acp-continuation.js';
import { approvalEvent, permissionTitle } from './acp-events.js';
import type { AcpLiveSession, AcpOpenPermission, AcpPrompt } from './acp-session.js';
import { chooseOption, samePermission } from './acp-permission-options.js';
import { startAcpSession, stderrOf } from './start-acp-session.js';
import { hostVerdict, hostVerdictNote } from '../internal/host-verdict.js';
import { failedResult, SessionTurnReport } from '../internal/session-turn-report.js';
import { finishedResult } from './acp-result.js';
import type { AcpEngineSetup, AcpPreparedEngine } from './acp-engine-setup.js';

/** The continuation kind of ACP sessions. */
export const ACP_CONTINUATION_KIND = 'acp.session';


interface TurnContext {
  request: ExecutionRequest;
  options: ExecutionOptions;
  signal: AbortSignal;
  key: string;
  ephemeral: boolean;
  report: SessionTurnReport;
}

/**
 * A coding engine that speaks the Agent Client Protocol over stdio (`gemini --acp`,
 * `opencode acp`, …) as a backend. One engine process per session (`request.sessionId`, else
 * `threadId`), kept alive across turns by a {@link SessionPool}: `initialize`, `session/new`
 * (or `session/load` of the session a continuation names, after a restart), then one
 * `session/prompt` per turn, streaming `session/update`s through `onEvent`.
 *
 * When the engine asks permission (`session/request_permission`) the turn ends
 * `awaiting_approval`, the request still open in the live engine; `resumeTurn` with an approval
 * decision answers it there and the same prompt runs on. If that engine is gone (restarted,
 * stopped idle, or the continuation is resumed in another process) the resumed turn fails with
 * `error.metadata.reason: 'continuation_invalid'`. The turn's signal sends `session/cancel`.
 * Node.js only: `node:` modules load when the first session starts. Call `dispose()` when done.
 *
 * @example
 * const backend = createAcpAdapter({ command: 'gemini', args: ['--acp'], env: { GEMINI_API_KEY: key } });
 * const harness = createHarness({ backend });
 * const paused = await harness.runTurn({ ...input, sessionId: 'chat-1' });
 * if (paused.outcome === 'awaiting_approval') {
 *   const id = paused.approvalRequests[0].id;
 *   await harness.resumeTurn(paused.continuation, { type: 'approval', decisions: { [id]: 'approved' } });
 * }
 * await backend.dispose();
 */
export class AcpExecutionAdapter implements ExecutionAdapter {
  /** The backend id (`acp` unless configured). */
  readonly backendId: string;
  private readonly config: ResolvedAcpAdapterOptions;
  private readonly pool: SessionPool<AcpLiveSession>;
  private readonly setup: AcpEngineSetup | undefined;
  private prepared: Promise<AcpPreparedEngine> | undefined;
  private disposed = false;

  /**
   * @param setup A preset's engine set-up (private home, native binary), run once before the first engine starts.
   * @throws HarnessConfigError when an option is invalid.
   */
  constructor(options: AcpAdapterOptions, setup?: AcpEngineSetup) {
    this.config = resolveAcpAdapterOptions(options);
    this.setup = setup;
    this.backendId = this.config.backendId;
    this.pool = new SessionPool<AcpLiveSession>({
      ...(this.config.maxLiveSessions === undefined ? {} : { maxLiveSessions: this.config.maxLiveSessions }),
      ...(this.config.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: this.config.idleTimeoutMs }),
    });
  }

  /**
   * Native tool loop, opaque session resume, native approvals (and the host's permission rules,
   * `onPermissionRequest`), live streaming; no steering, no attachments.
   */
  describeCapabilities(): ExecutionCapabilities {
    return {
      toolUse: 'native-iterative',
      structuredToolCalls: false,
      continuationSupport: 'opaque-resume',
      approvalInterrupts: 'native',
      traceDepth: 'standard',
      attachments: false,
      history: false,
      streaming: true,
      steer: false,
      maxContextStrategy: 'large',
      agentProject: { instructions: true, permissionRules: true },
      notes: [
        `${this.config.label} over the Agent Client Protocol (stdio); one live engine process per session.`,
        'Approvals: session/request_permission ends the turn awaiting_approval; resumeTurn answers it in the live engine.',
        'Steering: not supported (ACP takes the next prompt after the current one ends).',
        ...this.config.notes,
      ],
    };
  }

  /** The standard negotiation, plus a reason when the request brings tools (the engine uses its own). */
  negotiate(request: ExecutionRequest): ExecutionNegotiation {
    const extra = productToolsReasons(request, this.config.label);
    return negotiateCapabilities(this.describeCapabilities(), request, extra);
  }

  /** Runs (or resumes) one turn in the session's live engine. Never rejects. */
  async execute(untrusted: ExecutionRequest, options: ExecutionOptions = {}): Promise<ExecutionResult> {
    const report = new SessionTurnReport(this.backendId);
    const checked = checkExecutionRequest(untrusted, this.backendId);
    if (!checked.ok) return checked.result;
    const request = checked.request;
    let negotiation: ExecutionNegotiation;
    try {
      negotiation = this.negotiate(request);
    } catch (error) {
      return failedResult(report, 'other', `${this.config.label}: negotiate failed: ${describeError(error)}`, false);
    }
    if (!negotiation.supported) {
      return report.result({
        status: 'unsupported',
        error: {
          code: 'unsupported_capability',
          message: negotiation.reasons.filter((reason) => reason.severity === 'blocking').map((reason) => reason.message).join(' '),
          retryable: false,
        },
      });
    }
    report.degradation.push(...negotiation.reasons);
    const timeoutMs = Math.min(this.config.timeoutMs, positive(request.timeoutMs) ?? Number.POSITIVE_INFINITY);
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
    const sessionKey = request.sessionId ?? request.threadId;
    const context: TurnContext = {
      request,
      options,
      signal,
      key: JSON.stringify([request.assistantId, sessionKey ?? `turn:${request.turnId}:${globalThis.crypto.randomUUID()}`]),
      ephemeral: sessionKey === undefined,
      report,
    };
    try {
      if (request.resume?.type === 'approval') return await this.resumeApproval(context, request.resume.decisions);
      return await this.freshTurn(context);
    } catch (error) {
      return failedResult(report, 'backend_execution_error', `${this.config.label}: ${describeError(error)}`, true);
    }
  }

  /** Stops every engine process and undoes the preset's set-up (a private home is removed); resolves once none is left. Later turns fail. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await this.pool.dispose();
    const prepared = await this.prepared?.catch(() => undefined);
    this.prepared = undefined;
    await prepared?.cleanup?.();
  }

  /** The options with the preset's set-up applied (run once; a failed set-up is tried again by the next turn). */
  private async engineConfig(): Promise<ResolvedAcpAdapterOptions> {
    if (this.setup === undefined) return this.config;
    if (this.disposed) throw new Error('the adapter was disposed.');
    const setup = this.setup;
    const prepared = (this.prepared ??= setup());
    const engine = await prepared.catch((error: unknown) => {
      if (this.prepared === prepared) this.prepared = undefined;
      throw error;
    });
    const env: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, engine.env, this.config.env);
    return { ...this.config, command: engine.command ?? this.config.command, env };
  }

  private async freshTurn(context: TurnContext): Promise<ExecutionResult> {
    const { request, report } = context;
    const incoming = incomingContinuationOf(request);
    const wanted = incoming?.kind === ACP_CONTINUATION_KIND || incoming?.kind === undefined ? incoming?.continuationId : undefined;
    let lease;
    try {
      const start = () => this.engineConfig().then((config) => startAcpSession(config, context.signal, report, wanted));
      lease = await this.pool.acquire(context.key, start, context.signal);
    } catch (error) {
      if (error instanceof SessionPoolError) {
        return failedResult(report, 'backend_execution_error', `${this.config.label}: ${error.message}`, error.reason !== 'disposed');
      }
      return failedResult(report, 'backend_execution_error', `${this.config.label}: ${describeError(error)}`, true);
    }
    const session = lease.session;
    if (lease.restarted) report.note('The engine of this session had stopped; a new one was started.');
    if (session.prompt !== undefined && !session.prompt.finished) {
      // A prompt is still paused on a permission request nobody answered: it is given up.
      session.cancel();
      report.note('A paused prompt of this session was cancelled: a new turn started instead of resuming it.');
      await session.prompt.next(AbortSignal.timeout(this.config.killGraceMs));
      if (!session.prompt.finished) {
        await this.pool.discard(context.key, session);
        return failedResult(report, 'backend_execution_error', `${this.config.label}: the paused prompt did not end when cancelled.`, true);
      }
    }
    const continuation = this.continuationOf(session);
    context.options.onContinuation?.(continuation);
    const resuming = session.promptsSent > 0 || (wanted !== undefined && wanted === session.acpSessionId);
    const text = buildLocalPrompt(request, { includeInstructions: !resuming, resumingSession: resuming });
    report.modelStarted();
    const prompt = session.startPrompt(text);
    return this.drive(context, session, prompt);
  }

  private async resumeApproval(context: TurnContext, decisions: Record<string, 'approved' | 'rejected'>): Promise<ExecutionResult> {
    const { request, report } = context;
    const state = readApprovalState(request.continuation, ACP_CONTINUATION_KIND);
    const invalid = (why: string) => failedResult(report, 'other', `${this.config.label}: ${why}`, false, { reason: 'continuation_invalid' });
    if (state === undefined) return invalid('the continuation does not name a paused ACP permission request.');
    const session = this.pool.peek(state.poolKey);
    const permission = session?.prompt?.permissions[0];
    if (session === undefined || session.instanceId !== state.instanceId || permission === undefined || !samePermission(permission, state)) {
      return invalid('the engine session that asked for this approval is no longer running (it was restarted, stopped, or belongs to another process); start a new turn.');
    }
    let lease;
    try {
      lease = await this.pool.acquire(state.poolKey, () => Promise.reject(new Error('The engine session is gone.')));
    } catch (error) {
      return invalid(`the engine session cannot be resumed: ${describeError(error)}`);
    }
    if (lease.session !== session) {
      await this.pool.discard(state.poolKey, lease.session);
      return invalid('the engine session that asked for this approval is no longer running.');
    }
    context.key = state.poolKey;
    context.ephemeral = state.ephemeral;
    const decision = Object.prototype.hasOwnProperty.call(decisions, state.approvalKey) ? decisions[state.approvalKey] : undefined;
    const optionId = chooseOption(permission, decision === 'approved' ? 'approved' : 'rejected', this.config.approvalScope);
    const prompt = session.prompt!;
    if (decision !== 'approved') prompt.rejected.push(permissionTitle(permission.params, prompt.progress));
    report.note(`Approval ${decision === 'approved' ? 'granted' : 'refused'}: answered ${optionId ?? 'cancelled'} in the live session.`);
    if (!session.answerPermission(permission, optionId)) {
      this.pool.release(context.key, session);
      return invalid('the permission request could not be answered: the engine is gone.');
    }
    context.options.onContinuation?.(this.continuationOf(session));
    report.modelStarted();
    return this.drive(context, session, prompt);
  }

  private async drive(context: TurnContext, session: AcpLiveSession, prompt: AcpPrompt): Promise<ExecutionResult> {
    const { report } = context;
    prompt.onEvent = context.options.onEvent;
    prompt.progress.answer = new AnswerText();
    try {
      let stop = await prompt.next(context.signal);
      // The host's rules answer what they decide; the first request they leave open pauses the turn.
      while (stop !== 'aborted' && stop.kind === 'permission' && this.answeredByHost(context, session, prompt, stop.permission)) {
        stop = await prompt.next(context.signal);
      }
      if (stop === 'aborted') return await this.cancelled(context, session, prompt);
      if (stop.kind === 'permission') return this.paused(context, session, prompt, stop.permission);
      if (stop.kind === 'failed') {
        if (stop.engineGone) await this.pool.discard(context.key, session);
        else this.finishWith(context, session);
        const stderr = stop.engineGone ? stderrOf(session) : '';
        const failed = failedResult(report, 'backend_execution_error', `${this.config.label}: ${stop.message}${stderr}`, true, stop.engineGone ? { engineExited: true } : undefined);
        const continuation = this.continuationOf(session);
        return { ...failed, continuation, metadata: { continuation } };
      }
      this.finishWith(context, session);
      report.protocolErrors(session.protocolErrors, prompt.progress.malformedUpdates);
      return finishedResult(report, {
        stopReason: stop.result.stopReason,
        answer: prompt.progress.answer,
        rejected: prompt.rejected,
        usage: stop.result.usage ?? prompt.progress.chunkUsage,
        continuation: this.continuationOf(session),
        label: this.config.label,
      });
    } finally {
      prompt.onEvent = undefined;
    }
  }

  /** Answers a permission request in the live engine when the host's rules decide it; false when they leave it to a person. */
  private answeredByHost(context: TurnContext, session: AcpLiveSession, prompt: AcpPrompt, permission: AcpOpenPermission): boolean {
    if (context.options.onPermissionRequest === undefined) return false;
    const event = approvalEvent(permission.params, '', prompt.progress);
    if (event.type !== 'approval_requested') return false;
    const verdict = hostVerdict(context.options, {
      title: event.title,
      ...(event.kind === undefined ? {} : { kind: event.kind }),
      ...(event.command === undefined ? {} : { command: event.command }),
    });
    if (verdict === 'ask') return false;
    const decision = verdict === 'approve' ? 'approved' : 'rejected';
    if (decision === 'rejected') prompt.rejected.push(event.title);
    context.report.note(hostVerdictNote(verdict, event.title));
    // Answered (or the engine is gone, which the prompt's next stop reports).
    session.answerPermission(permission, chooseOption(permission, decision, 'once'));
    return true;
  }

  private paused(context: TurnContext, session: AcpLiveSession, prompt: AcpPrompt, permission: AcpOpenPermission): ExecutionResult {
    const approvalKey = `acp-${session.instanceId.slice(0, 8)}-${session.promptsSent}-${String(permission.id)}`;
    const event = approvalEvent(permission.params, approvalKey, prompt.progress);
    prompt.emit(event);
    this.pool.release(context.key, session);
    const state: AcpApprovalState = {
      poolKey: context.key,
      instanceId: session.instanceId,
      permissionId: permission.id,
      toolCallId: permission.params.toolCall.toolCallId,
      approvalKey,
      ephemeral: context.ephemeral,
    };
    const answer = prompt.progress.answer;
    return context.report.result({
      status: 'awaiting_approval',
      ...(answer.length > 0 ? { output: { text: answer.text() } } : {}),
      ...(answer.truncated ? { metadata: { answerTruncated: true } } : {}),
      continuation: { ...this.continuationOf(session), state: { ...state } },
      approvalRequest: {
        reason: `${this.config.label} asks permission: ${event.type === 'approval_requested' ? event.title : ''}`,
        approvalKey,
        metadata: {
          engine: this.backendId,
          toolCallId: permission.params.toolCall.toolCallId,
          ...(event.type === 'approval_requested' && event.kind !== undefined ? { kind: event.kind } : {}),
          ...(event.type === 'approval_requested' && event.command !== undefined ? { command: event.command } : {}),
          title: event.type === 'approval_requested' ? event.title : '',
          options: event.type === 'approval_requested' ? (event.options ?? []) : [],
          approvalScope: this.config.approvalScope,
        },
      },
    }, 'approval_wait');
  }

  private async cancelled(context: TurnContext, session: AcpLiveSession, prompt: AcpPrompt): Promise<ExecutionResult> {
    const timedOut = !(context.options.signal?.aborted ?? false);
    session.cancel();
    const grace = AbortSignal.timeout(Math.max(1, this.config.killGraceMs));
    let stop = await prompt.next(grace);
    while (stop !== 'aborted' && stop.kind === 'permission') {
      session.answerPermission(stop.permission, undefined);
      stop = await prompt.next(grace);
    }
    if (stop === 'aborted') {
      context.report.note('The engine did not end the cancelled prompt in time; it was stopped.');
      await this.pool.discard(context.key, session);
    } else this.finishWith(context, session);
    return failedResult(
      context.report,
      timedOut ? 'timeout' : 'other',
      timedOut ? `${this.config.label}: the turn timed out; the prompt was cancelled.` : `${this.config.label}: the turn was cancelled.`,
      timedOut,
      { cancelled: true },
    );
  }

  private finishWith(context: TurnContext, session: AcpLiveSession): void {
    if (context.ephemeral) void this.pool.discard(context.key, session);
    else this.pool.release(context.key, session);
  }

  private continuationOf(session: AcpLiveSession): ExecutionContinuation {
    return { kind: ACP_CONTINUATION_KIND, ...(session.acpSessionId === undefined ? {} : { continuationId: session.acpSessionId }), state: {} };
  }

}

/**
 * Creates an {@link AcpExecutionAdapter}.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createAcpAdapter(options: AcpAdapterOptions): AcpExecutionAdapter {
  return new AcpExecutionAdapter(options);
}


function positive(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}