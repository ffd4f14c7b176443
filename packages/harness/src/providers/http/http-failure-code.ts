import type { HarnessModelHttpError } from './harness-model-http-error.js';

const statusCodes = new Map<number, string>([
  [400, 'bad_request'],
  [401, 'authentication_failed'],
  [402, 'payment_required'],
  [403, 'permission_denied'],
  [404, 'not_found'],
  [408, 'provider_timeout'],
  [413, 'request_too_large'],
  [422, 'bad_request'],
  [429, 'rate_limited'],
]);

/**
 * The result-level error code of a failed provider call: what a product shows or acts on
 * (`authentication_failed` needs a new key, `rate_limited` a later retry, `bad_request` a fix).
 */
export function httpFailureCode(error: Pick<HarnessModelHttpError, 'failure' | 'statusCode'>): string {
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
    case 'http_status': {
      const status = error.statusCode ?? 0;
      return statusCodes.get(status) ?? (status >= 500 ? 'provider_unavailable' : 'provider_http_error');
    }
  }
}
