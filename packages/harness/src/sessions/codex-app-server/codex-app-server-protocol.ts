import type { ExecutionCapabilities, ExecutionContinuation } from '../../execution/types.js';
import { buildLocalPrompt } from '../../local/build-local-prompt.js';
import { instructionsText } from '../../local/instructions-text.js';
import { buildEnvironment } from '../../process/build-environment.js';
import { loadNodeModules } from '../../process/load-node-modules.js';
import type {
  SessionApprovalAnswerer,
  SessionApprovalView,
  SessionCallContext,
  SessionDriverSettings,
  SessionPlacement,
  SessionProtocol,
  SessionStartContext,
} from '../driver/session-protocol.js';
import { LABEL, type ResolvedOptions } from './codex-app-server-options.js';
import { CODEX_APP_SERVER_BACKEND_ID, CODEX_APP_SERVER_CONTINUATION_KIND, codexOutcome, continuationOf } from './codex-execution-result.js';
import { CodexSession } from './codex-session.js';
import { CODEX_APPROVAL_OPTIONS, CodexTurn, type CodexPendingApproval, type CodexTurnEnd } from './codex-turn.js';

const MAX_REMEMBERED_THREADS = 1024;
const MAX_STDERR_BYTES = 65_536 /* 64 KiB */;
const CLIENT_VERSION = '1';

/**
 * codex app-server on the session driver: a `codex app-server` process per session (JSON-RPC over
 * stdio without the `jsonrpc` field), `thread/start` or `thread/resume`, one `turn/start` per
 * turn, `turn/steer`, `turn/interrupt`, and codex's command and file-change approval requests.
 */
export class CodexAppServerProtocol implements SessionProtocol<CodexSession, CodexPendingApproval, CodexTurnEnd, CodexTurn> {
  readonly backendId = CODEX_APP_SERVER_BACKEND_ID;
  readonly label = LABEL;
  readonly continuationKind = CODEX_APP_SERVER_CONTINUATION_KIND;
  readonly settings: SessionDriverSettings;
  /** Which pool key serves a thread, for turns that carry only the thread id. */
  private readonly threadKeys = new Map<string, string>();

  constructor(private readonly options: ResolvedOptions) {
    this.settings = {
      timeoutMs: options.timeoutMs,
      cancelGraceMs: options.killGraceMs * 2,
      maxLiveSessions: options.maxLiveSessions,
      idleTimeoutMs: options.idleTimeoutMs,
      pausedTurn: 'refuse',
    };
  }

  describeCapabilities(): ExecutionCapabilities {
    const policy = this.options.thread.approvalPolicy;
    return {
      toolUse: 'native-iterative',
      structuredToolCalls: false,
      continuationSupport: 'opaque-resume',
      approvalInterrupts: policy === 'never' ? 'none' : 'native',
      traceDepth: 'standard',
      attachments: false,
      history: false,
      maxContextStrategy: 'large',
      streaming: true,
      steer: true,
      agentProject: { instructions: true, permissionRules: policy !== 'never' },
      notes: [
        'Runs `codex app-server` (JSON-RPC over stdio), one live process per session, reused across turns.',
        `Approval policy "${policy}": codex asks before commands and file changes; the turn ends awaiting_approval and resumeTurn answers in the live session.`,
        'Uses Codex built-in tools under its sandbox, not the request tools.',
        'Continuation: the codex thread id; a new process resumes it with thread/resume. A pending approval does not survive the process.',
      ],
    };
  }

  /** `sessionId`, else the live session serving the continuation's thread, else a session for this turn. */
  place({ request, incoming }: Omit<SessionCallContext, 'key'>): SessionPlacement | { problem: string } {
    if (incoming?.kind !== undefined && incoming.kind !== CODEX_APP_SERVER_CONTINUATION_KIND) {
      return { problem: `${LABEL}: the continuation is a ${incoming.kind}, not a ${CODEX_APP_SERVER_CONTINUATION_KIND}.` };
    }
    const threadId = incoming?.continuationId;
    if (request.sessionId !== undefined) return { key: `session:${request.sessionId}`, ephemeral: false };
    if (threadId !== undefined) return { key: this.threadKeys.get(threadId) ?? `thread:${threadId}`, ephemeral: false };
    // Kept after the turn: a follow-up with the thread's continuation finds it by the thread id.
    return { key: `turn:${globalThis.crypto.randomUUID()}`, ephemeral: false };
  }

