import type { ExecutionCapabilities, ExecutionContinuation } from '../../execution/types.js';
import { buildLocalPrompt } from '../../local/build-local-prompt.js';
import type {
  SessionApprovalAnswerer,
  SessionApprovalView,
  SessionCallContext,
  SessionDriverSettings,
  SessionProtocol,
  SessionStartContext,
} from '../driver/session-protocol.js';
import { sessionPlacement } from '../driver/session-placement.js';
import { failedResult, type SessionTurnReport } from '../driver/session-turn-report.js';
import type { ResolvedAcpAdapterOptions } from './acp-adapter-options.js';
import type { AcpEngineSetup, AcpPreparedEngine } from './acp-engine-setup.js';
import { approvalEvent } from './acp-events.js';
import { chooseOption } from './acp-permission-options.js';
import { finishedResult } from './acp-result.js';
import { AcpPrompt, type AcpLiveSession, type AcpOpenPermission, type AcpPromptEnd } from './acp-session.js';
import { startAcpSession, stderrOf } from './start-acp-session.js';

/** The continuation kind of ACP sessions. */
export const ACP_CONTINUATION_KIND = 'acp.session';

/**
 * The Agent Client Protocol on the session driver: an engine process per session, `initialize`
 * and `session/new` (or `session/load`), one `session/prompt` per turn, `session/update`s as
 * events, `session/request_permission` as approvals, `session/cancel` to stop.
 */
export class AcpProtocol implements SessionProtocol<AcpLiveSession, AcpOpenPermission, AcpPromptEnd, AcpPrompt> {
  readonly continuationKind = ACP_CONTINUATION_KIND;
  readonly backendId: string;
  readonly label: string;
  readonly settings: SessionDriverSettings;

  private prepared: Promise<AcpPreparedEngine> | undefined;
  private released = false;

  constructor(
    private readonly config: ResolvedAcpAdapterOptions,
    private readonly setup?: AcpEngineSetup,
  ) {
    this.backendId = config.backendId;
    this.label = config.label;
    this.settings = {
      timeoutMs: config.timeoutMs,
      cancelGraceMs: config.killGraceMs,
      maxLiveSessions: config.maxLiveSessions,
      idleTimeoutMs: config.idleTimeoutMs,
      pausedTurn: 'cancel',
    };
  }

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

  /** One engine per assistant and `sessionId` (else `threadId`); without either, one for this turn only. */
  place = sessionPlacement;

  open(context: SessionCallContext): Promise<AcpLiveSession> {
    return this.engineConfig().then((config) => startAcpSession(config, context.signal, context.report, wantedSession(context)));
  }

  createTurn(): AcpPrompt {
    return new AcpPrompt();
  }

  /** Sends `session/prompt`, with the instructions unless the ACP session already has them. */
  startTurn(session: AcpLiveSession, prompt: AcpPrompt, context: SessionStartContext): Promise<void> {
    const wanted = wantedSession(context);
    const resuming = session.promptsSent > 0 || (wanted !== undefined && wanted === session.acpSessionId);
    session.startPrompt(prompt, buildLocalPrompt(context.request, { includeInstructions: !resuming, resumingSession: resuming }));
    return Promise.resolve();
  }

  describeApproval(session: AcpLiveSession, prompt: AcpPrompt, permission: AcpOpenPermission): SessionApprovalView {
    const approvalKey = `acp-${session.instanceId.slice(0, 8)}-${session.promptsSent}-${String(permission.id)}`;
    const event = approvalEvent(permission.params, approvalKey, prompt.progress);
    const shown = event.type === 'approval_requested' ? event : undefined;
    const title = shown?.title ?? '';
    return {
      approvalKey,
      request: { title, ...(shown?.kind === undefined ? {} : { kind: shown.kind }), ...(shown?.command === undefined ? {} : { command: shown.command }) },
      event,
      approvalRequest: {
        reason: `${this.label} asks permission: ${title}`,
        metadata: {
          engine: this.backendId,
          toolCallId: permission.params.toolCall.toolCallId,
          ...(shown?.kind === undefined ? {} : { kind: shown.kind }),
          ...(shown?.command === undefined ? {} : { command: shown.command }),
          title,
          options: shown?.options ?? [],
          approvalScope: this.config.approvalScope,
        },
      },
    };
  }

  /** A person's `approved` picks the option of `approvalScope`; the host's rules answer once; a cancelled turn's requests are answered `cancelled`. */
  answerApproval(
    session: AcpLiveSession,
    _prompt: AcpPrompt,
    permission: AcpOpenPermission,
    decision: 'approved' | 'rejected',
    by: SessionApprovalAnswerer,
    report: SessionTurnReport,
  ): boolean {
    const optionId = by === 'cancel' ? undefined : chooseOption(permission, decision, by === 'person' ? this.config.approvalScope : 'once');
    if (by === 'person') report.note(`Approval ${decision === 'approved' ? 'granted' : 'refused'}: answered ${optionId ?? 'cancelled'} in the live session.`);
    return session.answerPermission(permission, optionId);
  }

  cancel(session: AcpLiveSession): void {
    session.cancel();
  }

  finish(session: AcpLiveSession, prompt: AcpPrompt, ending: AcpPromptEnd, context: SessionCallContext) {
    const { report } = context;
    const continuation = this.continuation(session);
    if (ending.kind === 'failed') {
      const stderr = ending.engineGone ? stderrOf(session) : '';
      const metadata = ending.engineGone ? { engineExited: true } : undefined;
      const failed = failedResult(report, 'backend_execution_error', `${this.label}: ${ending.message}${stderr}`, true, metadata);
      return { result: { ...failed, continuation, metadata: { continuation } }, engineGone: ending.engineGone };
    }
    report.protocolErrors(session.protocolErrors, prompt.progress.malformedUpdates);
    const { stopReason } = ending.result;
    const usage = ending.result.usage ?? prompt.progress.chunkUsage;
    const result = finishedResult(report, { stopReason, answer: prompt.answerText, rejected: prompt.rejected, usage: usage ?? undefined, continuation, label: this.label });
    return { result, engineGone: false };
  }

  continuation(session: AcpLiveSession): ExecutionContinuation {
    return { kind: ACP_CONTINUATION_KIND, ...(session.acpSessionId === undefined ? {} : { continuationId: session.acpSessionId }), state: {} };
  }

  /** Undoes the preset's set-up (a private home is removed); later sessions cannot start. */
  async release(): Promise<void> {
    this.released = true;
    const prepared = await this.prepared?.catch(() => undefined);
    this.prepared = undefined;
    await prepared?.cleanup?.();
  }

  /** The options with the preset's set-up applied (run once; a failed set-up is tried again by the next turn). */
  private async engineConfig(): Promise<ResolvedAcpAdapterOptions> {
    if (this.setup === undefined) return this.config;
    if (this.released) throw new Error('the adapter was disposed.');
    const prepared = (this.prepared ??= this.setup());
    const engine = await prepared.catch((error: unknown) => {
      if (this.prepared === prepared) this.prepared = undefined;
      throw error;
    });
    const env: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, engine.env, this.config.env);
    return { ...this.config, command: engine.command ?? this.config.command, env };
  }
}

/** The ACP session an incoming continuation names, to load into a new engine. */
function wantedSession({ incoming }: Pick<SessionCallContext, 'incoming'>): string | undefined {
  return incoming?.kind === ACP_CONTINUATION_KIND || incoming?.kind === undefined ? incoming?.continuationId : undefined;
}
