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
import { buildLocalPrompt } from '../../local/build-local-prompt.js';
import { buildEnvironment } from '../../process/build-environment.js';
import { incomingContinuationOf } from '../../local/incoming-continuation.js';
import { productToolsReasons } from '../../local/local-cli-preset.js';
import { instructionsText } from '../../local/instructions-text.js';
import { loadNodeModules } from '../../process/load-node-modules.js';
import { describeError } from '../../shared/describe-error.js';
import { effectiveTimeout } from '../internal/effective-timeout.js';
import { SessionPool, SessionPoolError } from '../session-pool.js';
import type { CodexApprovalDecision } from './codex-protocol.js';
import { LABEL, resolveOptions, type CodexAppServerAdapterOptions, type ResolvedOptions } from './codex-app-server-options.js';
import { CodexSession } from './codex-session.js';
import type { CodexTurn, CodexTurnState } from './codex-turn.js';
import {
  CODEX_APP_SERVER_BACKEND_ID,
  CODEX_APP_SERVER_CONTINUATION_KIND,
  codexEngineGone,
  codexFailed,
  codexResult,
  continuationOf,
  type CodexCall,
} from './codex-execution-result.js';
import { answeredByHost } from './codex-host-approval.js';
import { turnOutcome } from './codex-turn-outcome.js';

export { CODEX_APP_SERVER_BACKEND_ID, CODEX_APP_SERVER_CONTINUATION_KIND } from './codex-execution-result.js';


const MAX_REMEMBERED_THREADS = 1024;
const MAX_STDERR_BYTES = 65_536 /* 64 KiB */;
const CLIENT_VERSION = '1';

/**
 * OpenAI Codex as a long-lived session backend: one `codex app-server` process per session
 * (JSON-RPC over stdio), kept in a {@link SessionPool} and reused across turns. Threads start with
 * `approvalPolicy: "untrusted"`, so codex asks before it runs commands or changes files: the turn
 * then ends `awaiting_approval`, and `resumeTurn` with an approval decision answers codex in the
 * same live process, after which the turn continues. Text deltas, tool activity and plan updates
 * stream through `onEvent`; `steer` input goes to `turn/steer`; a cancelled turn is stopped with
 * `turn/interrupt`. Node.js only (`node:` modules load on the first `execute`). Call `dispose()`
 * to stop every process.
 */
export class CodexAppServerAdapter implements ExecutionAdapter {
  /** `codex-app-server`. */
  readonly backendId = CODEX_APP_SERVER_BACKEND_ID;
  private readonly options: ResolvedOptions;
  private readonly pool: SessionPool<CodexSession>;
  /** Which pool key serves a thread, for turns that carry only the thread id. */
  private readonly threadKeys = new Map<string, string>();
  /**
   * Sessions whose turn was cancelled while the adapter still stops it (`turn/interrupt`, bounded
   * by `killGraceMs`): the next turn of the session waits for that instead of finding it busy.
   */
  private readonly windingDown = new Map<string, Promise<void>>();

  /** @throws HarnessConfigError when an option is invalid. */
  constructor(options: CodexAppServerAdapterOptions = {}) {
    this.options = resolveOptions(options);
    this.pool = new SessionPool<CodexSession>({
      ...(options.maxLiveSessions === undefined ? {} : { maxLiveSessions: options.maxLiveSessions }),
      ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
    });
  }

  /**
   * Native approvals (unless the policy is `never`; the host's permission rules through
   * `onPermissionRequest`), streaming, steering, thread resume.
   */
  describeCapabilities(): ExecutionCapabilities {
    return {
      toolUse: 'native-iterative',
      structuredToolCalls: false,
      continuationSupport: 'opaque-resume',
      approvalInterrupts: this.options.thread.approvalPolicy === 'never' ? 'none' : 'native',
      traceDepth: 'standard',
      attachments: false,
      history: false,
      maxContextStrategy: 'large',
      streaming: true,
      steer: true,
      agentProject: { instructions: true, permissionRules: this.options.thread.approvalPolicy !== 'never' },
      notes: [
        'Runs `codex app-server` (JSON-RPC over stdio), one live process per session, reused across turns.',
        `Approval policy "${this.options.thread.approvalPolicy}": codex asks before commands and file changes; the turn ends awaiting_approval and resumeTurn answers in the live session.`,
        'Uses Codex built-in tools under its sandbox, not the request tools.',
        'Continuation: the codex thread id; a new process resumes it with thread/resume. A pending approval does not survive the process.',
      ],
    };
  }

