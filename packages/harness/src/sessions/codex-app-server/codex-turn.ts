import type {
  ExecutionApprovalOption,
  ExecutionPlanEntry,
  ExecutionToolActivityKind,
} from '../../execution/types.js';
import { SessionTurn } from '../driver/session-turn.js';
import type { HarnessUsage } from '../../shared/types/usage.js';
import { codexSchemas, type CodexApprovalDecision } from './codex-protocol.js';

/** An approval request codex is waiting on, as the host sees it. */
export interface CodexPendingApproval {
  /** The key the harness shows (`approvalRequest.approvalKey`) and expects back in the decisions. */
  approvalKey: string;
  kind: 'command' | 'fileChange';
  title: string;
  itemId: string;
  command?: string | undefined;
  cwd?: string | undefined;
  reason?: string | undefined;
  paths?: string[] | undefined;
  /** Answers codex; called once. */
  answer: (decision: CodexApprovalDecision) => void;
}

/** How a codex turn ends. */
export type CodexTurnEnd =
  | { kind: 'completed' }
  | { kind: 'interrupted' }
  | { kind: 'failed'; message: string }
  | { kind: 'engine_gone'; message: string };

/** Where a turn stands when the host looks at it. */
export type CodexTurnState = { kind: 'running' } | { kind: 'awaiting_approval'; approval: CodexPendingApproval } | CodexTurnEnd;

/** The options codex offers for every command / file change (it accepts all three). */
export const CODEX_APPROVAL_OPTIONS: readonly ExecutionApprovalOption[] = /* @__PURE__ */ Object.freeze([
  { optionId: 'accept', name: 'Allow', kind: 'allow_once' },
  { optionId: 'acceptForSession', name: 'Allow for this session', kind: 'allow_always' },
  { optionId: 'decline', name: 'Reject', kind: 'reject_once' },
]);

const MAX_QUEUED_APPROVALS = 32;

/**
 * One codex turn as it runs: maps the engine's notifications to stream events (the driver's
 * {@link SessionTurn} caps the answer), adds up usage, and queues the engine's approval
 * requests. It outlives an `execute` call that pauses for approval.
 */
export class CodexTurn extends SessionTurn<CodexPendingApproval, CodexTurnEnd> {
  /** What the result's metadata reports about how this part of the turn began. */
  facts: { restarted?: boolean; threadResumed?: boolean; decision?: CodexApprovalDecision } = {};
  private currentMessageId: string | undefined;
  private usage = emptyUsage();
  private last: CodexTurnEnd | undefined;
  private lastError: string | undefined;
  private approvalCounter = 0;

  /** The thread and turn ids are known once codex answered `turn/start` (`begin`). */
  constructor(
    public threadId = '',
    public turnId = '',
  ) {
    super();
  }

  /** Names the turn codex started. */
  begin(threadId: string, turnId: string): void {
    this.threadId = threadId;
    this.turnId = turnId;
  }

  /** The usage of this part of the turn; resets it. */
  takeUsage(): HarnessUsage | undefined {
    const { calls, ...usage } = this.usage;
    this.usage = emptyUsage();
    if (calls === 0) return undefined;
    return {
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      ...(usage.cachedInputTokens > 0 ? { cachedInputTokens: usage.cachedInputTokens } : {}),
      ...(usage.reasoningTokens > 0 ? { reasoningTokens: usage.reasoningTokens } : {}),
    };
  }

  /** The next state worth returning: an approval to ask, the turn's end, or the engine's death. */
  state(): CodexTurnState {
    const approval = this.approvals[0];
    if (approval !== undefined && this.last === undefined) return { kind: 'awaiting_approval', approval };
    return this.last ?? { kind: 'running' };
  }

  /** Answers the first pending approval (the one `state()` showed). */
  answer(approvalKey: string, decision: CodexApprovalDecision): boolean {
    const approval = this.approvals[0];
    if (approval === undefined || approval.approvalKey !== approvalKey) return false;
    this.take(approval);
    approval.answer(decision);
    return true;
  }

