import type { ExecutionContinuation, ExecutionRequest } from '../execution/types.js';

/** The key of `metadata` under which a new turn receives a backend continuation. */
export const METADATA_CONTINUATION_KEY = 'backendContinuation';

/** True for a plain object shaped like an `ExecutionContinuation`. */
export function isExecutionContinuation(value: unknown): value is ExecutionContinuation {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const candidate = value as Record<string, unknown>;
  const optionalString = (key: string) => candidate[key] === undefined || typeof candidate[key] === 'string';
  const optionalRecord = (key: string) =>
    candidate[key] === undefined || (typeof candidate[key] === 'object' && candidate[key] !== null && !Array.isArray(candidate[key]));
  return optionalString('kind') && optionalString('continuationId') && optionalRecord('state') && optionalRecord('metadata');
}

/** `value` when it is shaped like an `ExecutionContinuation`, else `undefined`. */
export function pickContinuation(value: unknown): ExecutionContinuation | undefined {
  return isExecutionContinuation(value) ? value : undefined;
}

/** The continuation a request carries: `request.continuation`, else the one in its metadata. */
export function incomingContinuationOf(request: ExecutionRequest): ExecutionContinuation | undefined {
  return request.continuation ?? pickContinuation(request.metadata?.[METADATA_CONTINUATION_KEY]);
}
