import { capAnswer } from '../../execution/answer-cap.js';
import type { ExecutionContinuation, ExecutionError, ExecutionResult, ExecutionTrace } from '../../execution/types.js';
import { tail } from '../../local/to-local-result.js';
import { parseClaudeCodeOutput } from '../../local/parse-claude-code-output.js';
import type { ClaudeTurnStop } from './claude-live-session.js';
import type { ResolvedClaudeCodeSessionOptions } from './claude-code-session-options.js';
import { describeRequest } from './claude-permission-request.js';
import { CLAUDE_CODE_SESSION_BACKEND_ID, CLAUDE_CODE_SESSION_KIND, emitTo, LABEL, type TurnContext } from './claude-turn-context.js';
import type { ClaudePermissionRequest } from './read-claude-line.js';

/** The result of a segment that stopped (`command` names the executable when it could not start). */
export function resultOf(
  turn: TurnContext,
  stop: ClaudeTurnStop,
  decision: 'approved' | 'rejected' | undefined,
  command: string,
  approvalScope: ResolvedClaudeCodeSessionOptions['approvalScope'],
): ExecutionResult {
  const session = turn.session!;
  switch (stop.kind) {
    case 'refused':
      return failure(turn, 'backend_execution_error', `${LABEL}: ${stop.reason}.`, true);
    case 'ended': {
      const exit = stop.exit;
      const how =
        exit.kind === 'spawn_failed'
          ? `could not start ${JSON.stringify(command)}: ${exit.message}`
          : exit.kind === 'line_too_long'
            ? `wrote a line longer than ${exit.maxLineBytes} bytes and was stopped`
            : `exited mid-turn (code ${String(exit.exitCode)}${exit.exitSignal === null ? '' : `, signal ${exit.exitSignal}`})`;
      const stderr = session.stderrTail().trim();
      return failure(turn, 'backend_execution_error', `${LABEL} ${how}.${stderr === '' ? '' : ` stderr: ${tail(stderr, 1_000)}`}`, exit.kind !== 'spawn_failed');
    }
    case 'permission':
      return awaitingApproval(turn, stop.request, approvalScope);
    case 'result': {
      const previous = continuationOf(turn, undefined, undefined);
      const parsed = parseClaudeCodeOutput(JSON.stringify(stop.result), { backendId: CLAUDE_CODE_SESSION_BACKEND_ID, continuation: previous });
      if (parsed === null) return failure(turn, 'invalid_backend_output', `${LABEL}: the turn's result line has the wrong shape.`, false);
      const totalCostUsd = parsed.continuation?.state?.['totalCostUsd'];
      const continuation = continuationOf(turn, undefined, typeof totalCostUsd === 'number' ? totalCostUsd : undefined);
      const { status, structured, error, usage, metadata } = parsed;
      const answer = parsed.text === undefined ? undefined : capAnswer(parsed.text);
      const text = answer?.text;
      return {
        backendId: CLAUDE_CODE_SESSION_BACKEND_ID,
        status: status ?? 'completed',
        ...(text === undefined && structured === undefined ? {} : { output: { ...(text === undefined ? {} : { text }), ...(structured === undefined ? {} : { structured }) } }),
        continuation,
        ...(error === undefined ? {} : { error }),
        ...(usage === undefined ? {} : { usage }),
        trace: turnTrace(turn, status === 'failed' ? 'failure' : 'model_completed'),
        metadata: {
          ...metadata,
          ...turnMetadata(turn),
          continuation,
          ...(decision === undefined ? {} : { approvalDecision: decision }),
          ...(answer?.truncated === true ? { answerTruncated: true } : {}),
        },
      };
    }
  }
}

/** The `awaiting_approval` result of a permission request, announced to the turn's listener first. */
export function awaitingApproval(turn: TurnContext, request: ClaudePermissionRequest, approvalScope: ResolvedClaudeCodeSessionOptions['approvalScope']): ExecutionResult {
  const { kind, command, title } = describeRequest(request);
  const options = [
    { optionId: 'allow_once', name: 'Allow', kind: 'allow_once' as const },
    ...(request.suggestions.length > 0 ? [{ optionId: 'allow_always', name: 'Allow for this session', kind: 'allow_always' as const }] : []),
    { optionId: 'deny', name: 'Reject', kind: 'reject_once' as const },
  ];
  emitTo(turn, {
    type: 'approval_requested',
    approvalKey: request.requestId,
    title,
    ...(request.toolUseId === undefined ? {} : { toolCallId: request.toolUseId }),
    kind,
    ...(command === undefined ? {} : { command }),
    options,
  });
  return {
    backendId: CLAUDE_CODE_SESSION_BACKEND_ID,
    status: 'awaiting_approval',
    approvalRequest: {
      approvalKey: request.requestId,
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
        approvalScope,
      },
    },
    continuation: continuationOf(turn, request.requestId, undefined),
    trace: turnTrace(turn, 'approval_wait'),
    metadata: turnMetadata(turn),
  };
}

/** The session's continuation: its id, cost so far, live instance and pending request. */
export function continuationOf(turn: TurnContext, pendingRequestId: string | undefined, totalCostUsd: number | undefined): ExecutionContinuation {
  const previousCost = turn.incoming?.state?.['totalCostUsd'];
  const cost = totalCostUsd ?? (typeof previousCost === 'number' && Number.isFinite(previousCost) ? previousCost : 0);
  return {
    kind: CLAUDE_CODE_SESSION_KIND,
    continuationId: turn.session?.sessionId ?? turn.key,
    state: {
      totalCostUsd: cost,
      ...(turn.session === undefined ? {} : { instanceId: turn.session.instanceId }),
      ...(pendingRequestId === undefined ? {} : { pendingRequestId }),
    },
  };
}

function turnMetadata(turn: TurnContext): Record<string, unknown> {
  return {
    durationMs: Date.now() - turn.startedAt,
    ...(turn.firstEventMs === undefined ? {} : { firstEventMs: turn.firstEventMs }),
    ...(turn.engine === undefined ? {} : { engine: { ...turn.engine, ...(turn.session?.pid === undefined ? {} : { pid: turn.session.pid }) } }),
    ...(turn.session === undefined || turn.session.invalidLines === 0 ? {} : { invalidLines: turn.session.invalidLines }),
  };
}

function turnTrace(turn: TurnContext, last: 'model_completed' | 'failure' | 'approval_wait', code?: string): ExecutionTrace {
  const at = (time: number) => new Date(time).toISOString();
  const now = Date.now();
  return {
    summary: { startedAt: at(turn.startedAt), completedAt: at(now), stepCount: 1 },
    events: [
      { type: 'model_started', at: at(turn.startedAt) },
      ...(turn.notes ?? []).map((message) => ({ type: 'note' as const, at: at(now), data: { message } })),
      { type: last, at: at(now), ...(code === undefined ? {} : { data: { code } }) },
    ],
  };
}

/** A failed result (with the session's continuation once the turn has a key). */
export function failure(turn: TurnContext, code: ExecutionError['code'], message: string, retryable: boolean, reason?: string): ExecutionResult {
  const continuation = turn.key === '' ? undefined : continuationOf(turn, undefined, undefined);
  return {
    backendId: CLAUDE_CODE_SESSION_BACKEND_ID,
    status: 'failed',
    error: { code, message, retryable, ...(reason === undefined ? {} : { metadata: { reason } }) },
    ...(continuation === undefined ? {} : { continuation }),
    trace: turnTrace(turn, 'failure', reason ?? code),
    metadata: { ...turnMetadata(turn), ...(continuation === undefined ? {} : { continuation }) },
  };
}
