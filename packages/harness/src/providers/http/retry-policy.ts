/** What `onRetry` receives before each wait. */
export interface RetryEvent {
  /** The attempt that failed, 1-based. */
  attempt: number;
  /** How long the next wait is, in milliseconds. */
  delayMs: number;
  /**
   * Why the attempt failed: an HTTP status, a timeout, a network error, or an error the provider
   * reported inside a 200 response before anything was streamed (`provider_error`).
   */
  failure: 'http_status' | 'timeout' | 'network' | 'provider_error';
  /** The HTTP status of the failed attempt, when there was one. */
  statusCode?: number | undefined;
}

/** How a provider call retries. Every field is optional; see `DEFAULT_RETRY_OPTIONS`. */
export interface RetryOptions {
  /**
   * Extra attempts of one model step after the first: one budget for 408, 409, 425, 429 and 5xx
   * answers, timeouts, network errors, and errors the provider reports inside a 200 response before
   * anything was streamed. Quota, authentication, permission and invalid-request failures are never
   * retried, nor is anything the server marks `x-should-retry: false`. The harness loop does not
   * ask again after a failed provider call, so a step makes at most `maxRetries + 1` requests.
   * `0` disables retries.
   * @default 2
   */
  maxRetries?: number | undefined;
  /**
   * First backoff delay in milliseconds; doubles per retry, with jitter (half fixed, half random).
   * @default 500
   */
  initialDelayMs?: number | undefined;
  /**
   * Upper bound of a computed backoff delay, in milliseconds.
   * @default 8000
   */
  maxDelayMs?: number | undefined;
  /**
   * The longest server wait (`retry-after-ms`, or `Retry-After` in seconds or as an HTTP date) that
   * is waited for, in milliseconds. A longer one ends the step at once with a retryable failure
   * (the turn ends `failed` / `provider_error`, `result.error.retryable: true`).
   * @default 30000
   */
  maxRetryAfterMs?: number | undefined;
  /** Called before each wait; for logging. Faults in it are ignored. */
  onRetry?: ((event: RetryEvent) => void) | undefined;
}

/** Retry options with every default filled in. */
export type ResolvedRetryOptions = Required<Omit<RetryOptions, 'onRetry'>> & Pick<RetryOptions, 'onRetry'>;

/** Defaults of `RetryOptions`. */
export const DEFAULT_RETRY_OPTIONS: Readonly<Required<Omit<RetryOptions, 'onRetry'>>> = /* @__PURE__ */ Object.freeze({
  maxRetries: 2,
  initialDelayMs: 500,
  maxDelayMs: 8000,
  maxRetryAfterMs: 30_000,
});

/**
 * Reads `retry-after-ms` (milliseconds) or `Retry-After` (delta seconds or an HTTP date) and returns
 * the wait in milliseconds, or `undefined` when absent or unreadable. A past date gives `0`.
 */
export function parseRetryAfter(headers: Headers, now: number): number | undefined {
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null && /^\s*\d+(\.\d+)?\s*$/.test(milliseconds)) return Math.ceil(Number(milliseconds));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait before retry number `attempt` (1-based): the server's `Retry-After` when given,
 * otherwise exponential backoff `initialDelayMs · 2^(attempt-1)` capped at `maxDelayMs`, of
 * which half is fixed and half is random (`random` returns a number in [0, 1)).
 */
export function retryDelay(
  attempt: number,
  retryAfterMs: number | undefined,
  options: ResolvedRetryOptions,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  const exponential = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}
