import { describeError } from '../../shared/describe-error.js';
import { outcomeForStopReason } from '../stop-reason.js';
import type { HarnessContinuation, HarnessContinuationState, HarnessContinuationType } from '../types/continuation.js';
import type { HarnessApprovalRequest } from '../types/approval.js';
import type { HarnessStopReason } from '../types/outcome.js';
import type { HarnessResult, HarnessResultMetadata } from '../types/result.js';
import type { HarnessToolCall, HarnessToolStateEntry } from '../../shared/types/tools.js';
import { resultError } from './result-error.js';
import { elapsedMs, executionState, toolStateEntries, type RunContext } from './run-context.js';
import { raceSignal } from './turn-signal.js';

/** What a paused run must carry into its continuation. */
export interface PauseDetails {
  question?: string;
  approvals?: HarnessApprovalRequest[];
  pendingCalls?: HarnessToolCall[];
}

/** How a run ends. */
export interface RunEnding {
  stopReason: HarnessStopReason;
  assistantText?: string;
  pause?: PauseDetails;
  metadata?: HarnessResultMetadata;
  /** Overrides the loop state sealed into the continuation (backend runs). */
  continuationState?: HarnessContinuationState;
  /** The structured answer the turn's `output` schema accepted (`answer_finalized` only). */
  output?: { value: unknown };
}

const limitStopReasons = new Set<HarnessStopReason>([
  'max_iterations_reached',
  'max_tool_calls_reached',
  'timeout_reached',
  'budget_reached',
  'redundant_tool_loop',
]);

const continuationTypes: Partial<Record<HarnessStopReason, HarnessContinuationType>> = {
  clarification_required: 'clarification',
  approval_required: 'approval',
};

/** Builds the result (sealing a continuation when the turn pauses), emits `turn_finished`, runs `onTurnFinished`. */
export async function finishRun(run: RunContext, ending: RunEnding): Promise<HarnessResult> {
  let { stopReason, metadata } = ending;
  if (limitStopReasons.has(stopReason)) run.trace.emit({ type: 'limit_reached', stopReason });
  let continuation: HarnessContinuation | undefined;
  const outcomeBefore = outcomeForStopReason(stopReason);
  if (outcomeBefore !== 'completed' && outcomeBefore !== 'failed') {
    try {
      const sealed = await run.services.codec.seal({
        type: continuationTypes[stopReason] ?? 'deferred',
        turnId: run.input.turnId,
        sessionId: run.input.sessionId,
        state: ending.continuationState ?? loopState(run, stopReason, ending.pause ?? {}),
      });
      if (sealed.ok) continuation = sealed.continuation;
      else {
        // Never an oversize or unreadable continuation: the turn fails instead, and nothing pending runs.
        stopReason = 'runtime_error';
        metadata = { error: { code: sealed.code, message: sealed.reason, source: 'continuation' } };
      }
    } catch (error) {
      stopReason = 'runtime_error';
      metadata = { error: { code: 'continuation_seal_failed', message: describeError(error), source: 'continuation' } };
    }
  }
  const extra = run.services.resultMetadata;
  // A fresh copy per result: one result's metadata changed by its reader never shows in another's.
  if (extra !== undefined) metadata = { ...structuredClone(extra), ...metadata };
  if (run.modelReceipts.length > 0) metadata = { ...metadata, modelReceipts: [...run.modelReceipts] };
  if (run.compactions.length > 0) metadata = { ...metadata, compaction: { receipts: [...run.compactions], history: [...(run.input.history ?? [])] } };
  if (run.steering !== undefined) {
    run.steering.finish();
    const steering = run.steering.counts();
    if (Object.keys(steering).length > 0) metadata = { ...metadata, steering };
  }
  const outcome = outcomeForStopReason(stopReason);
  const output = ending.output !== undefined && outcome === 'completed' && stopReason === ending.stopReason ? ending.output : undefined;
  // Built field by field in this order (optional ones only when set), not from spreads of literals.
  const result = { outcome, stopReason, turnId: run.input.turnId } as HarnessResult;
  if (run.input.sessionId !== undefined) result.sessionId = run.input.sessionId;
  if (ending.assistantText !== undefined && stopReason === ending.stopReason) result.assistantMessage = { text: ending.assistantText };
  if (output !== undefined) result.output = output.value;
  if (continuation !== undefined) result.continuation = continuation;
  result.traceSummary = {
    iterationCount: run.counters.iteration,
    toolCallCount: run.counters.toolCallCount,
    hadContinuation: run.resumedFrom !== undefined || continuation !== undefined,
    finalEventType: run.trace.lastEventType,
    traceSinkErrors: 0,
    elapsedMs: elapsedMs(run),
  };
  result.usage = { ...run.usage };
  result.transcript = [...run.transcript];
  if (outcome === 'failed') result.error = resultError(stopReason, metadata, ending.assistantText);
  if (metadata !== undefined) result.metadata = metadata;
  run.trace.emit({ type: 'turn_finished', outcome, stopReason });
  // One microtask, so a sink that rejects turn_finished at once is counted too (the sink is never awaited).
  await Promise.resolve();
  result.traceSummary.traceSinkErrors = run.trace.sinkErrors;
  const onTurnFinished = run.services.hooks.onTurnFinished;
  if (onTurnFinished !== undefined) {
    // Called even after a timeout, but never awaited past the turn's deadline; faults are ignored.
    let pending: Promise<void>;
    try {
      pending = Promise.resolve(onTurnFinished(result, executionState(run)));
    } catch {
      pending = Promise.resolve();
    }
    pending.catch(() => undefined);
    if (!run.turnSignal.signal.aborted) await raceSignal(() => pending, run.turnSignal.signal).catch(() => undefined);
  }
  // The last event before `result` (which the stream sends when this settles).
  if (output !== undefined) run.trace.stream({ type: 'output', output: output.value });
  return result;
}

function loopState(run: RunContext, stopReason: HarnessStopReason, pause: PauseDetails): HarnessContinuationState {
  const { turnId: _turnId, ...input } = run.input;
  return {
    mode: 'loop',
    stopReason,
    input,
    transcript: run.transcript,
    usage: { ...run.usage },
    ...(pause.question === undefined ? {} : { question: pause.question }),
    ...(pause.approvals === undefined ? {} : { approvals: pause.approvals }),
    ...(pause.pendingCalls === undefined || pause.pendingCalls.length === 0 ? {} : { pendingCalls: pause.pendingCalls }),
    ...(run.reportedUnknownTools === undefined ? {} : { reportedUnknownTools: [...run.reportedUnknownTools] }),
    ...toolStateField(toolStateEntries(run)),
    iteration: run.iterationOffset + run.counters.iteration,
  };
}

function toolStateField(entries: readonly HarnessToolStateEntry[]): { toolState?: HarnessToolStateEntry[] } {
  return entries.length === 0 ? {} : { toolState: [...entries] };
}
