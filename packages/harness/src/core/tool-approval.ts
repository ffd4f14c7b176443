import { commonSchemas } from '../shared/schemas/common-schemas.js';
import { formatIssues } from '../shared/schemas/format-issues.js';
import type { HarnessApprovalRequest } from './types/approval.js';
import type { HarnessToolCall, HarnessToolDefinition } from '../shared/types/tools.js';
import type { RunEnding } from './internal/finish-run.js';
import { callerIdentity, transcriptIteration, type RunContext } from './internal/run-context.js';
import { detachValue } from './continuation/detach-value.js';
import { raceSignal } from './internal/turn-signal.js';

/**
 * Approval decisions from a resume, keyed by call id. A `Map`, so an id such as `__proto__` or
 * `constructor` is never "already decided" by a name inherited from `Object.prototype`.
 */
export type ApprovalDecisions = ReadonlyMap<string, 'approved' | 'rejected'>;

export const noDecisions: ApprovalDecisions = new Map();

/** The decisions of a resume resolution, read from its own keys only. */
export function approvalDecisions(record: Readonly<Record<string, 'approved' | 'rejected'>>): ApprovalDecisions {
  const decisions = new Map<string, 'approved' | 'rejected'>();
  for (const [id, decision] of Object.entries(record)) {
    if (decision === 'approved' || decision === 'rejected') decisions.set(id, decision);
  }
  return decisions;
}

/** Fails closed: a rule that throws or answers anything but `false` requires approval. */
export function requiresApproval(tool: HarnessToolDefinition, call: HarnessToolCall): boolean {
  const rule = tool.requiresApproval;
  if (typeof rule !== 'function') return rule === true;
  try {
    return rule(call.input) !== false;
  } catch {
    return true;
  }
}

export async function pauseForApproval(
  run: RunContext,
  calls: HarnessToolCall[],
  needApproval: HarnessToolCall[],
): Promise<RunEnding> {
  const requests: HarnessApprovalRequest[] = [];
  for (const call of needApproval) {
    const request: HarnessApprovalRequest = {
      id: call.id,
      kind: 'tool_call',
      summary: approvalSummary(call),
      details: { toolName: call.name, input: call.input },
    };
    requests.push(await prepareApproval(run, request));
  }
  const iteration = transcriptIteration(run);
  for (const request of requests) run.transcript.push({ type: 'approval_request', iteration, request });
  run.trace.emit({ type: 'approval_requested', requests });
  return {
    stopReason: 'approval_required',
    pause: { approvals: requests, pendingCalls: calls },
    metadata: { approvalRequests: requests },
  };
}

/** The one-line summary of a tool call's approval request: the tool and its input, shortened. */
export function approvalSummary(call: HarnessToolCall): string {
  const input = JSON.stringify(call.input);
  return `Run ${call.name} with ${input.length > 160 ? `${input.slice(0, 160)}…` : input}`;
}

/**
 * Lets the approvals adapter register or enrich a request; its id is kept so decisions match.
 * What the adapter returns is checked and detached; an unusable value fails the turn.
 */
export async function prepareApproval(run: RunContext, request: HarnessApprovalRequest): Promise<HarnessApprovalRequest> {
  const approvals = run.services.approvals;
  if (approvals === undefined) return request;
  run.phase = 'approvals.prepareRequest';
  const prepared: unknown = await raceSignal(
    () => approvals.prepareRequest({ ...callerIdentity(run.input), allowedToolNames: run.input.allowedToolNames, request }),
    run.turnSignal.signal,
  );
  return mergePreparedRequest(request, prepared);
}

function mergePreparedRequest(request: HarnessApprovalRequest, prepared: unknown): HarnessApprovalRequest {
  if (prepared === undefined || prepared === null) return request;
  const copied = detachValue(prepared);
  if (!copied.ok) throw new Error(`approvals.prepareRequest returned an unusable request: ${copied.reason}.`);
  if (typeof copied.value !== 'object' || copied.value === null || Array.isArray(copied.value)) {
    throw new Error('approvals.prepareRequest returned an unusable request: it is not an object.');
  }
  const parsed = commonSchemas().approvalRequestSchema.safeParse({ ...request, ...copied.value, id: request.id });
  if (!parsed.success) {
    throw new Error(`approvals.prepareRequest returned an unusable request: ${formatIssues(parsed.error.issues)}.`);
  }
  return parsed.data as HarnessApprovalRequest;
}