  async open(context: SessionCallContext): Promise<CodexSession> {
    const node = await loadNodeModules();
    const o = this.options;
    const env = buildEnvironment(node.process.env, o.inheritEnv, o.env, node.process.platform);
    const spawn = { command: o.command, args: o.args, cwd: o.cwd, env, maxLineBytes: o.maxLineBytes, maxStderrBytes: MAX_STDERR_BYTES, killGraceMs: o.killGraceMs, clientVersion: CLIENT_VERSION };
    try {
      return await CodexSession.start(node, spawn, context.signal);
    } catch (error) {
      throw new Error(`could not start: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  createTurn(): CodexTurn {
    return new CodexTurn();
  }

  /** Opens (or resumes) the thread with the request's instructions, then `turn/start`. */
  async startTurn(session: CodexSession, turn: CodexTurn, context: SessionStartContext): Promise<void> {
    const threadId = context.incoming?.continuationId;
    const instructions = instructionsText(context.request);
    const settings = { ...this.options.thread, ...(instructions === '' ? {} : { developerInstructions: instructions }) };
    const opened = await session.openThread(threadId, settings, context.signal);
    this.rememberThread(opened.threadId, context.key);
    turn.facts = { restarted: context.restarted, threadResumed: opened.resumed };
    const resuming = context.request.resume !== undefined && threadId !== undefined;
    // No signal: a turn/start codex received must be followed (and interrupted) to its end.
    await session.startTurn(turn, buildLocalPrompt(context.request, { includeInstructions: false, resumingSession: resuming }));
  }

  describeApproval(_session: CodexSession, _turn: CodexTurn, approval: CodexPendingApproval): SessionApprovalView {
    return {
      approvalKey: approval.approvalKey,
      request: {
        title: approval.title,
        toolName: approval.kind === 'command' ? 'commandExecution' : 'fileChange',
        kind: approval.kind === 'command' ? 'command' : 'edit',
        ...(approval.command === undefined ? {} : { command: approval.command }),
      },
      // The turn reported approval_requested when codex asked.
      approvalRequest: {
        reason: approval.reason === undefined ? approval.title : `${approval.title} (${approval.reason})`,
        metadata: {
          engine: 'codex',
          approvalKind: approval.kind,
          itemId: approval.itemId,
          ...(approval.command === undefined ? {} : { command: approval.command }),
          ...(approval.cwd === undefined ? {} : { cwd: approval.cwd }),
          ...(approval.reason === undefined ? {} : { reason: approval.reason }),
          options: CODEX_APPROVAL_OPTIONS.map((option) => ({ ...option })),
        },
      },
    };
  }

  /** A person's approval answers the `approvalScope` decision; the host's rules answer `accept`; a cancelled turn's requests `cancel`. */
  answerApproval(_session: CodexSession, turn: CodexTurn, approval: CodexPendingApproval, decision: 'approved' | 'rejected', by: SessionApprovalAnswerer): boolean {
    const answer = by === 'cancel' ? 'cancel' : decision === 'rejected' ? 'decline' : by === 'person' ? this.options.approvedDecision : 'accept';
    if (by === 'person') turn.facts = { decision: answer };
    approval.answer(answer);
    return true;
  }

  cancel(session: CodexSession, turn: CodexTurn): void {
    session.interrupt(turn).catch(() => undefined);
  }

  steer(session: CodexSession, turn: CodexTurn, text: string): Promise<void> {
    return session.steer(turn, text);
  }

  finish(session: CodexSession, turn: CodexTurn, ending: CodexTurnEnd, context: SessionCallContext) {
    return codexOutcome(context.report, session, turn, ending);
  }

  continuation(session: CodexSession, turn: CodexTurn | undefined): ExecutionContinuation {
    return continuationOf(turn !== undefined && turn.threadId !== '' ? turn.threadId : session.threadId);
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