  /** The standard negotiation, plus a warning (or block) when the request brings its own tools. */
  negotiate(request: ExecutionRequest): ExecutionNegotiation {
    const extra = productToolsReasons(request, LABEL);
    return negotiateCapabilities(this.describeCapabilities(), request, extra);
  }

  /** Runs (or resumes) one turn. Never rejects: every failure is a `failed` result. */
  async execute(untrusted: ExecutionRequest, options: ExecutionOptions = {}): Promise<ExecutionResult> {
    const checked = checkExecutionRequest(untrusted, this.backendId);
    if (!checked.ok) return checked.result;
    const request = checked.request;
    const call: CodexCall = { request, options, startedAt: Date.now(), degradation: [], notes: [] };
    try {
      const negotiation = this.negotiate(request);
      if (!negotiation.supported) {
        const message = negotiation.reasons.filter((reason) => reason.severity === 'blocking').map((reason) => reason.message).join(' ');
        return codexResult(call, { status: 'unsupported', error: { code: 'unsupported_capability', message, retryable: false } });
      }
      call.degradation = negotiation.reasons.filter((reason) => reason.severity !== 'blocking');
      return request.resume?.type === 'approval' ? await this.resumeApproval(call) : await this.startTurn(call);
    } catch (error) {
      return codexFailed(call, 'backend_execution_error', `${LABEL} failed: ${describeError(error)}`, false);
    }
  }

  /** Stops every codex process; resolves once none is left. The adapter refuses turns afterwards. */
  dispose(): Promise<void> {
    return this.pool.dispose();
  }

  private async startTurn(call: CodexCall): Promise<ExecutionResult> {
    const { request, options } = call;
    const incoming = incomingContinuationOf(request);
    if (incoming?.kind !== undefined && incoming.kind !== CODEX_APP_SERVER_CONTINUATION_KIND) {
      return codexFailed(call, 'invalid_request', `${LABEL}: the continuation is a ${incoming.kind}, not a ${CODEX_APP_SERVER_CONTINUATION_KIND}.`, false);
    }
    const threadId = incoming?.continuationId;
    const key = this.keyFor(request, threadId);
    const acquired = await this.acquire(call, key);
    if ('status' in acquired) return acquired;
    const session = acquired.session;
    const hold = this.hold(key, options.signal);
    try {
      if (session.turn !== undefined && !session.turn.finished) {
        return codexFailed(call, 'backend_execution_error', `${LABEL}: this session has a turn waiting for approval; resume it (resumeTurn) or start another session.`, false, {
          reason: 'session_busy',
        });
      }
      const instructions = instructionsText(request);
      const opened = await session.openThread(threadId, { ...this.options.thread, ...(instructions === '' ? {} : { developerInstructions: instructions }) }, options.signal);
      this.rememberThread(opened.threadId, key);
      options.onContinuation?.(continuationOf(opened.threadId));
      const resuming = request.resume !== undefined && threadId !== undefined;
      const text = buildLocalPrompt(request, { includeInstructions: false, resumingSession: resuming });
      // No signal here: a turn/start codex received must be followed (and interrupted) to its end.
      const turn = await session.startTurn(text, options.onEvent);
      return await this.follow(call, key, session, turn, { restarted: acquired.restarted, threadResumed: opened.resumed });
    } catch (error) {
      if (!session.alive) return codexEngineGone(call, session, session.gone ?? describeError(error));
      if (options.signal?.aborted) {
        const timedOut = isTimeout(options.signal.reason);
        return codexFailed(call, timedOut ? 'timeout' : 'backend_execution_error', `${LABEL}: the turn was ${timedOut ? 'out of time' : 'cancelled'} before it started.`, true, { cancelled: !timedOut });
      }
      throw error;
    } finally {
      this.pool.release(key, session);
      hold();
    }
  }

