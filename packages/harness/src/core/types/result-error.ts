/**
 * Why a failed turn failed, in a form a product can act on. `code` is stable and specific: a
 * provider problem names its cause (`missing_api_key`, `authentication_failed`,
 * `permission_denied`, `payment_required`, `quota_exceeded`, `not_found`, `bad_request`,
 * `rate_limited`, `provider_unavailable`,
 * `provider_timeout`, `network_error`, `response_too_large`, `provider_redirect`,
 * `input_too_large`), a tool its own error code, a backend its `ExecutionError` code, and other
 * faults their stop reason or the codes in docs/errors.md. `source` says where it came from:
 * `model`, `tool:<name>`, `backend:<id>`, `continuation`, `runtime`, or the hook or phase that
 * threw (e.g. `hooks.onTurnStarted`). `retryable` is `true` only when running the same turn again
 * can help.
 */
export interface HarnessResultError {
  code: string;
  message: string;
  retryable: boolean;
  source: string;
  /**
   * The provider's own error code when a provider reported one (e.g. `insufficient_quota`,
   * `invalid_request_error`, `model_not_found`, `tool_use_failed`, `NOT_FOUND`), beside our `code`.
   */
  providerCode?: string;
}