  /** Handles a notification for this turn. Returns false when it was not about this turn. */
  notify(method: string, params: unknown): boolean {
    const schemas = codexSchemas();
    switch (method) {
      case 'item/agentMessage/delta': {
        const parsed = schemas.agentDelta.safeParse(params);
        if (!parsed.success || !this.mine(parsed.data)) return false;
        this.appendText(parsed.data.itemId, parsed.data.delta);
        return true;
      }
      case 'item/started':
      case 'item/completed': {
        const parsed = schemas.itemEvent.safeParse(params);
        if (!parsed.success || !this.mine(parsed.data)) return false;
        this.onItem(method === 'item/started' ? 'started' : 'finished', parsed.data.item);
        return true;
      }
      case 'turn/plan/updated': {
        const parsed = schemas.plan.safeParse(params);
        if (!parsed.success || !this.mine(parsed.data)) return false;
        const entries: ExecutionPlanEntry[] = parsed.data.plan.map((step) => ({ content: step.step, status: planStatus(step.status) }));
        this.emit({ type: 'plan_update', entries });
        return true;
      }
      case 'thread/tokenUsage/updated': {
        const parsed = schemas.tokenUsage.safeParse(params);
        if (!parsed.success || !this.mine(parsed.data)) return false;
        const last = parsed.data.tokenUsage.last;
        this.usage.inputTokens += last.inputTokens;
        this.usage.outputTokens += last.outputTokens;
        this.usage.cachedInputTokens += last.cachedInputTokens ?? 0;
        this.usage.reasoningTokens += last.reasoningOutputTokens ?? 0;
        this.usage.calls += 1;
        return true;
      }
      case 'error': {
        const parsed = schemas.error.safeParse(params);
        if (!parsed.success || !this.mine(parsed.data)) return false;
        if (!parsed.data.willRetry) this.lastError = parsed.data.error.message;
        return true;
      }
      case 'turn/completed': {
        const parsed = schemas.turnCompleted.safeParse(params);
        if (!parsed.success || parsed.data.threadId !== this.threadId || parsed.data.turn.id !== this.turnId) return false;
        const { status, error } = parsed.data.turn;
        if (status === 'completed') this.end({ kind: 'completed' });
        else if (status === 'interrupted') this.end({ kind: 'interrupted' });
        else this.end({ kind: 'failed', message: error?.message ?? this.lastError ?? `the turn ended ${status}` });
        return true;
      }
      default:
        return false;
    }
  }

  /**
   * Queues an approval request codex sent for this turn. Returns false when it is not about this
   * turn or cannot be read (the caller then declines it).
   */
  request(method: string, params: unknown, answer: (decision: CodexApprovalDecision) => void): boolean {
    if (this.finished || this.approvals.length >= MAX_QUEUED_APPROVALS) return false;
    const schemas = codexSchemas();
    let approval: CodexPendingApproval;
    if (method === 'item/commandExecution/requestApproval') {
      const parsed = schemas.commandApproval.safeParse(params);
      if (!parsed.success || !this.mine(parsed.data)) return false;
      const { itemId, command, cwd, reason } = parsed.data;
      approval = {
        approvalKey: this.nextApprovalKey(),
        kind: 'command',
        title: command ? `Run ${command}` : 'Run a command',
        itemId,
        ...(command ? { command } : {}),
        ...(cwd ? { cwd } : {}),
        ...(reason ? { reason } : {}),
        answer,
      };
    } else if (method === 'item/fileChange/requestApproval') {
      const parsed = schemas.fileChangeApproval.safeParse(params);
      if (!parsed.success || !this.mine(parsed.data)) return false;
      const { itemId, reason, grantRoot } = parsed.data;
      approval = {
        approvalKey: this.nextApprovalKey(),
        kind: 'fileChange',
        title: grantRoot ? `Write files under ${grantRoot}` : 'Apply a file change',
        itemId,
        ...(reason ? { reason } : {}),
        answer,
      };
    } else {
      return false;
    }
    this.ask(approval);
    this.emit({
      type: 'approval_requested',
      approvalKey: approval.approvalKey,
      title: approval.title,
      toolCallId: approval.itemId,
      kind: approval.kind === 'command' ? 'command' : 'edit',
      ...(approval.command === undefined ? {} : { command: approval.command }),
      options: CODEX_APPROVAL_OPTIONS.map((option) => ({ ...option })),
    });
    return true;
  }

