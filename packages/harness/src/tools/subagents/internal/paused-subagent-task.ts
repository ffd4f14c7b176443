import type { HarnessContinuation, HarnessResumeResolution } from '../../../core/types/continuation.js';
import type { HarnessToolCall, HarnessToolExecutionContext, HarnessToolResult, HarnessToolResumeResolution } from '../../../shared/types/tools.js';
import type { HarnessAggregateUsage } from '../../../shared/types/usage.js';
import { errorResult } from './subagent-results.js';

/** Where a paused delegation is kept in the parent's tool state (the task call id follows). */
export const STATE_PREFIX = 'subagents.paused.';

/** What a paused delegation keeps in the parent's tool state. */
export interface PausedTask {
  subagent: string;
  continuation: HarnessContinuation;
  /** The child's usage already reported to the parent. */
  usage: HarnessAggregateUsage;
  /** The child's own approval request ids (the parent sees them prefixed with the call id). */
  requestIds: string[];
}

/** Pauses the parent turn with the child's requests (ids prefixed `<task call id>/`) or question. */
export function pauseParent(call: HarnessToolCall, paused: PausedTask, turn: NonNullable<HarnessToolExecutionContext['turn']>): void {
  const state = paused.continuation.state;
  if (paused.continuation.type === 'approval') {
    turn.pause({
      type: 'approval',
      requests: (state.approvals ?? []).map((request) => ({
        ...request,
        id: `${call.id}/${request.id}`,
        summary: `[${paused.subagent}] ${request.summary}`,
        metadata: { ...request.metadata, subagent: paused.subagent, subagentRequestId: request.id, taskCallId: call.id },
      })),
    });
  } else {
    turn.pause({ type: 'clarification', question: state.question ?? `Subagent ${paused.subagent} needs more information.` });
  }
}

/** The parent's resume did not answer the child: pause the parent again, the child untouched. */
export function pauseAgain(call: HarnessToolCall, paused: PausedTask, turn: HarnessToolExecutionContext['turn']): HarnessToolResult {
  if (turn === undefined) {
    return errorResult(call, { code: 'subagent_pause_unsupported', message: 'This turn cannot resume a paused subagent.', retryable: false });
  }
  pauseParent(call, paused, turn);
  return { callId: call.id, toolName: call.name, status: 'success', output: `Subagent ${paused.subagent} is still paused.` };
}

/** The child's resolution from the parent's, or `undefined` when the parent's does not answer it. */
export function childResolution(paused: PausedTask, callId: string, resolution: HarnessToolResumeResolution | undefined): HarnessResumeResolution | undefined {
  if (resolution === undefined) return undefined;
  if (paused.continuation.type === 'clarification' && resolution.type === 'clarification') return { type: 'clarification', answer: resolution.answer };
  if (paused.continuation.type !== 'approval' || resolution.type !== 'approval') return undefined;
  const decisions: Record<string, 'approved' | 'rejected'> = Object.create(null) as Record<string, 'approved' | 'rejected'>;
  for (const id of paused.requestIds) {
    const decision = Object.hasOwn(resolution.decisions, `${callId}/${id}`) ? resolution.decisions[`${callId}/${id}`] : undefined;
    if (decision !== 'approved' && decision !== 'rejected') return undefined;
    decisions[id] = decision;
  }
  return { type: 'approval', decisions };
}

/** A stored paused task, read defensively (it comes back from a continuation). */
export function readPaused(value: unknown, subagent: string): PausedTask | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const paused = value as PausedTask;
  if (paused.subagent !== subagent || typeof paused.continuation !== 'object' || paused.continuation === null) return undefined;
  if (!Array.isArray(paused.requestIds) || typeof paused.usage !== 'object' || paused.usage === null) return undefined;
  return paused;
}
