import { capAnswer } from '../../execution/answer-cap.js';
import type { ExecutionResult } from '../../execution/types.js';
import { tail } from '../../local/to-local-result.js';
import { parseClaudeCodeOutput } from '../../local/parse-claude-code-output.js';
import type { SessionCallContext } from '../driver/session-protocol.js';
import type { SessionTurnReport } from '../driver/session-turn-report.js';
import { continuationOf, type ClaudeSessionIdentity } from './claude-continuation.js';
import type { ClaudeLiveSession, ClaudeTurn, ClaudeTurnEnd } from './claude-live-session.js';

/**
 * The result of a turn that ended: Claude's `result` line read as the one-shot preset reads it
 * (answer capped), or the end of the process (`command` names the executable when it could not
 * start) with the end of its stderr.
 */
export function claudeOutcome(
  session: ClaudeLiveSession,
  turn: ClaudeTurn,
  ending: ClaudeTurnEnd,
  context: SessionCallContext,
  command: string,
  identity: ClaudeSessionIdentity,
): { result: ExecutionResult; engineGone: boolean } {
  const { report } = context;
  const { label, backendId } = identity;
  const facts = turnMetadata(session, turn, report);
  if (ending.kind === 'ended') {
    const exit = ending.exit;
    const how =
      exit.kind === 'spawn_failed'
        ? `could not start ${JSON.stringify(command)}: ${exit.message}`
        : exit.kind === 'line_too_long'
          ? `wrote a line longer than ${exit.maxLineBytes} bytes and was stopped`
          : `exited mid-turn (code ${String(exit.exitCode)}${exit.exitSignal === null ? '' : `, signal ${exit.exitSignal}`})`;
    const stderr = session.stderrTail().trim();
    const message = `${label} ${how}.${stderr === '' ? '' : ` stderr: ${tail(stderr, 1_000)}`}`;
    const continuation = continuationOf(session.sessionId, context, undefined, identity);
    const error = { code: 'backend_execution_error' as const, message, retryable: exit.kind !== 'spawn_failed' };
    return { result: report.result({ status: 'failed', error, continuation, metadata: { ...facts, continuation } }, 'failure'), engineGone: true };
  }
  const parsed = parseClaudeCodeOutput(JSON.stringify(ending.result), { backendId, continuation: continuationOf(session.sessionId, context, undefined, identity) });
  if (parsed === null) {
    const error = { code: 'invalid_backend_output' as const, message: `${label}: the turn's result line has the wrong shape.`, retryable: false };
    return { result: report.result({ status: 'failed', error, metadata: facts }, 'failure'), engineGone: !session.alive };
  }
  const totalCostUsd = parsed.continuation?.state?.['totalCostUsd'];
  const continuation = continuationOf(session.sessionId, context, typeof totalCostUsd === 'number' ? totalCostUsd : undefined, identity);
  const { status, structured, error, usage, metadata } = parsed;
  const answer = parsed.text === undefined ? undefined : capAnswer(parsed.text);
  const text = answer?.text;
  const result = report.result(
    {
      status: status ?? 'completed',
      ...(text === undefined && structured === undefined ? {} : { output: { ...(text === undefined ? {} : { text }), ...(structured === undefined ? {} : { structured }) } }),
      continuation,
      ...(error === undefined ? {} : { error }),
      ...(usage === undefined ? {} : { usage }),
      metadata: {
        ...metadata,
        ...facts,
        continuation,
        ...(turn.decision === undefined ? {} : { approvalDecision: turn.decision }),
        ...(answer?.truncated === true ? { answerTruncated: true } : {}),
      },
    },
    status === 'failed' ? 'failure' : 'model_completed',
  );
  return { result, engineGone: !session.alive };
}

/** Timing, how the process came to serve the turn, and the lines it could not read. */
export function turnMetadata(session: ClaudeLiveSession, turn: ClaudeTurn, report: SessionTurnReport): Record<string, unknown> {
  return {
    durationMs: report.elapsedMs(),
    ...(report.firstEventMs === undefined ? {} : { firstEventMs: report.firstEventMs }),
    ...(turn.engine === undefined ? {} : { engine: { ...turn.engine, ...(session.pid === undefined ? {} : { pid: session.pid }) } }),
    ...(session.invalidLines === 0 ? {} : { invalidLines: session.invalidLines }),
  };
}