  /** The engine process ended or the connection broke: the turn cannot continue. */
  engineGone(message: string): void {
    for (const approval of this.approvals.splice(0)) approval.answer('cancel');
    this.end({ kind: 'engine_gone', message });
  }

  private nextApprovalKey(): string {
    this.approvalCounter += 1;
    return `codex:${this.turnId}:${this.approvalCounter}`;
  }

  private mine(params: { threadId: string; turnId: string }): boolean {
    return params.threadId === this.threadId && params.turnId === this.turnId;
  }

  private appendText(itemId: string, delta: string): void {
    if (delta === '') return;
    // Separate agent messages of one turn (commentary, then the answer) by a blank line.
    if (this.currentMessageId !== undefined && this.currentMessageId !== itemId && this.answerText.length > 0) this.emit({ type: 'text_delta', text: '\n\n' });
    this.currentMessageId = itemId;
    this.emit({ type: 'text_delta', text: delta });
  }

  private onItem(phase: 'started' | 'finished', item: { type: string; id: string; text?: string | undefined; command?: string | null | undefined; status?: string | undefined; tool?: string | null | undefined; changes?: { path: string }[] | undefined }): void {
    if (item.type === 'agentMessage') {
      // A message that arrived without deltas still belongs to the answer.
      if (phase === 'finished' && item.text !== undefined && item.text !== '' && this.currentMessageId !== item.id) this.appendText(item.id, item.text);
      return;
    }
    const activity = toolActivity(item);
    if (activity === undefined) return;
    this.emit({
      type: 'tool_activity',
      phase,
      toolCallId: item.id,
      ...activity,
      ...(phase === 'finished' ? { status: finishedStatus(item.status) } : {}),
    });
  }

  /** Records the end of the turn; the first end counts. */
  override end(ending: CodexTurnEnd): void {
    this.last ??= ending;
    super.end(ending);
  }
}

function emptyUsage() {
  return { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0, calls: 0 };
}

function toolActivity(item: { type: string; command?: string | null | undefined; tool?: string | null | undefined; changes?: { path: string }[] | undefined }):
  | { name: string; kind: ExecutionToolActivityKind; command?: string }
  | undefined {
  switch (item.type) {
    case 'commandExecution':
      return { name: 'commandExecution', kind: 'command', ...(item.command ? { command: item.command } : {}) };
    case 'fileChange':
      return { name: 'fileChange', kind: 'edit' };
    case 'mcpToolCall':
    case 'dynamicToolCall':
      return { name: item.tool ?? item.type, kind: 'other' };
    case 'webSearch':
      return { name: 'webSearch', kind: 'fetch' };
    default:
      return undefined;
  }
}

function finishedStatus(status: string | undefined): 'succeeded' | 'failed' | 'rejected' | 'cancelled' {
  if (status === 'completed') return 'succeeded';
  if (status === 'declined') return 'rejected';
  if (status === 'interrupted' || status === 'cancelled') return 'cancelled';
  return 'failed';
}

function planStatus(status: string): ExecutionPlanEntry['status'] {
  if (status === 'completed') return 'completed';
  if (status === 'inProgress' || status === 'in_progress') return 'in_progress';
  return 'pending';
}
