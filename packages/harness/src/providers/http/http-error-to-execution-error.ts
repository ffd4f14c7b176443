import type { ExecutionError } from '../../execution/types.js';
import type { HarnessModelHttpError } from './harness-model-http-error.js';
import { httpFailureCode } from './http-failure-code.js';

/**
 * Maps a failed provider call to an `ExecutionResult.error`: timeouts are `timeout` (retryable),
 * oversized bodies `invalid_backend_output`, everything else `backend_execution_error` with
 * `retryable` from the failure, and in `metadata` the HTTP status (`httpStatus`), our code
 * (`errorCode`, e.g. `quota_exceeded`) and the provider's (`providerCode`).
 */
export function httpErrorToExecutionError(error: HarnessModelHttpError): ExecutionError {
  const code =
    error.failure === 'timeout' ? 'timeout' : error.failure === 'response_too_large' ? 'invalid_backend_output' : 'backend_execution_error';
  return {
    code,
    message: error.message,
    retryable: error.isRetryable,
    metadata: {
      ...(error.statusCode === undefined ? {} : { httpStatus: error.statusCode }),
      errorCode: httpFailureCode(error),
      ...(error.providerCode === undefined ? {} : { providerCode: error.providerCode }),
      ...(error.responseBody === undefined ? {} : { responseBody: error.responseBody }),
      failure: error.failure,
    },
  };
}
