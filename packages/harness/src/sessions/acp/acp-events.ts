import type {
  ExecutionApprovalOption,
  ExecutionPlanEntry,
  ExecutionStreamEvent,
  ExecutionToolActivityKind,
} from '../../execution/types.js';
import { acpSchemas, type AcpPermissionParams, type AcpUsage } from './acp-wire.js';

const MAX_TRACKED_TOOLS = 1_000;

/** What a prompt turn has seen of the engine's `session/update` notifications. */
export interface AcpTurnProgress {
  /** Tool calls by id (bounded), for names and commands in later updates. */
  tools: Map<string, { name: string; kind: ExecutionToolActivityKind; command?: string | undefined; finished: boolean }>;
  /** Notifications that did not validate. */
  malformedUpdates: number;
  /**
   * Usage summed over the prompt's message chunks that carry `_meta.usage` (Qwen Code reports each
   * model call there, and none in the prompt result); `undefined` when none did.
   */
  chunkUsage: AcpUsage | undefined;
}

/** An empty progress record. */
export function newTurnProgress(): AcpTurnProgress {
  return { tools: new Map(), malformedUpdates: 0, chunkUsage: undefined };
}

/** The stream events one `session/update` notification stands for, recording it in `progress`. */
export function acpUpdateEvents(params: unknown, progress: AcpTurnProgress): ExecutionStreamEvent[] {
  const schemas = acpSchemas();
  const parsed = schemas.sessionUpdate.safeParse(params);
  if (!parsed.success) {
    progress.malformedUpdates += 1;
    return [];
  }
  const update = parsed.data.update;
  switch (update.sessionUpdate) {
    case 'agent_message_chunk': {
      const chunk = schemas.textChunk.safeParse(update);
      if (!chunk.success) {
        progress.malformedUpdates += 1;
        return [];
      }
      const usage = schemas.chunkUsage.safeParse(update);
      if (usage.success) progress.chunkUsage = addUsage(progress.chunkUsage, usage.data._meta.usage);
      // The turn caps the answer (SessionTurn.emit).
      const text = chunk.data.content.type === 'text' ? (chunk.data.content.text ?? '') : '';
      return text === '' ? [] : [{ type: 'text_delta', text }];
    }
    case 'tool_call':
    case 'tool_call_update':
      return toolEvents(update, update.sessionUpdate === 'tool_call', progress);
    case 'plan': {
      const plan = schemas.plan.safeParse(update);
      if (!plan.success) {
        progress.malformedUpdates += 1;
        return [];
      }
      const entries: ExecutionPlanEntry[] = plan.data.entries.map((entry) => ({
        content: entry.content,
        status: entry.status === 'completed' || entry.status === 'in_progress' ? entry.status : 'pending',
        ...(entry.priority === 'high' || entry.priority === 'medium' || entry.priority === 'low' ? { priority: entry.priority } : {}),
      }));
      return [{ type: 'plan_update', entries }];
    }
    default:
      // agent_thought_chunk, user_message_chunk, available_commands_update, current_mode_update,
      // usage_update, …: nothing a turn's stream reports.
      return [];
  }
}

function toolEvents(update: unknown, isNew: boolean, progress: AcpTurnProgress): ExecutionStreamEvent[] {
  const parsed = acpSchemas().toolCall.safeParse(update);
  if (!parsed.success) {
    progress.malformedUpdates += 1;
    return [];
  }
  const call = parsed.data;
  let known = progress.tools.get(call.toolCallId);
  const command = commandOf(call.rawInput) ?? known?.command;
  if (known === undefined) {
    if (progress.tools.size >= MAX_TRACKED_TOOLS) return [];
    known = { name: call.title ?? 'tool', kind: activityKind(call.kind), finished: false };
    progress.tools.set(call.toolCallId, known);
    isNew = true;
  } else if (call.kind !== undefined && call.kind !== null) known.kind = activityKind(call.kind);
  if (command !== undefined) known.command = command;
  const status = finishedStatus(call.status);
  const base = {
    type: 'tool_activity' as const,
    toolCallId: call.toolCallId,
    name: known.name,
    kind: known.kind,
    ...(known.command === undefined ? {} : { command: known.command }),
  };
  if (status !== undefined) {
    if (known.finished) return [];
    known.finished = true;
    return [{ ...base, phase: 'finished', status }];
  }
  return [{ ...base, phase: isNew ? 'started' : 'updated' }];
}

/** The `approval_requested` event of a permission request. */
export function approvalEvent(params: AcpPermissionParams, approvalKey: string, progress: AcpTurnProgress): ExecutionStreamEvent {
  const known = progress.tools.get(params.toolCall.toolCallId);
  const command = commandOf(params.toolCall.rawInput) ?? known?.command;
  const kind = params.toolCall.kind === undefined || params.toolCall.kind === null ? known?.kind : activityKind(params.toolCall.kind);
  return {
    type: 'approval_requested',
    approvalKey,
    title: permissionTitle(params, progress),
    toolCallId: params.toolCall.toolCallId,
    ...(kind === undefined ? {} : { kind }),
    ...(command === undefined ? {} : { command }),
    options: approvalOptions(params),
  };
}

/** The engine's options in the contract's shape. */
export function approvalOptions(params: AcpPermissionParams): ExecutionApprovalOption[] {
  return params.options.map((option) => ({ optionId: option.optionId, name: option.name, kind: optionKind(option.kind) }));
}

/** What the engine wants to do, in its words: the tool call's title, else its name. */
export function permissionTitle(params: AcpPermissionParams, progress: AcpTurnProgress): string {
  const title = params.toolCall.title ?? undefined;
  if (title !== undefined && title !== '') return title;
  return progress.tools.get(params.toolCall.toolCallId)?.name ?? 'a tool call';
}

function optionKind(kind: string): ExecutionApprovalOption['kind'] {
  return kind === 'allow_once' || kind === 'allow_always' || kind === 'reject_once' || kind === 'reject_always' ? kind : 'other';
}

function activityKind(kind: string | null | undefined): ExecutionToolActivityKind {
  switch (kind) {
    case 'execute':
      return 'command';
    case 'edit':
    case 'delete':
    case 'move':
      return 'edit';
    case 'read':
    case 'search':
    case 'fetch':
    case 'think':
      return kind;
    default:
      return 'other';
  }
}

function finishedStatus(status: string | null | undefined): 'succeeded' | 'failed' | undefined {
  if (status === 'completed') return 'succeeded';
  if (status === 'failed') return 'failed';
  return undefined;
}

function commandOf(rawInput: unknown): string | undefined {
  if (typeof rawInput !== 'object' || rawInput === null || Array.isArray(rawInput)) return undefined;
  const command = (rawInput as Record<string, unknown>)['command'];
  if (typeof command === 'string' && command !== '') return command.slice(0, 10_000);
  return undefined;
}

function addUsage(total: AcpUsage | undefined, more: AcpUsage): AcpUsage {
  const sum = (a: number | null | undefined, b: number | null | undefined): number | undefined => {
    const valid = (value: number | null | undefined) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);
    const [x, y] = [valid(a), valid(b)];
    return x === undefined ? y : y === undefined ? x : x + y;
  };
  return {
    inputTokens: sum(total?.inputTokens, more.inputTokens),
    outputTokens: sum(total?.outputTokens, more.outputTokens),
    cachedReadTokens: sum(total?.cachedReadTokens, more.cachedReadTokens),
    thoughtTokens: sum(total?.thoughtTokens, more.thoughtTokens),
  };
}
