import type { HarnessInvalidOutput } from '../../core/types/model.js';
import type { HarnessUsage } from '../../shared/types/usage.js';
import type { HarnessModelHttpError } from './harness-model-http-error.js';
import { httpFailureCode } from './http-failure-code.js';

/**
 * Maps a failed provider call to the harness's `invalid` output, with `retryable` set truthfully:
 * retryable statuses (after the adapter's own retries), timeouts and network errors are
 * `transient` and retryable; other statuses (400, 401, 403, 404, …) and oversized bodies are a
 * non-retryable `provider_error`; a cancelled call is `transient` but not retryable.
 */
export function httpErrorToInvalidOutput(
  error: HarnessModelHttpError,
  details: { usage?: HarnessUsage; metadata: Record<string, unknown> },
): HarnessInvalidOutput {
  const transient = error.failure !== 'response_too_large' && (error.isRetryable || error.failure === 'aborted');
  return {
    type: 'invalid',
    kind: transient ? 'transient' : 'provider_error',
    reason: error.message,
    code: httpFailureCode(error),
    retryable: error.isRetryable,
    ...(error.statusCode === undefined ? {} : { httpStatus: error.statusCode }),
    ...(details.usage === undefined ? {} : { usage: details.usage }),
    metadata: { ...details.metadata, error: error.toJSON() },
  };
}
