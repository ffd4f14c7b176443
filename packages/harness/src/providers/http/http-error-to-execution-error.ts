import type { ExecutionError } from '../../execution/types.js';
import type { HarnessModelHttpError } from './harness-model-http-error.js';

/**
 * Maps a failed provider call to an `ExecutionResult.error`: timeouts are `timeout` (retryable),
 * oversized bodies `invalid_backend_output`, everything else `backend_execution_error` with
 * `retryable` from the failure and the HTTP status kept in `metadata.httpStatus`.
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
      ...(error.providerCode === undefined ? {} : { providerCode: error.providerCode }),
      ...(error.responseBody === undefined ? {} : { responseBody: error.responseBody }),
      failure: error.failure,
    },
  };
}
