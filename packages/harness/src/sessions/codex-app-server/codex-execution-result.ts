import { MAX_ANSWER_CHARS } from '../../execution/answer-cap.js';
import type {
  ExecutionContinuation,
  ExecutionError,
  ExecutionNegotiation,
  ExecutionOptions,
  ExecutionRequest,
  ExecutionResult,
  ExecutionTrace,
} from '../../execution/types.js';
import { LABEL } from './codex-app-server-options.js';
import type { CodexSession } from './codex-session.js';
import type { CodexTurn } from './codex-turn.js';

/** The backend id of {@link CodexAppServerAdapter}. */
export const CODEX_APP_SERVER_BACKEND_ID = 'codex-app-server';

/** The continuation kind of codex app-server threads. */
export const CODEX_APP_SERVER_CONTINUATION_KIND = 'codex-app-server.thread';

/** One `execute` call's bookkeeping. */
export interface CodexCall {
  request: ExecutionRequest;
  options: ExecutionOptions;
  startedAt: number;
  degradation: ExecutionNegotiation['reasons'];
  /** Permission requests the host's rules answered, as trace notes. */
  notes: string[];
}

/** What a codex turn's result is made of; the answer and usage are taken from `turn`. */
export interface CodexResultParts {
  status: ExecutionResult['status'];
  error?: ExecutionError;
  continuation?: ExecutionContinuation;
  approvalRequest?: ExecutionResult['approvalRequest'];
  metadata?: Record<string, unknown>;
  turn?: CodexTurn;
  traceEvent?: NonNullable<ExecutionTrace['events']>[number];
}

/** The continuation of a codex thread (with the paused turn's state when it awaits approval). */
export function continuationOf(threadId: string, state?: Record<string, unknown>): ExecutionContinuation {
  return { kind: CODEX_APP_SERVER_CONTINUATION_KIND, continuationId: threadId, ...(state === undefined ? {} : { state }) };
}

/** A failed result with `code` and `message`. */
export function codexFailed(
  call: CodexCall,
  code: ExecutionError['code'],
  message: string,
  retryable: boolean,
  metadata?: Record<string, unknown>,
  errorMetadata?: Record<string, unknown>,
): ExecutionResult {
  return codexResult(call, {
    status: 'failed',
    error: { code, message, retryable, ...(errorMetadata === undefined ? {} : { metadata: errorMetadata }) },
    ...(metadata === undefined ? {} : { metadata }),
  });
}

/** The result of a turn whose codex process ended: the thread's continuation and the stderr tail. */
export function codexEngineGone(call: CodexCall, session: CodexSession, message: string, turn?: CodexTurn): ExecutionResult {
  const stderr = session.stderrTail().trim();
  return codexResult(call, {
    status: 'failed',
    error: { code: 'backend_execution_error', message: `${LABEL} ended during the turn: ${message}`, retryable: true },
    ...(session.threadId === undefined ? {} : { continuation: continuationOf(session.threadId) }),
    metadata: { engineExited: true, ...(stderr === '' ? {} : { stderrTail: stderr.slice(-2_000) }) },
    ...(turn === undefined ? {} : { turn }),
  });
}

/** The execution result: the turn's answer and usage, the trace summary and events, and metadata. */
export function codexResult(call: CodexCall, parts: CodexResultParts): ExecutionResult {
  const finishedAt = Date.now();
  const answer = parts.turn?.takeAnswer();
  const text = answer?.text();
  const truncated = answer?.truncated === true;
  const usage = parts.turn?.takeUsage();
  const at = (time: number) => new Date(time).toISOString();
  const ok = parts.status !== 'failed' && parts.status !== 'unsupported';
  return {
    backendId: CODEX_APP_SERVER_BACKEND_ID,
    status: parts.status,
    ...(text === undefined || text === '' ? {} : { output: { text } }),
    ...(parts.continuation === undefined ? {} : { continuation: parts.continuation }),
    ...(parts.approvalRequest === undefined ? {} : { approvalRequest: parts.approvalRequest }),
    ...(parts.error === undefined ? {} : { error: parts.error }),
    ...(usage === undefined ? {} : { usage }),
    trace: {
      summary: { startedAt: at(call.startedAt), completedAt: at(finishedAt), stepCount: 1, degraded: call.degradation.length > 0 },
      events: [
        { type: 'model_started', at: at(call.startedAt) },
        ...call.notes.map((message) => ({ type: 'note' as const, at: at(finishedAt), data: { message } })),
        ...(parts.traceEvent === undefined ? [] : [{ ...parts.traceEvent, at: at(finishedAt) }]),
        ...(truncated ? [{ type: 'note' as const, at: at(finishedAt), data: { message: `The answer was cut at ${MAX_ANSWER_CHARS} characters.` } }] : []),
        ok
          ? { type: 'model_completed', at: at(finishedAt) }
          : { type: 'failure', at: at(finishedAt), data: { code: parts.error?.code ?? 'backend_execution_error' } },
      ],
    },
    ...(call.degradation.length === 0 ? {} : { degradation: call.degradation }),
    metadata: {
      ...parts.metadata,
      ...(truncated ? { answerTruncated: true } : {}),
      durationMs: finishedAt - call.startedAt,
      ...(parts.continuation === undefined ? {} : { continuation: parts.continuation }),
    },
  };
}
