import type { ExecutionCapabilities, ExecutionContinuation } from '../../execution/types.js';
import { buildLocalPrompt } from '../../local/build-local-prompt.js';
import { toolActivityKind } from '../../local/tool-activity-kind.js';
import { buildEnvironment } from '../../process/build-environment.js';
import { prepareEngineHome, type EngineHome } from '../../process/private-home.js';
import { loadNodeModules } from '../../process/load-node-modules.js';
import { describeError } from '../../shared/describe-error.js';
import { finishedResult } from '../acp/acp-result.js';
import { stderrOf } from '../acp/start-acp-session.js';
import type { SessionApprovalAnswerer, SessionApprovalView, SessionCallContext, SessionDriverSettings, SessionProtocol, SessionStartContext } from '../driver/session-protocol.js';
import { failedResult } from '../driver/session-turn-report.js';
import { sessionPlacement } from '../driver/session-placement.js';
import { modelsFile, OMP_PROVIDER_KEY_VARIABLE, ompArgs, type ResolvedOmpRpcOptions } from './omp-rpc-options.js';
import { OmpLiveSession, OmpTurn, type OmpApproval, type OmpTurnEnd } from './omp-rpc-session.js';
import { approvalSubject } from './omp-rpc-wire.js';

/** The continuation kind of omp's RPC sessions. */
export const OMP_RPC_CONTINUATION_KIND = 'omp-rpc.session';

/**
 * oh-my-pi's own stdio RPC on the session driver: `omp --mode rpc` per session, `ready`, then one
 * `prompt` command per turn, pi's session events until `agent_end`, `extension_ui_request`
 * (select Approve/Deny) as approvals, `steer` into the running turn, `abort` to stop.
 */
export class OmpRpcProtocol implements SessionProtocol<OmpLiveSession, OmpApproval, OmpTurnEnd, OmpTurn> {
  readonly continuationKind = OMP_RPC_CONTINUATION_KIND;
  readonly backendId: string;
  readonly label: string;
  readonly settings: SessionDriverSettings;

  private home: Promise<EngineHome> | undefined;

  constructor(private readonly config: ResolvedOmpRpcOptions) {
    this.backendId = config.backendId;
    this.label = config.label;
    this.settings = { timeoutMs: config.timeoutMs, cancelGraceMs: config.killGraceMs, maxLiveSessions: config.maxLiveSessions, idleTimeoutMs: config.idleTimeoutMs, pausedTurn: 'cancel' };
  }

  describeCapabilities(): ExecutionCapabilities {
    const asks = this.config.approvalMode !== 'yolo';
    return {
      toolUse: 'native-iterative',
      structuredToolCalls: false,
      continuationSupport: 'opaque-resume',
      approvalInterrupts: asks ? 'native' : 'none',
      traceDepth: 'standard',
      attachments: false,
      history: false,
      streaming: true,
      steer: true,
      customProvider: true,
      maxContextStrategy: 'large',
      agentProject: { instructions: true, permissionRules: asks },
      notes: [
        'One live `omp --mode rpc` process per session (JSONL commands and events over stdio).',
        asks
          ? `Approvals: omp asks (--approval-mode ${this.config.approvalMode}); the turn ends awaiting_approval and resumeTurn answers in the live engine.`
          : 'Approvals: none — --approval-mode yolo runs every tool unasked (chosen explicitly).',
        'Steering: `steer` reaches the running turn; omp adds it after the current assistant message.',
        "Continuation: omp's session id; resumed with --resume from the same home when the live process is gone.",
      ],
    };
  }

  place = sessionPlacement;

  async open(context: SessionCallContext): Promise<OmpLiveSession> {
    const wanted = context.incoming?.kind === OMP_RPC_CONTINUATION_KIND ? context.incoming.continuationId : undefined;
    if (wanted === undefined) return this.start(context, undefined);
    try {
      return await this.start(context, wanted);
    } catch (error) {
      context.report.note(`omp could not resume session ${JSON.stringify(wanted.slice(0, 64))} (${describeError(error, 200)}); a new session was opened.`);
      return this.start(context, undefined);
    }
  }

  createTurn(): OmpTurn {
    return new OmpTurn();
  }

  async startTurn(session: OmpLiveSession, turn: OmpTurn, context: SessionStartContext): Promise<void> {
    const resuming = session.turnsSent > 0 || session.resumed;
    await session.prompt(turn, buildLocalPrompt(context.request, { includeInstructions: !resuming, resumingSession: resuming }));
  }

  describeApproval(session: OmpLiveSession, _turn: OmpTurn, approval: OmpApproval): SessionApprovalView {
    const approvalKey = `omp-${session.instanceId.slice(0, 8)}-${session.turnsSent}-${approval.id}`;
    const { toolName, command } = approvalSubject(approval.title);
    const title = approval.title.replace(/\s+/g, ' ').trim().slice(0, 500) || `${this.label} asks permission`;
    const kind = toolName === undefined ? 'other' : toolActivityKind(toolName);
    const options =
      approval.method === 'confirm'
        ? []
        : [
            { optionId: 'Approve', name: 'Approve', kind: 'allow_once' as const },
            { optionId: 'Deny', name: 'Deny', kind: 'reject_once' as const },
          ];
    return {
      approvalKey,
      request: { title, kind, ...(toolName === undefined ? {} : { toolName }), ...(command === undefined ? {} : { command }) },
      event: { type: 'approval_requested', approvalKey, title, kind, ...(command === undefined ? {} : { command }), options },
      approvalRequest: {
        reason: `${this.label} asks permission: ${title}`,
        metadata: { engine: this.backendId, title, kind, ...(toolName === undefined ? {} : { toolName }), ...(command === undefined ? {} : { command }), options },
      },
    };
  }

