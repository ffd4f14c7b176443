import { checkExecutionRequest } from '../../execution/execution-request-schema.js';
import { negotiateCapabilities } from '../../execution/negotiate-capabilities.js';
import type {
  ExecutionAdapter,
  ExecutionCapabilities,
  ExecutionNegotiation,
  ExecutionOptions,
  ExecutionRequest,
  ExecutionResult,
  ExecutionStreamEvent,
} from '../../execution/types.js';
import { buildLocalPrompt } from '../../local/build-local-prompt.js';
import { incomingContinuationOf } from '../../local/incoming-continuation.js';
import { productToolsReasons } from '../../local/local-cli-preset.js';
import { loadNodeModules } from '../../process/load-node-modules.js';
import type { NodeModules } from '../../process/node-types.js';
import { describeError } from '../../shared/describe-error.js';
import { effectiveTimeout } from '../internal/effective-timeout.js';
import { SessionPool, SessionPoolError } from '../session-pool.js';
import { ClaudeLiveSession, type ClaudeTurnStop } from './claude-live-session.js';
import {
  resolveClaudeCodeSessionOptions,
  type ClaudeCodeSessionAdapterOptions,
  type ResolvedClaudeCodeSessionOptions,
} from './claude-code-session-options.js';
import { hostAnswer } from './claude-permission-request.js';
import { continuationOf, failure, resultOf } from './claude-session-result.js';
import { spawnOptions } from './claude-spawn-options.js';
import { CLAUDE_CODE_SESSION_BACKEND_ID, continuationProblem, emitTo, LABEL, type TurnContext } from './claude-turn-context.js';

export { CLAUDE_CODE_SESSION_BACKEND_ID, CLAUDE_CODE_SESSION_KIND } from './claude-turn-context.js';

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
    const checked = checkExecutionRequest(untrusted, CLAUDE_CODE_SESSION_BACKEND_ID);
    if (!checked.ok) return checked.result;
    const request = checked.request;
    const startedAt = Date.now();
    let negotiation: ExecutionNegotiation;
    try {
      negotiation = this.negotiate(request);
    } catch (error) {
      return failure({ request, options, key: '', incoming: undefined, startedAt }, 'other', `negotiate failed: ${describeError(error)}`, false);
    }
    if (!negotiation.supported) {
      const message = negotiation.reasons.filter((reason) => reason.severity === 'blocking').map((reason) => reason.message).join(' ');
      return { backendId: CLAUDE_CODE_SESSION_BACKEND_ID, status: 'unsupported', error: { code: 'unsupported_capability', message, retryable: false }, metadata: { negotiation: negotiation.reasons } };
    }
    const incoming = incomingContinuationOf(request);
    const problem = continuationProblem(incoming);
    if (problem !== undefined) {
      return failure({ request, options, key: '', incoming: undefined, startedAt }, 'invalid_request', problem, false);
    }
    const turn: TurnContext = { request, options, key: incoming?.continuationId ?? crypto.randomUUID(), incoming, startedAt };
    try {
      return request.resume?.type === 'approval' ? await this.answerApproval(turn, request.resume.decisions) : await this.runTurn(turn);
    } catch (error) {
      return failure(turn, 'backend_execution_error', describeError(error), true);
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
      return failure(turn, 'other', `${LABEL} needs Node.js child processes: ${describeError(error)}.`, false);
    }
    const resuming = turn.incoming !== undefined;
    let lease;
    try {
      lease = await this.pool.acquire(turn.key, async () => new ClaudeLiveSession(node, spawnOptions(this.options, node, turn, resuming), turn.key));
    } catch (error) {
      if (error instanceof SessionPoolError) return failure(turn, 'backend_execution_error', `${LABEL}: ${error.message}`, error.reason !== 'disposed');
      throw error;
    }
    const session = lease.session;
    turn.session = session;
    turn.engine = { reused: lease.reused, restarted: lease.restarted, resumedWithFlag: resuming && !lease.reused };
    if (session.pending !== undefined) {
      this.pool.release(turn.key, session);
      return failure(
        turn,
        'other',
        `${LABEL}: the session waits for an approval (request ${JSON.stringify(session.pending.requestId)}); resume that turn first.`,
        false,
        'approval_pending',
      );
    }
    turn.options.onContinuation?.(continuationOf(turn, undefined, undefined));
    const text = buildLocalPrompt(turn.request, { includeInstructions: false, resumingSession: resuming });
    return this.finishSegment(turn, session.sendTurn(text, this.listener(turn)));
  }

  private async answerApproval(turn: TurnContext, decisions: Record<string, 'approved' | 'rejected'>): Promise<ExecutionResult> {
    const pendingId = turn.incoming?.state?.['pendingRequestId'];
    const instanceId = turn.incoming?.state?.['instanceId'];
    const live = this.pool.peek(turn.key);
    const gone = (why: string) => failure(turn, 'other', `${LABEL}: ${why}; the approval cannot be answered. Start a new turn in the session instead.`, false, 'continuation_invalid');
    if (typeof pendingId !== 'string') return gone('the continuation carries no pending permission request');
    if (live === undefined || live.instanceId !== instanceId) return gone('the live Claude Code process that asked is gone (restarted, stopped, or in another process)');
    if (live.pending?.requestId !== pendingId) return gone('the permission request is no longer pending in the live session');
    const decision = Object.hasOwn(decisions, pendingId) ? decisions[pendingId] : undefined;
    if (decision === undefined) return failure(turn, 'invalid_request', `${LABEL}: no decision for request ${JSON.stringify(pendingId)}.`, false);
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
      const answer = hostAnswer(turn.options, turn, stop.request, this.options.rejectionMessage);
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
      return failure(turn, stoppedFor === 'timeout' ? 'timeout' : 'other', message, stoppedFor === 'timeout', stoppedFor === 'cancelled' ? 'cancelled' : undefined);
    }
    return resultOf(turn, stop, decision, this.options.command, this.options.approvalScope);
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

  private listener(turn: TurnContext): (event: ExecutionStreamEvent) => void {
    return (event) => emitTo(turn, event);
  }
}

/**
 * Creates a {@link ClaudeCodeSessionAdapter}.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createClaudeCodeSessionAdapter(options: ClaudeCodeSessionAdapterOptions = {}): ClaudeCodeSessionAdapter {
  return new ClaudeCodeSessionAdapter(options);
}
