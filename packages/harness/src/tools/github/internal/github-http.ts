import {
  GitHubPublicFetchError,
  type GitHubFetchErrorReason,
  type GitHubPublicFetchErrorOptions,
} from '../github-public-fetch-error.js';
import type { GitHubFetchFunction } from '../github-types.js';
import { concatBytes } from './bytes.js';

/** Resolved settings of the HTTP layer. */
export interface GitHubHttpSettings {
  fetch: GitHubFetchFunction | undefined;
  token: string | undefined;
  apiBase: URL;
  rawBase: URL;
  timeoutMs: number;
  userAgent: string;
  now: () => number;
}

/** Per-request options. */
export interface GitHubRequestInit {
  accept: string;
  maxBytes: number;
  signal: AbortSignal | undefined;
}

/** A body read up to a byte cap. */
export interface CappedBody {
  bytes: Uint8Array;
  truncated: boolean;
}

const MAX_REDIRECTS = 3;
const ERROR_BODY_BYTES = 4096;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Sends GET requests to the configured API and raw hosts only, with a timeout, the caller's
 * signal, manual redirects (checked against the same allow-list) and bounded body reads.
 */
export class GitHubHttp {
  readonly #settings: GitHubHttpSettings;

  constructor(settings: GitHubHttpSettings) {
    this.#settings = settings;
  }