  private async resumeApproval(call: CodexCall): Promise<ExecutionResult> {
    const { request } = call;
    const decisions = request.resume?.type === 'approval' ? request.resume.decisions : {};
    const incoming = incomingContinuationOf(request);
    const threadId = incoming?.kind === CODEX_APP_SERVER_CONTINUATION_KIND ? incoming.continuationId : undefined;
    const approvalKey = typeof incoming?.state?.['approvalKey'] === 'string' ? incoming.state['approvalKey'] : undefined;
    const key = threadId === undefined ? undefined : this.keyFor(request, threadId);
    const session = key === undefined ? undefined : this.pool.peek(key);
    const turn = session?.turn;
    const state = turn?.state();
    if (
      key === undefined ||
      session === undefined ||
      turn === undefined ||
      session.threadId !== threadId ||
      state?.kind !== 'awaiting_approval' ||
      approvalKey === undefined ||
      state.approval.approvalKey !== approvalKey ||
      !Object.hasOwn(decisions, approvalKey)
    ) {
      return codexFailed(
        call,
        'other',
        `${LABEL}: the live session that asked for this approval is gone (the codex process ended, was stopped when idle, or this is another process). Start a new turn; the thread can still be continued with its continuation.`,
        false,
        undefined,
        { reason: 'continuation_invalid' },
      );
    }
    const acquired = await this.acquire(call, key);
    if ('status' in acquired) return acquired;
    const hold = this.hold(key, call.options.signal);
    try {
      const decision: CodexApprovalDecision = decisions[approvalKey] === 'approved' ? this.options.approvedDecision : 'decline';
      turn.answer(approvalKey, decision);
      return await this.follow(call, key, acquired.session, turn, { restarted: false, threadResumed: false, decision });
    } finally {
      this.pool.release(key, acquired.session);
      hold();
    }
  }

