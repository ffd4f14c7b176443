import { MAX_ANSWER_CHARS } from '../../execution/answer-cap.js';
import type { ExecutionContinuation, ExecutionResult } from '../../execution/types.js';
import type { SessionTurnReport } from '../driver/session-turn-report.js';
import { LABEL } from './codex-app-server-options.js';
import type { CodexSession } from './codex-session.js';
import type { CodexTurn, CodexTurnEnd } from './codex-turn.js';

/** The backend id of `CodexAppServerExecutionAdapter`. */
export const CODEX_APP_SERVER_BACKEND_ID = 'codex-app-server';

/** The continuation kind of codex app-server threads. */
export const CODEX_APP_SERVER_CONTINUATION_KIND = 'codex-app-server.thread';

/** The continuation of a codex thread. */
export function continuationOf(threadId: string | undefined): ExecutionContinuation {
  return { kind: CODEX_APP_SERVER_CONTINUATION_KIND, ...(threadId === undefined || threadId === '' ? {} : { continuationId: threadId }) };
}

/**
 * The result of a turn that ended — completed, interrupted, failed, or its process gone — with
 * the answer and usage of this `execute` call, and the turn's facts (id, restart, thread resume,
 * approval decision) in `metadata`.
 */
export function codexOutcome(report: SessionTurnReport, session: CodexSession, turn: CodexTurn, ending: CodexTurnEnd): { result: ExecutionResult; engineGone: boolean } {
  const continuation = continuationOf(turn.threadId);
  const answer = turn.answerText;
  if (answer.truncated) report.note(`The answer was cut at ${MAX_ANSWER_CHARS} characters.`);
  const usage = turn.takeUsage();
  const { restarted, threadResumed, decision } = turn.facts;
  const metadata = {
    turnId: turn.turnId,
    ...(restarted === true ? { engineRestarted: true } : {}),
    ...(threadResumed === true ? { threadResumed: true } : {}),
    ...(decision === undefined ? {} : { approvalDecision: decision }),
    ...(answer.truncated ? { answerTruncated: true } : {}),
    durationMs: report.elapsedMs(),
    continuation,
  };
  const common = { ...(answer.length === 0 ? {} : { output: { text: answer.text() } }), continuation, ...(usage === undefined ? {} : { usage }) };
  const failed = (message: string, retryable: boolean, extra: Record<string, unknown> = {}) =>
    report.result({ status: 'failed', ...common, error: { code: 'backend_execution_error', message, retryable }, metadata: { ...metadata, ...extra } }, 'failure');
  switch (ending.kind) {
    case 'completed':
      return { result: report.result({ status: 'completed', ...common, metadata }, 'model_completed'), engineGone: false };
    case 'interrupted':
      return { result: failed(`${LABEL}: the turn was interrupted.`, true), engineGone: false };
    case 'failed':
      return { result: failed(`Codex failed: ${ending.message}`, false), engineGone: false };
    case 'engine_gone': {
      const stderr = session.stderrTail().trim();
      return { result: failed(`${LABEL} ended during the turn: ${ending.message}`, true, { engineExited: true, ...(stderr === '' ? {} : { stderrTail: stderr.slice(-2_000) }) }), engineGone: true };
    }
  }
}
