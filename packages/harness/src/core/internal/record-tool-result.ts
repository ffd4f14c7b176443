import type { HarnessToolCall, HarnessToolResult } from '../../shared/types/tools.js';
import type { RunEnding } from './finish-run.js';
import { addUsage, transcriptIteration, type RunContext } from './run-context.js';
import { isTurnInterrupted } from './turn-signal.js';
import { applyHooks } from './apply-tool-result-hooks.js';

/** After the turn was interrupted: record what finished, and stop. */
export function recordInterrupted(
  run: RunContext,
  result: HarnessToolResult,
  latencyMs: number,
  reason: 'timeout' | 'cancelled',
): RunEnding {
  recordWithoutHooks(run, result, latencyMs);
  return { stopReason: reason === 'timeout' ? 'timeout_reached' : 'cancelled' };
}

/** Records a result (usage, transcript, trace, stream) without running the result hooks. */
export function recordWithoutHooks(run: RunContext, result: HarnessToolResult, latencyMs: number): void {
  addUsage(run.usage, result.usage, latencyMs);
  run.transcript.push({ type: 'tool_result', iteration: transcriptIteration(run), result });
  run.trace.emit({ type: result.status === 'error' ? 'tool_failed' : 'tool_finished', result, latencyMs });
  if (run.streaming) run.trace.stream({ type: 'tool_finished', iteration: transcriptIteration(run), result });
}

/**
 * Records a result, then runs the result hooks; an interrupt during a hook ends the run. Settles
 * at once (no promise) when there is no hook to run.
 */
export function recordResult(
  run: RunContext,
  call: HarnessToolCall,
  result: HarnessToolResult,
  latencyMs: number,
): RunEnding | undefined | Promise<RunEnding | undefined> {
  recordWithoutHooks(run, result, latencyMs);
  const ending = applyHooks(run, call, result);
  if (!(ending instanceof Promise)) return ending;
  return ending.catch((error: unknown) => {
    if (isTurnInterrupted(error)) {
      return { stopReason: error.reason === 'timeout' ? 'timeout_reached' : 'cancelled' } satisfies RunEnding;
    }
    throw error;
  });
}
