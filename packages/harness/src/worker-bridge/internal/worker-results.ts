import type { ExecutionError, ExecutionResult } from '../../execution/types.js';

/** A `failed` result the bridge writes itself (nothing ran, or the runner gave nothing usable). */
export function bridgeFailure(
  backendId: string,
  code: ExecutionError['code'],
  message: string,
  retryable: boolean,
  metadata?: Record<string, unknown>,
): ExecutionResult {
  const at = new Date().toISOString();
  return {
    backendId,
    status: 'failed',
    error: { code, message, retryable },
    trace: { summary: { startedAt: at, completedAt: at, stepCount: 0 }, events: [{ type: 'failure', at, data: { code } }] },
    ...(metadata === undefined ? {} : { metadata }),
  };
}

/** The failure reported when a run was stopped and its runner did not settle in time. */
export function stoppedFailure(backendId: string, runnerId: string, reason: unknown): ExecutionResult {
  return isTimeout(reason)
    ? bridgeFailure(backendId, 'timeout', `The ${runnerId} run did not finish in time and was stopped.`, true)
    : bridgeFailure(backendId, 'backend_execution_error', `The ${runnerId} run was stopped (${describeReason(reason)}).`, true, { cancelled: true });
}

/** True for the abort reason of a timeout. */
export function isTimeout(reason: unknown): boolean {
  return typeof reason === 'object' && reason !== null && (reason as { name?: unknown }).name === 'TimeoutError';
}

function describeReason(reason: unknown): string {
  try {
    return typeof reason === 'object' && reason !== null && typeof (reason as { message?: unknown }).message === 'string'
      ? String((reason as { message: string }).message).slice(0, 200)
      : 'cancelled';
  } catch {
    return 'cancelled';
  }
}

/** The abort reason of a run that exceeded `timeoutMs`. */
export const timeoutReason = (timeoutMs: number) => new DOMException(`The run exceeded ${timeoutMs} ms.`, 'TimeoutError');

/** The abort reason of a run the orchestrator cancelled or the bridge shut down. */
export const cancelReason = (why: string) => new DOMException(why, 'AbortError');
