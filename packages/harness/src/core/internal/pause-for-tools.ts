import { commonSchemas } from '../../shared/schemas/common-schemas.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import type { HarnessApprovalRequest } from '../types/approval.js';
import type { HarnessToolCall, HarnessToolPauseRequest } from '../../shared/types/tools.js';
import type { RunEnding } from './finish-run.js';
import { addUsage, transcriptIteration, type RunContext } from './run-context.js';
import { detachValue } from '../continuation/detach-value.js';
import type { ExecutedCall, PlannedCall } from './execute-tool-window.js';
import { recordWithoutHooks } from './record-tool-result.js';
import { prepareApproval } from '../tool-approval.js';

/**
 * Some calls of the window asked to pause the turn (`context.turn.pause`, e.g. a subagent that
 * needs approval). The other finished calls are recorded; the pausing calls (their usage counted,
 * their results not recorded) and every call not run yet are carried to the resume, pausing ones
 * first. The first pause's kind decides the ending; approval requests of all pausing calls are
 * asked together. A pausing call whose request is not answered by the resolution pauses again.
 */
export async function pauseForTools(
  run: RunContext,
  executed: ExecutedCall[],
  remaining: PlannedCall[],
  overBudget: HarnessToolCall[],
): Promise<RunEnding> {
  const pausing = executed.filter((entry) => entry.pause !== undefined);
  for (const entry of executed) {
    if (entry.pause === undefined) recordWithoutHooks(run, entry.result, entry.latencyMs);
    else {
      addUsage(run.usage, entry.result.usage, entry.latencyMs);
      // The call runs again, with the same id, on resume: it is counted in `usage.toolCalls` then, once.
      run.usage.toolCalls -= 1;
    }
  }
  for (const item of remaining) if (item.kind === 'immediate') recordWithoutHooks(run, item.result, 0);
  const pendingCalls = [
    ...pausing.map((entry) => entry.call),
    ...remaining.filter((item) => item.kind === 'run').map((item) => item.call),
    ...overBudget,
  ];
  const iteration = transcriptIteration(run);
  const first = pausing[0]!.pause!;
  if (first.type === 'clarification') {
    const asker = pausing[0]!.call;
    const { question, choices } = readToolQuestion(asker, first);
    const offered = choices === undefined ? {} : { choices };
    run.transcript.push({ type: 'clarification_request', iteration, question, callId: asker.id, ...offered });
    run.trace.emit({ type: 'clarification_requested', question });
    return {
      stopReason: 'clarification_required',
      assistantText: question,
      pause: { question, pendingCalls },
      metadata: { clarification: { callId: asker.id, toolName: asker.name, ...offered } },
    };
  }
  const requests: HarnessApprovalRequest[] = [];
  for (const entry of pausing) {
    if (entry.pause?.type !== 'approval') continue;
    for (const raw of entry.pause.requests) {
      const parsed = commonSchemas().approvalRequestSchema.safeParse(raw);
      if (!parsed.success) {
        throw new Error(`${entry.call.name} asked to pause for an unusable approval request: ${formatIssues(parsed.error.issues)}.`);
      }
      requests.push(await prepareApproval(run, detachApproval(parsed.data as HarnessApprovalRequest)));
    }
  }
  if (requests.length === 0 || new Set(requests.map((request) => request.id)).size !== requests.length) {
    throw new Error('A tool asked to pause for approval without requests, or with duplicate request ids.');
  }
  for (const request of requests) run.transcript.push({ type: 'approval_request', iteration, request });
  run.trace.emit({ type: 'approval_requested', requests });
  return {
    stopReason: 'approval_required',
    pause: { approvals: requests, pendingCalls },
    metadata: { approvalRequests: requests },
  };
}

const MAX_CHOICES = 20;
const MAX_CHOICE_CHARS = 500;

/**
 * The question (trimmed; a blank one gets a generic text) and choices (trimmed, blank ones
 * dropped) a tool paused for, read once as plain data. Choices that are not strings, or more
 * than the bounds allow, throw (the turn fails `runtime_error`).
 */
function readToolQuestion(call: HarnessToolCall, pause: HarnessToolPauseRequest): { question: string; choices?: string[] } {
  const copied = detachValue(pause);
  if (!copied.ok) throw new Error(`${call.name} asked to pause for an unusable question: ${copied.reason}.`);
  const fields = copied.value as { question?: unknown; choices?: unknown };
  const question = (typeof fields.question === 'string' ? fields.question.trim() : '') || 'The tool needs more information.';
  if (fields.choices === undefined) return { question };
  const raw = fields.choices;
  if (!Array.isArray(raw) || raw.length > MAX_CHOICES || raw.some((choice) => typeof choice !== 'string' || choice.length > MAX_CHOICE_CHARS)) {
    throw new Error(`${call.name} asked to pause with unusable choices: give at most ${String(MAX_CHOICES)} strings of at most ${String(MAX_CHOICE_CHARS)} characters.`);
  }
  const choices = (raw as string[]).map((choice) => choice.trim()).filter((choice) => choice !== '');
  return choices.length === 0 ? { question } : { question, choices };
}

function detachApproval(request: HarnessApprovalRequest): HarnessApprovalRequest {
  const copied = detachValue(request);
  if (!copied.ok) throw new Error(`A tool asked to pause for an unusable approval request: ${copied.reason}.`);
  return copied.value;
}
