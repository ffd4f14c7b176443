import type { HarnessResult } from '../core/types/result.js';
import type { ExecutionContinuation, ExecutionResult } from '../execution/types.js';
import { METADATA_CONTINUATION_KEY, pickContinuation as pick } from './incoming-continuation.js';

/**
 * The key of `HarnessTurnInput.metadata` under which a product passes a backend continuation
 * (for example a Claude Code session) into a *new* turn, so the CLI resumes that session.
 */
export const BACKEND_CONTINUATION_METADATA_KEY = METADATA_CONTINUATION_KEY;

/**
 * The backend continuation (e.g. `{ kind: 'claude-code.session', continuationId }`) a turn left
 * behind, from a harness result or a raw `ExecutionResult`: for completed turns it is in
 * `metadata.backendMetadata.continuation`, for paused ones inside the harness continuation.
 * Pass it as `metadata.backendContinuation` of the next turn's input to continue the session.
 *
 * @example
 * const first = await harness.runTurn(input);
 * const next = await harness.runTurn({
 *   ...input2,
 *   metadata: { backendContinuation: backendContinuationFrom(first) },
 * });
 */
export function backendContinuationFrom(result: HarnessResult | ExecutionResult): ExecutionContinuation | undefined {
  if ('backendId' in result) return result.continuation ?? pick(result.metadata?.['continuation']);
  const backendMetadata = result.metadata?.['backendMetadata'];
  const fromMetadata =
    typeof backendMetadata === 'object' && backendMetadata !== null
      ? pick((backendMetadata as Record<string, unknown>)['continuation'])
      : undefined;
  if (fromMetadata !== undefined) return fromMetadata;
  const state = result.continuation?.state;
  return state?.mode === 'backend' ? state.backendContinuation : undefined;
}

