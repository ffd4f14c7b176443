import { HarnessError, type HarnessErrorOptions } from '../../core/errors/harness-error.js';
import { hasErrorMarker } from '../../core/errors/has-error-marker.js';

const marker = Symbol.for('agent-assistant.error.HarnessModelHttpError');

/**
 * What went wrong with a provider call:
 * - `http_status`: the server answered with a non-2xx status;
 * - `timeout`: the per-request timeout (`timeoutMs` or `streamIdleTimeoutMs`) fired;
 * - `network`: the connection failed or broke before a complete response;
 * - `aborted`: the caller's signal (the turn's signal) fired;
 * - `response_too_large`: a JSON body exceeded `maxResponseBytes`, or a stream `maxStreamBytes`;
 * - `redirect`: the server answered with a redirect (3xx), which model calls never follow.
 */
export type HarnessModelHttpFailure = 'http_status' | 'timeout' | 'network' | 'aborted' | 'response_too_large' | 'redirect';

/** Options of `HarnessModelHttpError`. */
export interface HarnessModelHttpErrorOptions extends HarnessErrorOptions {
  /** What went wrong. */
  failure: HarnessModelHttpFailure;
  /** The HTTP status, when the server answered. */
  statusCode?: number | undefined;
  /** An excerpt of the response body, already redacted and bounded (at most 2,048 characters). */
  responseBody?: string | undefined;
  /** Whether asking again later can help. */
  isRetryable: boolean;
  /** The provider's own error code or type (e.g. `rate_limit_error`), when it sent one. */
  providerCode?: string | undefined;
  /** The server's `Retry-After`, in milliseconds, when it sent one. */
  retryAfterMs?: number | undefined;
}

/**
 * A provider call failed at the transport level (code `HARNESS_ERR_MODEL_HTTP`). Model adapters
 * never throw it through the harness: they turn it into an `invalid` output (or a failed
 * `ExecutionResult`) and keep its JSON form (`toJSON()`) in `metadata.error`. It never carries the
 * API key: `message` and `responseBody` are redacted.
 */
export class HarnessModelHttpError extends HarnessError {
  /** What went wrong. */
  readonly failure: HarnessModelHttpFailure;
  /** The HTTP status, or `undefined` when no response arrived. */
  readonly statusCode: number | undefined;
  /** Redacted, bounded excerpt of the response body. */
  readonly responseBody: string | undefined;
  /**
   * Whether asking again later can help: 408, 409, 425, 429, 5xx, timeouts and network errors a
   * retry can fix — never a quota, payment, authentication, permission or invalid-request error
   * (by status or by the provider's code), nor a refused connection; `x-should-retry` is honoured.
   */
  readonly isRetryable: boolean;
  /** The provider's error code or type, when given. */
  readonly providerCode: string | undefined;
  /** The server's `Retry-After` in milliseconds, when given. */
  readonly retryAfterMs: number | undefined;
  constructor(message: string, options: HarnessModelHttpErrorOptions) {
    super('HARNESS_ERR_MODEL_HTTP', message, options);
    Object.defineProperty(this, marker, { value: true });
    this.name = 'HarnessModelHttpError';
    this.failure = options.failure;
    this.statusCode = options.statusCode;
    this.responseBody = options.responseBody;
    this.isRetryable = options.isRetryable;
    this.providerCode = options.providerCode;
    this.retryAfterMs = options.retryAfterMs;
  }

  /** A plain-JSON summary, safe to log and to keep in metadata. */
  toJSON(): Record<string, unknown> {
    return {
      code: this.code,
      failure: this.failure,
      message: this.message,
      isRetryable: this.isRetryable,
      ...(this.statusCode === undefined ? {} : { statusCode: this.statusCode }),
      ...(this.providerCode === undefined ? {} : { providerCode: this.providerCode }),
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
      ...(this.responseBody === undefined ? {} : { responseBody: this.responseBody }),
    };
  }

  /** True for any `HarnessModelHttpError`, even one from another copy of this package. */
  static override isInstance(value: unknown): value is HarnessModelHttpError {
    return hasErrorMarker(value, marker);
  }
}
