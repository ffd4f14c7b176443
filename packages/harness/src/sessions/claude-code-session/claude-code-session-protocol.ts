import type { ExecutionCapabilities, ExecutionContinuation } from '../../execution/types.js';
import { buildLocalPrompt } from '../../local/build-local-prompt.js';
import { loadNodeModules } from '../../process/load-node-modules.js';
import { spawnEngine } from '../../process/spawn-engine.js';
import { describeError } from '../../shared/describe-error.js';
import type {
  SessionApprovalAnswerer,
  SessionApprovalView,
  SessionCallContext,
  SessionDriverSettings,
  SessionPlacement,
  SessionProtocol,
  SessionStartContext,
} from '../driver/session-protocol.js';
import type { ResolvedClaudeCodeSessionOptions } from './claude-code-session-options.js';
import { CLAUDE_CODE_SESSION_IDENTITY, continuationOf, continuationProblem, type ClaudeSessionIdentity } from './claude-continuation.js';
import { ClaudeLiveSession, ClaudeTurn, type ClaudeEngineStarter, type ClaudeTurnEnd } from './claude-live-session.js';
import { describeRequest } from './claude-permission-request.js';
import { claudeOutcome, turnMetadata } from './claude-session-result.js';
import { spawnOptions } from './claude-spawn-options.js';
import type { ClaudePermissionRequest } from './read-claude-line.js';

/**
 * Claude Code's stream-json session on the session driver: a `claude -p --input-format
 * stream-json` process per Claude session (`--session-id`, or `--resume` when a continuation
 * names one), a `user` line per turn, `can_use_tool` control requests as approvals, the
 * `interrupt` control request to stop.
 */
export class ClaudeCodeSessionProtocol implements SessionProtocol<ClaudeLiveSession, ClaudePermissionRequest, ClaudeTurnEnd, ClaudeTurn> {
  readonly backendId: string;
  readonly label: string;
  readonly continuationKind: string;
  readonly settings: SessionDriverSettings;

  /** `engine` runs Claude some other way than the `claude` process (the Agent SDK), under its own identity. */
  constructor(
    private readonly options: ResolvedClaudeCodeSessionOptions,
    private readonly engine?: ClaudeEngine,
  ) {
    const identity = this.identity;
    this.backendId = identity.backendId;
    this.label = identity.label;
    this.continuationKind = identity.kind;
    this.settings = {
      timeoutMs: options.timeoutMs,
      cancelGraceMs: options.killGraceMs,
      maxLiveSessions: options.maxLiveSessions,
      idleTimeoutMs: options.idleTimeoutMs,
      pausedTurn: 'refuse',
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
      maxContextStrategy: 'large',
      streaming: true,
      steer: false,
      customProvider: true,
      agentProject: { instructions: true, permissionRules: true },
      notes: this.engine === undefined ? [
        'One live `claude` process per session (stream-json in and out), reused across turns.',
        'Permission requests (can_use_tool) become awaiting_approval and are answered in the live process.',
        'Uses Claude Code built-in tools (allowedTools / permissionMode), not the request tools.',
        'Continuation: the Claude session id; resumed with --resume when the live process is gone.',
      ] : [...this.engine.notes],
    };
  }

  /** The Claude session the continuation names (checked: no flag-like or overlong id), else a new one. */
  place({ incoming }: Omit<SessionCallContext, 'key'>): SessionPlacement | { problem: string } {
    const problem = continuationProblem(incoming, this.identity);
    if (problem !== undefined) return { problem };
    return { key: incoming?.continuationId ?? globalThis.crypto.randomUUID(), ephemeral: false };
  }

  async open(context: SessionCallContext): Promise<ClaudeLiveSession> {
    const resuming = context.incoming !== undefined;
    if (this.engine !== undefined) return new ClaudeLiveSession(await this.engine.starter(context, resuming), context.key);
    let node;
    try {
      node = await loadNodeModules();
    } catch (error) {
      throw new Error(`${this.label} needs Node.js child processes: ${describeError(error)}.`, { cause: error });
    }
    const spawn = spawnOptions(this.options, node, context.request, context.key, resuming);
    return new ClaudeLiveSession((onLine) => spawnEngine(node, { ...spawn, onLine }), context.key);
  }

  createTurn(): ClaudeTurn {
    return new ClaudeTurn();
  }

  startTurn(session: ClaudeLiveSession, turn: ClaudeTurn, context: SessionStartContext): Promise<void> {
    const resuming = context.incoming !== undefined;
    turn.engine = { reused: context.reused, restarted: context.restarted, resumedWithFlag: resuming && !context.reused };
    session.sendTurn(turn, buildLocalPrompt(context.request, { includeInstructions: false, resumingSession: resuming }));
    return Promise.resolve();
  }

  describeApproval(session: ClaudeLiveSession, turn: ClaudeTurn, request: ClaudePermissionRequest, context: SessionCallContext): SessionApprovalView {
    const { kind, command, title } = describeRequest(request);
    const options = [
      { optionId: 'allow_once', name: 'Allow', kind: 'allow_once' as const },
      ...(request.suggestions.length > 0 ? [{ optionId: 'allow_always', name: 'Allow for this session', kind: 'allow_always' as const }] : []),
      { optionId: 'deny', name: 'Reject', kind: 'reject_once' as const },
    ];
    const toolCall = request.toolUseId === undefined ? {} : { toolCallId: request.toolUseId };
    return {
      approvalKey: request.requestId,
      request: { title, toolName: request.toolName, kind, ...(command === undefined ? {} : { command }) },
      event: { type: 'approval_requested', approvalKey: request.requestId, title, ...toolCall, kind, ...(command === undefined ? {} : { command }), options },
      approvalRequest: {
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
      metadata: turnMetadata(session, turn, context.report),
    };
  }

  /** A person's approval may allow for the session (Claude's suggestions); the host's rules allow once; a cancelled turn's request is denied. */
  answerApproval(session: ClaudeLiveSession, turn: ClaudeTurn, request: ClaudePermissionRequest, decision: 'approved' | 'rejected', by: SessionApprovalAnswerer): boolean {
    if (by === 'person') {
      turn.decision = decision;
      turn.engine = { reused: true, restarted: false, resumedWithFlag: false };
    }
    if (decision === 'approved') return session.answer(request, { behavior: 'allow', always: by === 'person' && this.options.approvalScope === 'session' });
    return session.answer(request, { behavior: 'deny', message: by === 'cancel' ? 'The turn was cancelled.' : this.options.rejectionMessage });
  }

  cancel(session: ClaudeLiveSession): void {
    session.interrupt();
  }

  finish(session: ClaudeLiveSession, turn: ClaudeTurn, ending: ClaudeTurnEnd, context: SessionCallContext) {
    return claudeOutcome(session, turn, ending, context, this.options.command, this.identity);
  }

  continuation(session: ClaudeLiveSession, _turn: ClaudeTurn | undefined, context: SessionCallContext): ExecutionContinuation {
    return continuationOf(session.sessionId, context, undefined, this.identity);
  }

  private get identity(): ClaudeSessionIdentity {
    return this.engine?.identity ?? CLAUDE_CODE_SESSION_IDENTITY;
  }
}

/** Claude run another way than the `claude` process: its identity, its notes, and how a session's engine starts. */
export interface ClaudeEngine {
  identity: ClaudeSessionIdentity;
  notes: readonly string[];
  /** Prepares a session's engine (`resuming`: the continuation names a Claude session to resume); rejects with a sentence. */
  starter(context: SessionCallContext, resuming: boolean): Promise<ClaudeEngineStarter>;
}
