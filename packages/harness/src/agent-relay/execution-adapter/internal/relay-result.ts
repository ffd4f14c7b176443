import { capAnswer } from '../../../execution/answer-cap.js';
import type {
  ExecutionError,
  ExecutionNegotiationReason,
  ExecutionResult,
  ExecutionTrace,
} from '../../../execution/types.js';
import type { IgnoredMessages, RelayWaitOutcome } from './await-relay-reply.js';
import type { RelayEventStats } from './forward-relay-events.js';
import { isRecord } from '../../../shared/is-record.js';

/** What every result of one `execute` shares. */
export interface RelayTurn {
  backendId: string;
  channelId: string;
  workerName: string;
  orchestratorName: string;
  startedAt: number;
  degradation: ExecutionNegotiationReason[];
  requestId?: string;
  threadId?: string;
  timeoutMs?: number;
  ignored?: IgnoredMessages;
  /** Set when the turn streamed: what came of the worker's event messages. */
  events?: RelayEventStats;
}

type TraceEvent = NonNullable<ExecutionTrace['events']>[number];

const iso = (time: number) => new Date(time).toISOString();

function relayMetadata(turn: RelayTurn, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    adapterBackendId: turn.backendId,
    channelId: turn.channelId,
    workerName: turn.workerName,
    orchestratorName: turn.orchestratorName,
    ...(turn.requestId === undefined ? {} : { requestId: turn.requestId }),
    ...(turn.threadId === undefined ? {} : { threadId: turn.threadId }),
    ...(turn.ignored === undefined || turn.ignored.total === 0
      ? {}
      : { ignoredMessages: { total: turn.ignored.total, ...turn.ignored.counts } }),
    ...(turn.events === undefined || turn.events.messages === 0 ? {} : { events: { ...turn.events } }),
    ...extra,
  };
}

function ignoredNotes(turn: RelayTurn): TraceEvent[] {
  return (turn.ignored?.noted ?? []).map((entry) => ({
    type: 'note',
    at: iso(entry.at),
    data: { ignoredRelayMessage: entry.reason, eventId: entry.id, from: entry.from },
  }));
}

/** A `failed` (or `unsupported`) result with the relay's metadata and a trace of the wait. */
export function relayFailure(
  turn: RelayTurn,
  finishedAt: number,
  error: ExecutionError,
  options: { status?: 'failed' | 'unsupported'; metadata?: Record<string, unknown>; degraded?: boolean } = {},
): ExecutionResult {
  const degradation = turn.degradation;
  return {
    backendId: turn.backendId,
    status: options.status ?? 'failed',
    error,
    trace: {
      summary: {
        startedAt: iso(turn.startedAt),
        completedAt: iso(finishedAt),
        stepCount: 1,
        degraded: options.degraded ?? degradation.length > 0,
      },
      events: [
        { type: 'model_started', at: iso(turn.startedAt) },
        ...ignoredNotes(turn),
        { type: 'failure', at: iso(finishedAt), data: { code: error.code } },
      ],
    },
    ...(degradation.length === 0 ? {} : { degradation }),
    metadata: { ...options.metadata, relay: relayMetadata(turn, { durationMs: finishedAt - turn.startedAt }) },
  };
}

/** The worker's result, finished: the adapter's backend id, relay metadata, degradation, a trace. */
export function relayReplyResult(turn: RelayTurn, reply: Extract<RelayWaitOutcome, { kind: 'reply' }>): ExecutionResult {
  const worker = reply.message.executionResult;
  const ok = worker.status !== 'failed' && worker.status !== 'unsupported';
  const events = Array.isArray(worker.trace?.events)
    ? [...worker.trace.events, ...ignoredNotes(turn)]
    : [
        { type: 'model_started' as const, at: iso(turn.startedAt) },
        ...ignoredNotes(turn),
        ok
          ? { type: 'model_completed' as const, at: iso(reply.at), data: { eventId: String(reply.inbound.id).slice(0, 120) } }
          : { type: 'failure' as const, at: iso(reply.at), data: { code: worker.error?.code ?? 'backend_execution_error' } },
      ];
  const degradation = [...(worker.degradation ?? []), ...turn.degradation];
  const answer = typeof worker.output?.text === 'string' ? capAnswer(worker.output.text) : undefined;
  const workerSummary: unknown = worker.trace?.summary;
  const summary = isRecord(workerSummary) ? (workerSummary as NonNullable<ExecutionTrace['summary']>) : {
    startedAt: iso(turn.startedAt),
    completedAt: iso(reply.at),
    stepCount: 1,
  };
  return {
    ...worker,
    ...(answer?.truncated === true ? { output: { ...worker.output, text: answer.text } } : {}),
    backendId: turn.backendId,
    trace: { summary: { ...summary, degraded: summary.degraded === true || turn.degradation.length > 0 }, events },
    ...(degradation.length === 0 ? {} : { degradation }),
    metadata: {
      ...worker.metadata,
      ...(answer?.truncated === true ? { answerTruncated: true } : {}),
      relay: relayMetadata(turn, {
        workerBackendId: worker.backendId,
        eventId: String(reply.inbound.id).slice(0, 120),
        shorthand: reply.message.shorthand,
        roundTripMs: reply.at - turn.startedAt,
      }),
    },
  };
}
