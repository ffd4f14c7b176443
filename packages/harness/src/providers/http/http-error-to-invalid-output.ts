import type { HarnessInvalidOutput } from '../../core/types/model.js';
import type { HarnessUsage } from '../../shared/types/usage.js';
import type { HarnessModelHttpError } from './harness-model-http-error.js';
import { httpFailureCode } from './http-failure-code.js';

/**
 * Maps a failed provider call to the harness's `invalid` output: a `provider_error` (the adapter has
 * already spent the step's retries, so the loop does not ask again) whose `retryable` says whether
 * running the turn later can help, with our `code` and the provider's `providerCode`. A cancelled
 * call is `transient` and not retryable (the harness has already stopped).
 */
export function httpErrorToInvalidOutput(
  error: HarnessModelHttpError,
  details: { usage?: HarnessUsage; metadata: Record<string, unknown> },
): HarnessInvalidOutput {
  const aborted = error.failure === 'aborted';
  return {
    type: 'invalid',
    kind: aborted ? 'transient' : 'provider_error',
    reason: error.message,
    code: httpFailureCode(error),
    retryable: !aborted && error.isRetryable,
    ...(error.providerCode === undefined ? {} : { providerCode: error.providerCode }),
    ...(error.statusCode === undefined ? {} : { httpStatus: error.statusCode }),
    ...(details.usage === undefined ? {} : { usage: details.usage }),
    metadata: { ...details.metadata, error: error.toJSON() },
  };
}
