import type { HarnessModelHttpError } from './harness-model-http-error.js';
import { classifyProviderError } from './provider-error-class.js';

/**
 * The result-level error code of a failed provider call: what a product shows or acts on
 * (`authentication_failed` needs a new key, `quota_exceeded` more credit, `rate_limited` a later
 * retry, `bad_request` a fix). An HTTP failure is classified by its status and the provider's code
 * (see `classifyProviderError`).
 */
export function httpFailureCode(error: Pick<HarnessModelHttpError, 'failure' | 'statusCode' | 'providerCode' | 'message'>): string {
  switch (error.failure) {
    case 'redirect':
      return 'provider_redirect';
    case 'response_too_large':
      return 'response_too_large';
    case 'timeout':
      return 'provider_timeout';
    case 'network':
      return 'network_error';
    case 'aborted':
      return 'cancelled';
    case 'http_status':
      return classifyProviderError({
        status: error.statusCode ?? 0,
        names: error.providerCode === undefined ? [] : [error.providerCode],
        message: error.message,
      }).code;
  }
}
