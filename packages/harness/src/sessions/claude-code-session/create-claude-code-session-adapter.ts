import { capAnswer } from '../../execution/answer-cap.js';
import { checkExecutionRequest } from '../../execution/execution-request-schema.js';
import { negotiateCapabilities } from '../../execution/negotiate-capabilities.js';
import type {
  ExecutionAdapter,
  ExecutionCapabilities,
  ExecutionContinuation,
  ExecutionError,
  ExecutionNegotiation,
  ExecutionOptions,
  ExecutionRequest,
  ExecutionResult,
  ExecutionStreamEvent,
  ExecutionTrace,
} from '../../execution/types.js';
import { buildLocalPrompt } from '../../local/build-local-prompt.js';
import { buildEnvironment } from '../../local/internal/build-environment.js';
import { incomingContinuationOf } from '../../local/internal/incoming-continuation.js';
import { instructionsText } from '../../local/internal/instructions-text.js';
import { productToolsReasons } from '../../local/internal/local-cli-preset.js';
import { loadNodeModules } from '../../local/internal/load-node-modules.js';
import type { NodeModules } from '../../local/node-types.js';
import { tail } from '../../local/internal/to-local-result.js';
import { parseClaudeCodeOutput } from '../../local/parse-claude-code-output.js';
import { describeError } from '../../shared/describe-error.js';
import { SessionPool, SessionPoolError } from '../session-pool.js';
import { ClaudeLiveSession, type ClaudePermissionAnswer, type ClaudeTurnStop } from './claude-live-session.js';
import { hostVerdict, hostVerdictNote } from '../internal/host-verdict.js';
import { toolActivityKind } from '../../local/internal/tool-activity-kind.js';
import {
  resolveClaudeCodeSessionOptions,
  type ClaudeCodeSessionAdapterOptions,
  type ResolvedClaudeCodeSessionOptions,
} from './claude-code-session-options.js';
import type { ClaudePermissionRequest } from './read-claude-line.js';

/** The backend id of {@link ClaudeCodeSessionAdapter}. */
export const CLAUDE_CODE_SESSION_BACKEND_ID = 'claude-code-session';

/** The continuation kind of its sessions. */
export const CLAUDE_CODE_SESSION_KIND = 'claude-code-session.session';

const LABEL = 'Claude Code session';
const MAX_SESSION_ID_LENGTH = 256;

/** Where a call of `execute` is in its session, for the result. */
interface TurnContext {
  request: ExecutionRequest;
  options: ExecutionOptions;
  key: string;
  session?: ClaudeLiveSession;
  incoming: ExecutionContinuation | undefined;
  startedAt: number;
  firstEventMs?: number | undefined;
  engine?: { reused: boolean; restarted: boolean; resumedWithFlag: boolean };
  /** Permission requests the host's rules answered, as trace notes. */
  notes?: string[];
}

/**
 * Claude Code as a long-lived session backend (`claude-code-session`): one
 * `claude -p --input-format stream-json --output-format stream-json --verbose
 * --permission-prompt-tool stdio --include-partial-messages` process per session, kept alive
 * across turns in a pool. Text deltas, tool activity and `TodoWrite` plans stream through
 * `ExecutionOptions.onEvent`. When Claude asks permission (`can_use_tool`), the turn ends
 * `awaiting_approval` with the tool, its input and Claude's options; `resumeTurn` with an approval
 * answers the request **in the same live process** and the turn runs on to its end. The turn's
 * signal interrupts Claude (`interrupt` control request). A follow-up turn with the continuation
 * reuses the live process; when it is gone (idle timeout, crash, another process), the session is
 * resumed from disk with `--resume`. An approval whose live process is gone cannot be answered:
 * the result says `continuation_invalid`. Node.js only; call `dispose()` to stop every process.
 *
 * @example
 * const backend = createClaudeCodeSessionAdapter({ cwd: '/work/repo', allowedTools: ['Read'] });
 * const harness = createHarness({ backend });
 * const paused = await harness.runTurn(input); // Claude wants to run a command
 * if (paused.outcome === 'awaiting_approval') {
 *   const [request] = paused.approvalRequests ?? [];
 *   await harness.resumeTurn(paused.continuation!, { type: 'approval', decisions: { [request!.id]: 'approved' } });
 * }
 * await backend.dispose();
 */