  /** Follows a turn until it ends or pauses on an approval; interrupts it on cancel or timeout. */
  private async follow(
    call: CodexCall,
    key: string,
    session: CodexSession,
    turn: CodexTurn,
    facts: { restarted: boolean; threadResumed: boolean; decision?: CodexApprovalDecision },
  ): Promise<ExecutionResult> {
    const { options } = call;
    turn.listen(options.onEvent);
    const stopSteering = options.steer?.receive((message) => session.steer(turn, message.text));
    const timeoutMs = effectiveTimeout(this.options.timeoutMs, call.request.timeoutMs);
    let stopped: 'cancelled' | 'timeout' | undefined;
    let wakeStop!: () => void;
    const stop = new Promise<void>((resolve) => {
      wakeStop = resolve;
    });
    const timer = setTimeout(() => {
      stopped ??= 'timeout';
      wakeStop();
    }, timeoutMs);
    const onAbort = () => {
      stopped ??= isTimeout(options.signal?.reason) ? 'timeout' : 'cancelled';
      wakeStop();
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    let state: CodexTurnState = turn.state();
    try {
      for (;;) {
        while (state.kind === 'running' && stopped === undefined) {
          await Promise.race([turn.changed(), stop]);
          state = turn.state();
        }
        // The host's rules answer what they decide; the first request they leave open pauses the turn.
        if (stopped !== undefined || state.kind !== 'awaiting_approval' || !answeredByHost(call, turn, state.approval)) break;
        state = turn.state();
      }
      if (stopped !== undefined && state.kind !== 'completed') {
        await this.interrupt(key, session, turn);
        return codexResult(call, {
          status: 'failed',
          error:
            stopped === 'timeout'
              ? { code: 'timeout', message: `${LABEL} did not finish within ${timeoutMs} ms; the turn was interrupted.`, retryable: true }
              : { code: 'backend_execution_error', message: `${LABEL}: the turn was cancelled and interrupted.`, retryable: true },
          continuation: continuationOf(turn.threadId),
          metadata: { cancelled: stopped === 'cancelled', turnId: turn.turnId },
          turn,
        });
      }
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      stopSteering?.();
      turn.listen(undefined);
    }
    const metadata = {
      turnId: turn.turnId,
      ...(facts.restarted ? { engineRestarted: true } : {}),
      ...(facts.threadResumed ? { threadResumed: true } : {}),
      ...(facts.decision === undefined ? {} : { approvalDecision: facts.decision }),
    };
    return turnOutcome(call, session, turn, state, metadata);
  }

  private async interrupt(key: string, session: CodexSession, turn: CodexTurn): Promise<void> {
    const grace = new Promise<void>((resolve) => setTimeout(resolve, this.options.killGraceMs * 2));
    const ended = session.interrupt(turn).then(() => turnDone(turn), () => undefined);
    await Promise.race([ended, grace]);
    // A turn codex did not stop in time takes its process with it.
    if (!turn.finished) await this.pool.discard(key, session);
  }

  /**
   * Marks `key` as winding down once `signal` aborts, until the returned function is called
   * (after the session was released).
   */
  private hold(key: string, signal: AbortSignal | undefined): () => void {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const onAbort = () => this.windingDown.set(key, released);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    return () => {
      signal?.removeEventListener('abort', onAbort);
      if (this.windingDown.get(key) === released) this.windingDown.delete(key);
      release();
    };
  }

  private async acquire(call: CodexCall, key: string): Promise<{ session: CodexSession; restarted: boolean } | ExecutionResult> {
    await this.windingDown.get(key);
    try {
      const lease = await this.pool.acquire(key, () => this.spawnSession(call.options.signal));
      return { session: lease.session, restarted: lease.restarted };
    } catch (error) {
      if (error instanceof SessionPoolError) {
        return codexFailed(call, 'backend_execution_error', `${LABEL}: ${error.message}`, error.reason !== 'disposed', { reason: `session_${error.reason}` });
      }
      return codexFailed(call, 'backend_execution_error', `${LABEL} could not start: ${describeError(error)}`, false, {
        errorCode: 'HARNESS_ERR_BACKEND_UNAVAILABLE',
      });
    }
  }

  private async spawnSession(signal: AbortSignal | undefined): Promise<CodexSession> {
    const node = await loadNodeModules();
    const o = this.options;
    const env = buildEnvironment(node.process.env, o.inheritEnv, o.env, node.process.platform);
    return CodexSession.start(
      node,
      { command: o.command, args: o.args, cwd: o.cwd, env, maxLineBytes: o.maxLineBytes, maxStderrBytes: MAX_STDERR_BYTES, killGraceMs: o.killGraceMs, clientVersion: CLIENT_VERSION },
      signal,
    );
  }

  private keyFor(request: ExecutionRequest, threadId: string | undefined): string {
    if (request.sessionId !== undefined) return `session:${request.sessionId}`;
    if (threadId !== undefined) return this.threadKeys.get(threadId) ?? `thread:${threadId}`;
    return `turn:${crypto.randomUUID()}`;
  }

  private rememberThread(threadId: string, key: string): void {
    this.threadKeys.delete(threadId);
    this.threadKeys.set(threadId, key);
    if (this.threadKeys.size > MAX_REMEMBERED_THREADS) {
      const oldest = this.threadKeys.keys().next();
      if (oldest.done !== true) this.threadKeys.delete(oldest.value);
    }
  }

}

/**
 * Creates a {@link CodexAppServerAdapter}.
 * @throws HarnessConfigError when an option is invalid.
 *
 * @example
 * const backend = createCodexAppServerAdapter({ cwd: '/work/repo', sandbox: 'workspace-write' });
 * const harness = createHarness({ backend });
 * const first = await harness.runTurn(input);
 * if (first.outcome === 'awaiting_approval') {
 *   const [request] = first.metadata.approvalRequests;
 *   await harness.resumeTurn(first.continuation!, { type: 'approval', decisions: { [request.id]: 'approved' } });
 * }
 * await backend.dispose();
 */
export function createCodexAppServerAdapter(options: CodexAppServerAdapterOptions = {}): CodexAppServerAdapter {
  return new CodexAppServerAdapter(options);
}

function isTimeout(reason: unknown): boolean {
  if (typeof reason !== 'object' || reason === null) return false;
  const kind = reason as { reason?: unknown; name?: unknown };
  return kind.reason === 'timeout' || kind.name === 'TimeoutError';
}


/** Resolves once the turn has ended (not merely paused). */
async function turnDone(turn: CodexTurn): Promise<void> {
  while (!turn.finished) await turn.changed();
}