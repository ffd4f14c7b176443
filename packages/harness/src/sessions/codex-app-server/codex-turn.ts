import type {
  ExecutionApprovalOption,
  ExecutionPlanEntry,
  ExecutionStreamEvent,
  ExecutionToolActivityKind,
} from '../../execution/types.js';
import { AnswerText } from '../../execution/answer-cap.js';
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

/** Where a turn stands when the host looks at it. */
export type CodexTurnState =
  | { kind: 'running' }
  | { kind: 'awaiting_approval'; approval: CodexPendingApproval }
  | { kind: 'completed' }
  | { kind: 'interrupted' }
  | { kind: 'failed'; message: string }
  | { kind: 'engine_gone'; message: string };

/** The options codex offers for every command / file change (it accepts all three). */
export const CODEX_APPROVAL_OPTIONS: readonly ExecutionApprovalOption[] = /* @__PURE__ */ Object.freeze([
  { optionId: 'accept', name: 'Allow', kind: 'allow_once' },
  { optionId: 'acceptForSession', name: 'Allow for this session', kind: 'allow_always' },
  { optionId: 'decline', name: 'Reject', kind: 'reject_once' },
]);

const MAX_QUEUED_APPROVALS = 32;

/**
 * One codex turn as it runs: collects the answer text, usage and tool activity from the
 * engine's notifications, reports them to the current listener, and queues the engine's
 * approval requests. A turn outlives one `execute` call when it pauses for approval: the next
 * call (the resume) attaches a new listener and continues where the last one stopped.
 */
export class CodexTurn {
  private answerText = new AnswerText();
  private currentMessageId: string | undefined;
  private usage: { inputTokens: number; outputTokens: number; cachedInputTokens: number; reasoningTokens: number; calls: number } = {
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    reasoningTokens: 0,
    calls: 0,
  };
  private readonly approvals: CodexPendingApproval[] = [];
  private ending: CodexTurnState | undefined;
  private lastError: string | undefined;
  private waiter: (() => void) | undefined;
  private listener: ((event: ExecutionStreamEvent) => void) | undefined;
  private approvalCounter = 0;

  constructor(
    readonly threadId: string,
    readonly turnId: string,
  ) {}

  /** True once codex reported the turn's end (or the engine went away). */
  get finished(): boolean {
    return this.ending !== undefined;
  }

  /** Sets who hears the progress events of this part of the turn. */
  listen(listener: ((event: ExecutionStreamEvent) => void) | undefined): void {
    this.listener = listener;
  }

  /** The answer text of this part of the turn (capped); resets it (a resumed call reports only what came after). */
  takeAnswer(): AnswerText {
    const answer = this.answerText;
    this.answerText = new AnswerText();
    return answer;
  }

  /** The usage of this part of the turn; resets it. */
  takeUsage(): HarnessUsage | undefined {
    const { calls, ...usage } = this.usage;
    this.usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0, calls: 0 };
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
    if (approval !== undefined) return { kind: 'awaiting_approval', approval };
    return this.ending ?? { kind: 'running' };
  }

  /** Resolves when `state()` may have changed. */
  changed(): Promise<void> {
    return new Promise((resolve) => {
      const previous = this.waiter;
      this.waiter = () => {
        previous?.();
        resolve();
      };
    });
  }

  /** True while the running turn has an approval request waiting for an answer. */
  get awaitingApproval(): boolean {
    return this.ending === undefined && this.approvals.length > 0;
  }

  /** Answers the first pending approval (the one `state()` showed). */
  answer(approvalKey: string, decision: CodexApprovalDecision): boolean {
    const approval = this.approvals[0];
    if (approval === undefined || approval.approvalKey !== approvalKey) return false;
    this.approvals.shift();
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
    if (this.ending !== undefined || this.approvals.length >= MAX_QUEUED_APPROVALS) return false;
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
    this.approvals.push(approval);
    this.emit({
      type: 'approval_requested',
      approvalKey: approval.approvalKey,
      title: approval.title,
      toolCallId: approval.itemId,
      kind: approval.kind === 'command' ? 'command' : 'edit',
      ...(approval.command === undefined ? {} : { command: approval.command }),
      options: CODEX_APPROVAL_OPTIONS.map((option) => ({ ...option })),
    });
    this.wake();
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
    if (this.currentMessageId !== undefined && this.currentMessageId !== itemId && this.answerText.length > 0) this.pushText('\n\n');
    this.currentMessageId = itemId;
    this.pushText(delta);
  }

  private pushText(text: string): void {
    const kept = this.answerText.append(text);
    if (kept !== '') this.emit({ type: 'text_delta', text: kept });
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

  private end(state: CodexTurnState): void {
    if (this.ending !== undefined) return;
    this.ending = state;
    this.wake();
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }

  private emit(event: ExecutionStreamEvent): void {
    try {
      this.listener?.(event);
    } catch {
      // A listener's failure is not the turn's.
    }
  }
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