  /** `'api'` or `'raw'` when `url` lies under a configured base URL; else `undefined`. */
  hostKind(url: URL): 'api' | 'raw' | undefined {
    const under = (base: URL) =>
      url.origin === base.origin &&
      (base.pathname === '/' || url.pathname === base.pathname || url.pathname.startsWith(`${base.pathname}/`));
    if (url.username !== '' || url.password !== '') return undefined;
    if (under(this.#settings.apiBase)) return 'api';
    if (under(this.#settings.rawBase)) return 'raw';
    return undefined;
  }

  /** An API URL: the base URL plus `path` (already encoded) and query parameters. */
  apiUrl(path: string, query: Record<string, string | undefined> = {}): string {
    const base = this.#settings.apiBase.href.replace(/\/$/, '');
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, value);
    const search = params.toString();
    return `${base}${path}${search === '' ? '' : `?${search}`}`;
  }

  /** GETs JSON, refusing bodies over `maxBytes`. */
  async getJson(url: string, init: GitHubRequestInit): Promise<unknown> {
    return this.#request(url, init, async (response, label) => {
      const body = await readCapped(response, init.maxBytes);
      if (body.truncated) throw this.fail('invalid_response', `${label} returned more than ${init.maxBytes} bytes of JSON.`);
      try {
        return JSON.parse(new TextDecoder().decode(body.bytes)) as unknown;
      } catch {
        throw this.fail('invalid_response', `${label} returned malformed JSON.`, { status: response.status });
      }
    });
  }

  /** GETs raw bytes, keeping at most `maxBytes` and cancelling the rest of the body. */
  async getBytes(url: string, init: GitHubRequestInit): Promise<CappedBody> {
    return this.#request(url, init, (response) => readCapped(response, init.maxBytes));
  }

  /** An error whose message never contains the token. */
  fail(reason: GitHubFetchErrorReason, message: string, options: GitHubPublicFetchErrorOptions = {}): GitHubPublicFetchError {
    const token = this.#settings.token;
    const safe = token === undefined || token === '' ? message : message.split(token).join('[redacted]');
    return new GitHubPublicFetchError(reason, safe, options);
  }

  async #request<T>(
    url: string,
    init: GitHubRequestInit,
    consume: (response: Response, label: string) => Promise<T>
  ): Promise<T> {
    const settings = this.#settings;
    const fetchImpl = settings.fetch ?? (globalThis.fetch as GitHubFetchFunction | undefined);
    if (typeof fetchImpl !== 'function') throw this.fail('transport', 'No fetch implementation is available.');
    const controller = new AbortController();
    let timedOut = false;
    const onAbort = () => controller.abort();
    init.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, settings.timeoutMs);
    let current = new URL(url);
    const label = () => `GitHub (${current.pathname})`;
    try {
      if (init.signal?.aborted) throw this.fail('aborted', 'The request was cancelled.');
      for (let hops = 0; ; hops += 1) {
        const kind = this.hostKind(current);
        if (kind === undefined)
          throw this.fail(
            'invalid_response',
            `Refused to contact ${current.origin}: only the configured GitHub hosts are allowed.`
          );
        const headers: Record<string, string> = { accept: init.accept, 'user-agent': settings.userAgent };
        if (kind === 'api') headers['x-github-api-version'] = '2022-11-28';
        if (kind === 'api' && settings.token !== undefined) headers.authorization = `Bearer ${settings.token}`;
        const response = await fetchImpl(current.href, { method: 'GET', headers, signal: controller.signal, redirect: 'manual' });
        if (response.type === 'opaqueredirect')
          throw this.fail('transport', `${label()} redirected, and the redirect could not be inspected.`);
        const location = response.headers.get('location');
        if (REDIRECT_STATUSES.has(response.status) && location !== null) {
          await response.body?.cancel().catch(() => undefined);
          if (hops >= MAX_REDIRECTS)
            throw this.fail('invalid_response', `${label()} redirected more than ${MAX_REDIRECTS} times.`);
          current = new URL(location, current);
          continue;
        }
        if (!response.ok) throw await this.#statusError(response, label());
        return await consume(response, label());
      }
    } catch (error) {
      if (timedOut) throw this.fail('timeout', `${label()} did not answer within ${settings.timeoutMs} ms.`);
      if (init.signal?.aborted) throw this.fail('aborted', 'The request was cancelled.');
      if (GitHubPublicFetchError.isInstance(error)) throw error;
      throw this.fail('transport', `${label()} could not be reached: ${describeNetworkError(error)}.`);
    } finally {
      clearTimeout(timer);
      init.signal?.removeEventListener('abort', onAbort);
    }
  }

  async #statusError(response: Response, label: string): Promise<GitHubPublicFetchError> {
    const { status, headers } = response;
    const body = await readCapped(response, ERROR_BODY_BYTES).catch(() => ({ bytes: new Uint8Array(), truncated: false }));
    const detail = githubMessage(body.bytes);
    const suffix = detail === undefined ? '' : `: ${detail}`;
    const remaining = headers.get('x-ratelimit-remaining');
    const retryAfter = seconds(headers.get('retry-after'));
    const reset = seconds(headers.get('x-ratelimit-reset'));
    const limited =
      status === 429 || (status === 403 && (remaining === '0' || retryAfter !== undefined || /rate limit/i.test(detail ?? '')));
    if (limited) {
      const nowSeconds = Math.floor(this.#settings.now() / 1000);
      const waitSeconds = retryAfter ?? (remaining === '0' && reset !== undefined ? Math.max(0, reset - nowSeconds) : undefined);
      const resetAt =
        remaining === '0' && reset !== undefined
          ? new Date(reset * 1000).toISOString()
          : waitSeconds === undefined
          ? undefined
          : new Date((nowSeconds + waitSeconds) * 1000).toISOString();
      const when = resetAt === undefined ? 'Wait a minute before retrying' : `It resets at ${resetAt}; do not retry before then`;
      return this.fail('rate_limited', `${label} is rate limited (HTTP ${status})${suffix}. ${when}.`, {
        status,
        ...(resetAt === undefined ? {} : { resetAt }),
        ...(waitSeconds === undefined ? {} : { retryAfterSeconds: waitSeconds }),
      });
    }
    if (status === 404 || status === 409)
      return this.fail('not_found', `${label} found nothing (HTTP ${status})${suffix}.`, { status });
    if (status === 401 || status === 403 || status === 451) {
      return this.fail('forbidden', `${label} refused access (HTTP ${status})${suffix}.`, { status });
    }
    if (status === 400 || status === 422)
      return this.fail('invalid_request', `${label} rejected the request (HTTP ${status})${suffix}.`, { status });
    if (status >= 500) return this.fail('transport', `${label} failed (HTTP ${status})${suffix}.`, { status });
    return this.fail('invalid_response', `${label} answered with unexpected HTTP ${status}${suffix}.`, { status });
  }
}

/** Reads a body, keeping at most `maxBytes` bytes and cancelling the stream beyond that. */
export async function readCapped(response: Response, maxBytes: number): Promise<CappedBody> {
  const body = response.body;
  if (body === null) return { bytes: new Uint8Array(), truncated: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes: concatBytes(chunks, total), truncated: false };
      if (total + value.length > maxBytes) {
        chunks.push(value);
        return { bytes: concatBytes(chunks, maxBytes), truncated: true };
      }
      chunks.push(value);
      total += value.length;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

function githubMessage(bytes: Uint8Array): string | undefined {
  if (bytes.length === 0) return undefined;
  const text = new TextDecoder().decode(bytes);
  let message: unknown;
  try {
    message = (JSON.parse(text) as { message?: unknown }).message;
  } catch {
    message = undefined;
  }
  const chosen = typeof message === 'string' ? message : text;
  const flat = chosen.replace(/\s+/g, ' ').trim();
  return flat === '' ? undefined : flat.slice(0, 200);
}

function seconds(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? ` (${cause.code})` : '';
  return `${error.message}${code}`;
}
