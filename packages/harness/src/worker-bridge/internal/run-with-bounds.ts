import { detachValue } from '../../core/continuation/detach-value.js';
import { executionResultSchemas } from '../../execution/execution-result-schema.js';
import type { ExecutionRequest, ExecutionResult } from '../../execution/types.js';
import { describeError } from '../../shared/describe-error.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import type { CliRunInput, CliRunner } from '../cli-runner.js';
import { bridgeFailure, stoppedFailure, timeoutReason } from './worker-results.js';

/** One bounded run: its result, and when the runner itself settled (later, if it was abandoned). */
export interface BoundedRun {
  result: Promise<ExecutionResult>;
  settled: Promise<void>;
}

/**
 * Runs `request` with `runner` under `timeoutMs` and `controller`: aborts the run's signal on
 * timeout, and once the signal is aborted (timeout, cancel, shutdown) waits at most `stopGraceMs`
 * for the runner before giving a result without it. The result is always a valid `ExecutionResult`
 * of plain JSON data: a rejection, an invalid value, or one that is not bounded plain JSON (too
 * deep, circular, a BigInt, a throwing getter) from the runner becomes `failed`.
 */
export function runWithBounds(
  runner: CliRunner,
  input: { request: ExecutionRequest; prompt: string; timeoutMs: number; onEvent?: CliRunInput['onEvent'] },
  controller: AbortController,
  stopGraceMs: number,
): BoundedRun {
  const { signal } = controller;
  const fallbackId = `worker:${runner.id}`;
  const timer = setTimeout(() => controller.abort(timeoutReason(input.timeoutMs)), input.timeoutMs);
  let started: Promise<ExecutionResult>;
  try {
    started = Promise.resolve(runner.run({ ...input, signal }));
  } catch (error) {
    started = Promise.reject(error as Error);
  }
  const checked = started.then(
    (value) => checkResult(value, runner.id, fallbackId),
    (error: unknown) => bridgeFailure(fallbackId, 'backend_execution_error', `The ${runner.id} runner failed: ${describeError(error)}`, false),
  );
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const abandoned = new Promise<ExecutionResult>((resolve) => {
    onAbort = () => {
      graceTimer = setTimeout(() => resolve(stoppedFailure(fallbackId, runner.id, signal.reason)), stopGraceMs);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  const result = Promise.race([checked, abandoned]).finally(() => {
    clearTimeout(timer);
    if (graceTimer !== undefined) clearTimeout(graceTimer);
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  });
  return { result, settled: checked.then(() => undefined) };
}

function checkResult(value: unknown, runnerId: string, fallbackId: string): ExecutionResult {
  // A plain, bounded copy first, read once: what is sent is what was checked, and it encodes as JSON.
  const plain = detachValue(value);
  if (!plain.ok) return bridgeFailure(fallbackId, 'invalid_backend_output', `The ${runnerId} runner returned a result that cannot be sent: ${plain.reason}.`, false);
  const parsed = executionResultSchemas().executionResultSchema.safeParse(plain.value);
  if (parsed.success) return parsed.data as ExecutionResult;
  return bridgeFailure(fallbackId, 'invalid_backend_output', `The ${runnerId} runner returned an invalid result: ${formatIssues(parsed.error.issues)}.`, false);
}