export class ClaudeCodeSessionAdapter implements ExecutionAdapter {
  /** Always `claude-code-session`. */
  readonly backendId = CLAUDE_CODE_SESSION_BACKEND_ID;
  private readonly options: ResolvedClaudeCodeSessionOptions;
  private readonly pool: SessionPool<ClaudeLiveSession>;

  /** @throws HarnessConfigError when an option is invalid; `field` names it. */
  constructor(options: ClaudeCodeSessionAdapterOptions = {}) {
    this.options = resolveClaudeCodeSessionOptions(options);
    this.pool = new SessionPool<ClaudeLiveSession>({
      ...(this.options.maxLiveSessions === undefined ? {} : { maxLiveSessions: this.options.maxLiveSessions }),
      ...(this.options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: this.options.idleTimeoutMs }),
    });
  }

  /**
   * Streaming, native approvals (and the host's permission rules, `onPermissionRequest`), opaque
   * resume; no steering, no attachments, Claude's own tools.
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
      maxContextStrategy: 'large',
      streaming: true,
      steer: false,
      agentProject: { instructions: true, permissionRules: true },
      notes: [
        'One live `claude` process per session (stream-json in and out), reused across turns.',
        'Permission requests (can_use_tool) become awaiting_approval and are answered in the live process.',
        'Uses Claude Code built-in tools (allowedTools / permissionMode), not the request tools.',
        'Continuation: the Claude session id; resumed with --resume when the live process is gone.',
      ],
    };
  }

  /** The standard negotiation, plus a warning (or a block) when the request brings its own tools. */
  negotiate(request: ExecutionRequest): ExecutionNegotiation {
    const extra = productToolsReasons(request, LABEL);
    return negotiateCapabilities(this.describeCapabilities(), request, extra);
  }

  /** Runs a turn (or its part after an approval) in the session's live process. Never rejects. */
  async execute(untrusted: ExecutionRequest, options: ExecutionOptions = {}): Promise<ExecutionResult> {
    const checked = checkExecutionRequest(untrusted, this.backendId);
    if (!checked.ok) return checked.result;
    const request = checked.request;
    const startedAt = Date.now();
    let negotiation: ExecutionNegotiation;
    try {
      negotiation = this.negotiate(request);
    } catch (error) {
      return this.failure({ request, options, key: '', incoming: undefined, startedAt }, 'other', `negotiate failed: ${describeError(error)}`, false);
    }
    if (!negotiation.supported) {
      const message = negotiation.reasons.filter((reason) => reason.severity === 'blocking').map((reason) => reason.message).join(' ');
      return { backendId: this.backendId, status: 'unsupported', error: { code: 'unsupported_capability', message, retryable: false }, metadata: { negotiation: negotiation.reasons } };
    }
    const incoming = incomingContinuationOf(request);
    const problem = continuationProblem(incoming);
    if (problem !== undefined) {
      return this.failure({ request, options, key: '', incoming: undefined, startedAt }, 'invalid_request', problem, false);
    }
    const turn: TurnContext = { request, options, key: incoming?.continuationId ?? crypto.randomUUID(), incoming, startedAt };
    try {
      return request.resume?.type === 'approval' ? await this.answerApproval(turn, request.resume.decisions) : await this.runTurn(turn);
    } catch (error) {
      return this.failure(turn, 'backend_execution_error', describeError(error), true);
    }
  }

  /** Stops every live process; resolves once none is left. Later turns fail. */
  dispose(): Promise<void> {
    return this.pool.dispose();
  }

  private async runTurn(turn: TurnContext): Promise<ExecutionResult> {
    let node: NodeModules;
    try {
      node = await loadNodeModules();
    } catch (error) {
      return this.failure(turn, 'other', `${LABEL} needs Node.js child processes: ${describeError(error)}.`, false);
    }
    const resuming = turn.incoming !== undefined;
    let lease;
    try {
      lease = await this.pool.acquire(turn.key, async () => new ClaudeLiveSession(node, this.spawnOptions(node, turn, resuming), turn.key));
    } catch (error) {
      if (error instanceof SessionPoolError) return this.failure(turn, 'backend_execution_error', `${LABEL}: ${error.message}`, error.reason !== 'disposed');
      throw error;
    }
    const session = lease.session;
    turn.session = session;
    turn.engine = { reused: lease.reused, restarted: lease.restarted, resumedWithFlag: resuming && !lease.reused };
    if (session.pending !== undefined) {
      this.pool.release(turn.key, session);
      return this.failure(
        turn,
        'other',
        `${LABEL}: the session waits for an approval (request ${JSON.stringify(session.pending.requestId)}); resume that turn first.`,
        false,
        'approval_pending',
      );
    }
    turn.options.onContinuation?.(this.continuation(turn, undefined, undefined));
    const text = buildLocalPrompt(turn.request, { includeInstructions: false, resumingSession: resuming });
    return this.finishSegment(turn, session.sendTurn(text, this.listener(turn)));
  }

  private async answerApproval(turn: TurnContext, decisions: Record<string, 'approved' | 'rejected'>): Promise<ExecutionResult> {
    const pendingId = turn.incoming?.state?.['pendingRequestId'];
    const instanceId = turn.incoming?.state?.['instanceId'];
    const live = this.pool.peek(turn.key);
    const gone = (why: string) => this.failure(turn, 'other', `${LABEL}: ${why}; the approval cannot be answered. Start a new turn in the session instead.`, false, 'continuation_invalid');
    if (typeof pendingId !== 'string') return gone('the continuation carries no pending permission request');
    if (live === undefined || live.instanceId !== instanceId) return gone('the live Claude Code process that asked is gone (restarted, stopped, or in another process)');
    if (live.pending?.requestId !== pendingId) return gone('the permission request is no longer pending in the live session');
    const decision = Object.hasOwn(decisions, pendingId) ? decisions[pendingId] : undefined;
    if (decision === undefined) return this.failure(turn, 'invalid_request', `${LABEL}: no decision for request ${JSON.stringify(pendingId)}.`, false);
    let lease;
    try {
      lease = await this.pool.acquire(turn.key, () => Promise.reject(new Error('the live session is gone')));
    } catch (error) {
      return gone(describeError(error));
    }
    turn.session = lease.session;
    turn.engine = { reused: true, restarted: false, resumedWithFlag: false };
    const answer =
      decision === 'approved'
        ? ({ behavior: 'allow', always: this.options.approvalScope === 'session' } as const)
        : ({ behavior: 'deny', message: this.options.rejectionMessage } as const);
    return this.finishSegment(turn, lease.session.answer(answer, this.listener(turn)), decision);
  }

  /** Waits for the segment under the turn's signal and timeout, then releases the session and builds the result. */
  private async finishSegment(turn: TurnContext, first: Promise<ClaudeTurnStop>, decision?: 'approved' | 'rejected'): Promise<ExecutionResult> {
    let segment = first;
    const session = turn.session!;
    const timeoutMs = effectiveTimeout(this.options.timeoutMs, turn.request.timeoutMs);
    let stoppedFor: 'cancelled' | 'timeout' | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const signal = turn.options.signal;
    const interrupted = new Promise<'cancelled' | 'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
      onAbort = () => resolve('cancelled');
      if (signal?.aborted === true) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    let stop = await Promise.race([segment, interrupted]);
    // The host's rules answer what they decide; the first request they leave open pauses the turn.
    while (stop !== 'cancelled' && stop !== 'timeout' && stop.kind === 'permission') {
      const answer = this.hostAnswer(turn, stop.request);
      if (answer === undefined) break;
      segment = session.answer(answer, this.listener(turn));
      stop = await Promise.race([segment, interrupted]);
    }
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
    if (stop === 'cancelled' || stop === 'timeout') {
      stoppedFor = stop;
      stop = await this.interrupt(session, segment);
    }
    if (stop.kind === 'permission' && stoppedFor !== undefined) {
      // Asked just as the turn was stopped: refuse it so the engine is not left waiting.
      stop = await this.interrupt(session, session.answer({ behavior: 'deny', message: 'The turn was cancelled.' }, undefined));
    }
    if (!session.alive || stop.kind === 'ended') await this.pool.discard(turn.key, session);
    else this.pool.release(turn.key, session);
    if (stoppedFor !== undefined) {
      const message = stoppedFor === 'timeout' ? `${LABEL}: the turn took longer than ${timeoutMs} ms and was interrupted.` : `${LABEL}: the turn was cancelled.`;
      return this.failure(turn, stoppedFor === 'timeout' ? 'timeout' : 'other', message, stoppedFor === 'timeout', stoppedFor === 'cancelled' ? 'cancelled' : undefined);
    }
    return this.resultOf(turn, stop, decision);
  }

  /** Interrupts the running segment and waits (at most `killGraceMs`) for it to end; stops the process otherwise. */
  private async interrupt(session: ClaudeLiveSession, segment: Promise<ClaudeTurnStop>): Promise<ClaudeTurnStop> {
    session.interrupt();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), this.options.killGraceMs);
    });
    const stop = await Promise.race([segment, late]);
    clearTimeout(timer);
    if (stop !== undefined) return stop;
    const exit = await session.dispose();
    return { kind: 'ended', exit };
  }

  private resultOf(turn: TurnContext, stop: ClaudeTurnStop, decision: 'approved' | 'rejected' | undefined): ExecutionResult {
    const session = turn.session!;
    switch (stop.kind) {
      case 'refused':
        return this.failure(turn, 'backend_execution_error', `${LABEL}: ${stop.reason}.`, true);
      case 'ended': {
        const exit = stop.exit;
        const how =
          exit.kind === 'spawn_failed'
            ? `could not start ${JSON.stringify(this.options.command)}: ${exit.message}`
            : exit.kind === 'line_too_long'
              ? `wrote a line longer than ${exit.maxLineBytes} bytes and was stopped`
              : `exited mid-turn (code ${String(exit.exitCode)}${exit.exitSignal === null ? '' : `, signal ${exit.exitSignal}`})`;
        const stderr = session.stderrTail().trim();
        return this.failure(turn, 'backend_execution_error', `${LABEL} ${how}.${stderr === '' ? '' : ` stderr: ${tail(stderr, 1_000)}`}`, exit.kind !== 'spawn_failed');
      }
      case 'permission':
        return this.awaitingApproval(turn, stop.request);
      case 'result': {
        const previous = this.continuation(turn, undefined, undefined);
        const parsed = parseClaudeCodeOutput(JSON.stringify(stop.result), { backendId: this.backendId, continuation: previous });
        if (parsed === null) return this.failure(turn, 'invalid_backend_output', `${LABEL}: the turn's result line has the wrong shape.`, false);
        const totalCostUsd = parsed.continuation?.state?.['totalCostUsd'];
        const continuation = this.continuation(turn, undefined, typeof totalCostUsd === 'number' ? totalCostUsd : undefined);
        const { status, structured, error, usage, metadata } = parsed;
        const answer = parsed.text === undefined ? undefined : capAnswer(parsed.text);
        const text = answer?.text;
        return {
          backendId: this.backendId,
          status: status ?? 'completed',
          ...(text === undefined && structured === undefined ? {} : { output: { ...(text === undefined ? {} : { text }), ...(structured === undefined ? {} : { structured }) } }),
          continuation,
          ...(error === undefined ? {} : { error }),
          ...(usage === undefined ? {} : { usage }),
          trace: this.trace(turn, status === 'failed' ? 'failure' : 'model_completed'),
          metadata: {
            ...metadata,
            ...this.turnMetadata(turn),
            continuation,
            ...(decision === undefined ? {} : { approvalDecision: decision }),
            ...(answer?.truncated === true ? { answerTruncated: true } : {}),
          },
        };
      }
    }
  }

  /** The answer the host's rules give a permission request, or `undefined` when they leave it to a person. */
  private hostAnswer(turn: TurnContext, request: ClaudePermissionRequest): ClaudePermissionAnswer | undefined {
    if (turn.options.onPermissionRequest === undefined) return undefined;
    const { kind, command, title } = describeRequest(request);
    const verdict = hostVerdict(turn.options, { title, toolName: request.toolName, kind, ...(command === undefined ? {} : { command }) });
    if (verdict === 'ask') return undefined;
    (turn.notes ??= []).push(hostVerdictNote(verdict, title));
    return verdict === 'approve' ? { behavior: 'allow', always: false } : { behavior: 'deny', message: this.options.rejectionMessage };
  }

  private awaitingApproval(turn: TurnContext, request: ClaudePermissionRequest): ExecutionResult {
    const { kind, command, title } = describeRequest(request);
    const options = [
      { optionId: 'allow_once', name: 'Allow', kind: 'allow_once' as const },
      ...(request.suggestions.length > 0 ? [{ optionId: 'allow_always', name: 'Allow for this session', kind: 'allow_always' as const }] : []),
      { optionId: 'deny', name: 'Reject', kind: 'reject_once' as const },
    ];
    this.emit(turn, {
      type: 'approval_requested',
      approvalKey: request.requestId,
      title,
      ...(request.toolUseId === undefined ? {} : { toolCallId: request.toolUseId }),
      kind,
      ...(command === undefined ? {} : { command }),
      options,
    });
    return {
      backendId: this.backendId,
      status: 'awaiting_approval',
      approvalRequest: {
        approvalKey: request.requestId,
        reason: `Claude Code asks to use ${request.toolName}: ${title}`,
        metadata: {
          toolName: request.toolName,
          input: request.input,
          ...(request.toolUseId === undefined ? {} : { toolUseId: request.toolUseId }),
          ...(request.description === undefined ? {} : { description: request.description }),
          ...(request.blockedPath === undefined ? {} : { blockedPath: request.blockedPath }),
          kind,
          ...(command === undefined ? {} : { command }),
          options,
          approvalScope: this.options.approvalScope,
        },
      },
      continuation: this.continuation(turn, request.requestId, undefined),
      trace: this.trace(turn, 'approval_wait'),
      metadata: this.turnMetadata(turn),
    };
  }

  private continuation(turn: TurnContext, pendingRequestId: string | undefined, totalCostUsd: number | undefined): ExecutionContinuation {
    const previousCost = turn.incoming?.state?.['totalCostUsd'];
    const cost = totalCostUsd ?? (typeof previousCost === 'number' && Number.isFinite(previousCost) ? previousCost : 0);
    return {
      kind: CLAUDE_CODE_SESSION_KIND,
      continuationId: turn.session?.sessionId ?? turn.key,
      state: {
        totalCostUsd: cost,
        ...(turn.session === undefined ? {} : { instanceId: turn.session.instanceId }),
        ...(pendingRequestId === undefined ? {} : { pendingRequestId }),
      },
    };
  }

  private listener(turn: TurnContext): (event: ExecutionStreamEvent) => void {
    return (event) => this.emit(turn, event);
  }

  private emit(turn: TurnContext, event: ExecutionStreamEvent): void {
    turn.firstEventMs ??= Date.now() - turn.startedAt;
    try {
      turn.options.onEvent?.(event);
    } catch {
      // A listener's failure never breaks the turn.
    }
  }

  private turnMetadata(turn: TurnContext): Record<string, unknown> {
    return {
      durationMs: Date.now() - turn.startedAt,
      ...(turn.firstEventMs === undefined ? {} : { firstEventMs: turn.firstEventMs }),
      ...(turn.engine === undefined ? {} : { engine: { ...turn.engine, ...(turn.session?.pid === undefined ? {} : { pid: turn.session.pid }) } }),
      ...(turn.session === undefined || turn.session.invalidLines === 0 ? {} : { invalidLines: turn.session.invalidLines }),
    };
  }

  private trace(turn: TurnContext, last: 'model_completed' | 'failure' | 'approval_wait', code?: string): ExecutionTrace {
    const at = (time: number) => new Date(time).toISOString();
    const now = Date.now();
    return {
      summary: { startedAt: at(turn.startedAt), completedAt: at(now), stepCount: 1 },
      events: [
        { type: 'model_started', at: at(turn.startedAt) },
        ...(turn.notes ?? []).map((message) => ({ type: 'note' as const, at: at(now), data: { message } })),
        { type: last, at: at(now), ...(code === undefined ? {} : { data: { code } }) },
      ],
    };
  }

  private spawnOptions(node: NodeModules, turn: TurnContext, resuming: boolean) {
    const { options } = this;
    const args = [
      '-p',
      '--input-format',
      'stream-json',
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-prompt-tool',
      'stdio',
      '--include-partial-messages',
      `--permission-mode=${options.permissionMode}`,
      resuming ? `--resume=${turn.key}` : `--session-id=${turn.key}`,
    ];
    if (options.model !== undefined) args.push(`--model=${options.model}`);
    const instructions = instructionsText(turn.request);
    if (instructions !== '') args.push(`--${options.systemPromptMode === 'append' ? 'append-system-prompt' : 'system-prompt'}=${instructions}`);
    if (options.allowedTools.length > 0) args.push(`--allowedTools=${options.allowedTools.join(',')}`);
    if (options.disallowedTools.length > 0) args.push(`--disallowedTools=${options.disallowedTools.join(',')}`);
    args.push(...options.extraArgs);
    return {
      command: options.command,
      args,
      cwd: options.cwd,
      env: buildEnvironment(node.process.env, options.inheritEnv, options.env, node.process.platform),
      maxLineBytes: options.maxLineBytes,
      maxStderrBytes: options.maxStderrBytes,
      killGraceMs: options.killGraceMs,
    };
  }

  private failure(turn: TurnContext, code: ExecutionError['code'], message: string, retryable: boolean, reason?: string): ExecutionResult {
    const continuation = turn.key === '' ? undefined : this.continuation(turn, undefined, undefined);
    return {
      backendId: this.backendId,
      status: 'failed',
      error: { code, message, retryable, ...(reason === undefined ? {} : { metadata: { reason } }) },
      ...(continuation === undefined ? {} : { continuation }),
      trace: this.trace(turn, 'failure', reason ?? code),
      metadata: { ...this.turnMetadata(turn), ...(continuation === undefined ? {} : { continuation }) },
    };
  }
}

