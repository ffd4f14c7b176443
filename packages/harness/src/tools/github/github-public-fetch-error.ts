import { HarnessError, type HarnessErrorOptions } from '../../core/errors/harness-error.js';
import { hasErrorMarker } from '../../core/errors/has-error-marker.js';

const marker = Symbol.for('agent-assistant.error.GitHubPublicFetchError');

/**
 * Why a GitHub request failed. These are also the `error.code` values the public GitHub tools
 * return to the model.
 * - `not_found` — 404 (or an empty repository); retryable, the model can try another path.
 * - `rate_limited` — 403/429 with an exhausted rate limit or `retry-after`; retryable, see `resetAt`.
 * - `forbidden` — 401/403 without rate-limit signs, or a tool that needs a token; not retryable.
 * - `transport` — network failure or a 5xx; retryable.
 * - `timeout` — the request ran past `timeoutMs`; retryable.
 * - `invalid_response` — malformed JSON, an unexpected shape, an oversized body, or a redirect or
 *   `download_url` outside the allowed hosts; not retryable.
 * - `invalid_request` — a bad owner/repo/path/ref, or GitHub rejected the query (400/422); retryable.
 * - `aborted` — the caller's signal fired; retryable.
 */
export type GitHubFetchErrorReason =
  | 'not_found'
  | 'rate_limited'
  | 'forbidden'
  | 'transport'
  | 'timeout'
  | 'invalid_response'
  | 'invalid_request'
  | 'aborted';

/** Options of a {@link GitHubPublicFetchError}. */
export interface GitHubPublicFetchErrorOptions extends HarnessErrorOptions {
  /** HTTP status, when a response arrived. @default undefined */
  status?: number;
  /** When the rate limit resets (ISO 8601), for `rate_limited`. @default undefined */
  resetAt?: string;
  /** Seconds to wait before retrying, for `rate_limited`. @default undefined */
  retryAfterSeconds?: number;
}

const RETRYABLE: Record<GitHubFetchErrorReason, boolean> = {
  not_found: true,
  rate_limited: true,
  forbidden: false,
  transport: true,
  timeout: true,
  invalid_response: false,
  invalid_request: true,
  aborted: true,
};

/** A failed request of `GitHubPublicFetcher`. Never contains the token. */
export class GitHubPublicFetchError extends HarnessError {
  /** What went wrong; becomes the tool result's `error.code`. */
  readonly reason: GitHubFetchErrorReason;
  /** Whether trying again (later) can succeed. */
  readonly retryable: boolean;
  /** HTTP status, when a response arrived. */
  readonly status: number | undefined;
  /** When the rate limit resets (ISO 8601). */
  readonly resetAt: string | undefined;
  /** Seconds to wait before retrying. */
  readonly retryAfterSeconds: number | undefined;
  constructor(reason: GitHubFetchErrorReason, message: string, options: GitHubPublicFetchErrorOptions = {}) {
    super('HARNESS_ERR_GITHUB_FETCH', message, options);
    Object.defineProperty(this, marker, { value: true });
    this.name = 'GitHubPublicFetchError';
    this.reason = reason;
    this.retryable = RETRYABLE[reason];
    this.status = options.status;
    this.resetAt = options.resetAt;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** True for any `GitHubPublicFetchError`, even one from another copy of this package. */
  static override isInstance(value: unknown): value is GitHubPublicFetchError {
    return hasErrorMarker(value, marker);
  }
}
