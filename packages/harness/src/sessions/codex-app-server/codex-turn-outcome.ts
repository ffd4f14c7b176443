import type { ExecutionResult } from '../../execution/types.js';
import { LABEL } from './codex-app-server-options.js';
import type { CodexSession } from './codex-session.js';
import { CODEX_APPROVAL_OPTIONS, type CodexTurn, type CodexTurnState } from './codex-turn.js';
import { codexEngineGone, codexResult, continuationOf, type CodexCall } from './codex-execution-result.js';

/**
 * The result of a turn that ended or paused: an approval request, completed, interrupted, failed,
 * or its process gone. `metadata` is the turn's (its id, restart and resume facts).
 */
export function turnOutcome(
  call: CodexCall,
  session: CodexSession,
  turn: CodexTurn,
  state: CodexTurnState,
  metadata: Record<string, unknown>,
): ExecutionResult {
  switch (state.kind) {
    case 'awaiting_approval': {
      const approval = state.approval;
      return codexResult(call, {
        status: 'awaiting_approval',
        approvalRequest: {
          approvalKey: approval.approvalKey,
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
        continuation: continuationOf(turn.threadId, { turnId: turn.turnId, approvalKey: approval.approvalKey }),
        metadata,
        turn,
        traceEvent: { type: 'approval_wait', data: { approvalKey: approval.approvalKey, kind: approval.kind } },
      });
    }
    case 'completed':
      return codexResult(call, { status: 'completed', continuation: continuationOf(turn.threadId), metadata, turn });
    case 'interrupted':
      return codexResult(call, {
        status: 'failed',
        error: { code: 'backend_execution_error', message: `${LABEL}: the turn was interrupted.`, retryable: true },
        continuation: continuationOf(turn.threadId),
        metadata,
        turn,
      });
    case 'failed':
      return codexResult(call, {
        status: 'failed',
        error: { code: 'backend_execution_error', message: `Codex failed: ${state.message}`, retryable: false },
        continuation: continuationOf(turn.threadId),
        metadata,
        turn,
      });
    case 'engine_gone':
      return codexEngineGone(call, session, state.message, turn);
    case 'running':
      throw new Error('unreachable: the turn is still running');
  }
}