  answerApproval(session: OmpLiveSession, _turn: OmpTurn, approval: OmpApproval, decision: 'approved' | 'rejected', by: SessionApprovalAnswerer): boolean {
    return session.answer(approval, by === 'cancel' ? 'cancelled' : decision);
  }

  cancel(session: OmpLiveSession): void {
    session.abort();
  }

  async steer(session: OmpLiveSession, _turn: OmpTurn, text: string): Promise<void> {
    await session.command('steer', { message: text });
  }

  finish(session: OmpLiveSession, turn: OmpTurn, ending: OmpTurnEnd, context: SessionCallContext) {
    const { report } = context;
    const continuation = this.continuation(session);
    if (session.invalidLines > 0) report.note(`The engine wrote ${session.invalidLines} invalid line(s); they were ignored.`);
    if (ending.kind === 'failed' || ending.stopReason === 'error') {
      const gone = ending.kind === 'failed' && ending.engineGone;
      const why = ending.kind === 'failed' ? ending.message : (ending.errorMessage ?? 'the model call failed').split('\n')[0]!.slice(0, 500);
      const stderr = gone ? stderrOf(session) : '';
      const failed = failedResult(report, 'backend_execution_error', `${this.label}: ${why}${stderr}`, true, gone ? { engineExited: true } : undefined);
      return { result: { ...failed, continuation, metadata: { continuation } }, engineGone: gone };
    }
    const u = turn.usage;
    const usage = turn.usageSeen ? { inputTokens: u.input, outputTokens: u.output, cachedReadTokens: u.cacheRead } : undefined;
    const stopReason = ending.aborted ? 'cancelled' : 'end_turn';
    const result = finishedResult(report, { stopReason, answer: turn.answerText, rejected: turn.rejected, usage, continuation, label: this.label });
    if (result.usage !== undefined && u.cost > 0) result.usage = { ...result.usage, costUnits: u.cost };
    return { result, engineGone: false };
  }

  continuation(session: OmpLiveSession): ExecutionContinuation {
    return { kind: OMP_RPC_CONTINUATION_KIND, ...(session.sessionId === undefined ? {} : { continuationId: session.sessionId }), state: {} };
  }

  /** Starts an engine (resuming `resume`), waits for `ready` and learns its session id. */
  private async start(context: SessionCallContext, resume: string | undefined): Promise<OmpLiveSession> {
    const { config } = this;
    const node = await loadNodeModules();
    const home = (await this.engineHome()).path;
    const key = config.provider?.apiKey;
    const env = buildEnvironment(node.process.env, config.inheritEnv, { ...config.env, HOME: home, ...(key === undefined ? {} : { [OMP_PROVIDER_KEY_VARIABLE]: key }) }, node.process.platform);
    const session = new OmpLiveSession(node, {
      command: config.command,
      args: ompArgs(config, resume),
      cwd: config.cwd,
      env,
      maxLineBytes: config.maxLineBytes,
      maxStderrBytes: config.maxStderrBytes,
      killGraceMs: config.killGraceMs,
    });
    const signal = AbortSignal.any([context.signal, AbortSignal.timeout(config.startupTimeoutMs)]);
    try {
      const ended = session.exited.then(() => Promise.reject(new Error(session.exitDescription ?? 'The engine ended.')));
      const late = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error('omp did not become ready in time.')), { once: true }));
      await Promise.race([session.ready, ended, late]);
      const state = await session.command('get_state', {}, signal);
      session.sessionId = sessionIdOf(state);
      session.resumed = resume !== undefined;
    } catch (error) {
      const stderr = stderrOf(session);
      await session.dispose();
      throw new Error(`the engine session could not be opened: ${describeError(error)}${stderr}`, { cause: error });
    }
    return session;
  }

  /** Removes a private home (a caller's `home` stays). */
  async release(): Promise<void> {
    const home = await this.home?.catch(() => undefined);
    this.home = undefined;
    await home?.remove();
  }

  /** The engine's home, made once per adapter: omp's `models.yml` is written there when a provider is given and the file is missing. */
  private engineHome(): Promise<EngineHome> {
    const { provider } = this.config;
    const files: Record<string, string> = provider === undefined ? {} : { '.omp/agent/models.yml': modelsFile(provider) };
    const home = (this.home ??= prepareEngineHome('agent-assistant-omp-', this.config.home, files));
    home.catch(() => {
      if (this.home === home) this.home = undefined;
    });
    return home;
  }
}

function sessionIdOf(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const id: unknown = Object.getOwnPropertyDescriptor(state, 'sessionId')?.value;
  return typeof id === 'string' && id !== '' && id.length <= 256 ? id : undefined;
}