/**
 * Creates a {@link ClaudeCodeSessionAdapter}.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createClaudeCodeSessionAdapter(options: ClaudeCodeSessionAdapterOptions = {}): ClaudeCodeSessionAdapter {
  return new ClaudeCodeSessionAdapter(options);
}

function continuationProblem(incoming: ExecutionContinuation | undefined): string | undefined {
  if (incoming === undefined) return undefined;
  if (incoming.kind !== undefined && incoming.kind !== CLAUDE_CODE_SESSION_KIND) {
    return `${LABEL}: the continuation is a ${JSON.stringify(incoming.kind)}, not a ${CLAUDE_CODE_SESSION_KIND}.`;
  }
  const id = incoming.continuationId;
  if (id === undefined) return `${LABEL}: the continuation has no session id.`;
  if (id === '' || id.length > MAX_SESSION_ID_LENGTH || id.startsWith('-') || /[\s\0]/.test(id)) {
    return `${LABEL}: the continuation's session id is not valid.`;
  }
  return undefined;
}

function effectiveTimeout(configured: number, requested: number | undefined): number {
  return requested !== undefined && Number.isFinite(requested) && requested > 0 ? Math.min(configured, requested) : configured;
}

/** What a permission request is about: its activity kind, its command (for shell tools) and a title. */
function describeRequest(request: ClaudePermissionRequest): { kind: ReturnType<typeof toolActivityKind>; command: string | undefined; title: string } {
  const kind = toolActivityKind(request.toolName);
  const command = kind === 'command' && typeof request.input['command'] === 'string' ? request.input['command'] : undefined;
  return { kind, command, title: command ?? request.blockedPath ?? request.description ?? request.toolName };
}
