import { HarnessModelHttpError } from './harness-model-http-error.js';
import { abortableDelay } from './link-abort-signal.js';
import { unwatchAbort, watchAbort } from '../../shared/watch-abort.js';
import { postJson, type FetchFunction } from './post-json.js';
import { readBodyText } from '../../shared/read-body-text.js';
import { truncateText, type Redactor } from '../../shared/redact-secrets.js';
import { classifyProviderError, readProviderError, readShouldRetry, type ProviderErrorDetails } from './provider-error-class.js';
import { parseRetryAfter, retryDelay, type ResolvedRetryOptions, type RetryEvent } from './retry-policy.js';
import { describeError } from '../../shared/describe-error.js';

const MAX_ERROR_BODY_BYTES = 65_536 /* 64 KiB */;
const RESPONSE_BODY_EXCERPT_CHARS = 2048;

/** One provider call, retried by `sendWithRetries`. */
export interface SendRequest {
  url: string;
  /** Headers, including the resolved key; never echoed anywhere. */
  headers: Readonly<Record<string, string>>;
  /** Serialised JSON body. */
  body: string;
  fetch?: FetchFunction;
  dispatcher?: object;
  /** The caller's signal (the turn's): aborts the request and any wait between attempts. */
  signal?: AbortSignal;
  /** Per-attempt time limit in milliseconds, until the response is consumed (or the stream starts). */
  timeoutMs: number;
  retry: ResolvedRetryOptions;
  /** Epoch milliseconds after which no retry wait may end; `undefined` when unknown. */
  deadlineAt?: number;
  redactor: Redactor;
  /** Time source for `Retry-After` dates and the deadline. @default Date.now */
  now?: () => number;
  /** Randomness for jitter. @default Math.random */
  random?: () => number;
}

/** The life of one attempt: its signal and its timer. */
export interface AttemptScope {
  readonly signal: AbortSignal;
  /** Stops the per-attempt timer (a stream switches to its idle timer once headers arrived). */
  clearTimer(): void;
  /** Aborts the attempt as timed out. */
  timeout(): void;
  /** True once the attempt timed out. */
  timedOut(): boolean;
  /** Clears the timer and detaches from the caller's signal. */
  dispose(): void;
}

/** The end of `sendWithRetries`. `attempts` is the number of the last attempt made (counting from `firstAttempt`). */
export type SendOutcome<T> =
  | { ok: true; value: T; attempts: number }
  | { ok: false; error: HarnessModelHttpError; attempts: number };

/** What decides whether, and when, a failed attempt is followed by another. */
export interface RetryWindow {
  retry: ResolvedRetryOptions;
  signal?: AbortSignal | undefined;
  deadlineAt?: number | undefined;
  now?: (() => number) | undefined;
  random?: (() => number) | undefined;
}

/** A failed attempt, as `waitToRetry` weighs it. */
export interface FailedAttempt {
  retryable: boolean;
  retryAfterMs?: number | undefined;
  failure: RetryEvent['failure'];
  statusCode?: number | undefined;
}

/**
 * Decides whether attempt number `attempt` (1-based, counted over the whole model step) is followed
 * by another, and waits for it: `'retry'` after the wait, `'stop'` when the failure is not
 * retryable, the budget (`retry.maxRetries`) is spent, the server's wait exceeds
 * `retry.maxRetryAfterMs` or the wait would end past `deadlineAt`; `'aborted'` when the signal fired.
 * The one place where a step's retry budget is spent.
 */
export async function waitToRetry(window: RetryWindow, attempt: number, failed: FailedAttempt): Promise<'retry' | 'stop' | 'aborted'> {
  if (!failed.retryable || attempt > window.retry.maxRetries) return 'stop';
  if (failed.retryAfterMs !== undefined && failed.retryAfterMs > window.retry.maxRetryAfterMs) return 'stop';
  const delayMs = retryDelay(attempt, failed.retryAfterMs, window.retry, window.random);
  const now = window.now ?? Date.now;
  if (window.deadlineAt !== undefined && now() + delayMs >= window.deadlineAt) return 'stop';
  try {
    window.retry.onRetry?.({
      attempt,
      delayMs,
      failure: failed.failure,
      ...(failed.statusCode === undefined ? {} : { statusCode: failed.statusCode }),
    });
  } catch {
    // A logging callback must not change the call.
  }
  return (await abortableDelay(delayMs, window.signal)) ? 'retry' : 'aborted';
}

/**
 * Sends `request`, retrying retryable failures with backoff (or the server's `Retry-After`) while
 * `waitToRetry` allows; the first attempt is number `firstAttempt` (1 unless the step already spent
 * some of its budget). `consume` turns a 2xx response into a value within the attempt (under its
 * timer); an error it throws counts as a failed attempt. On success the scope belongs to the caller,
 * who must `dispose` it.
 */
export async function sendWithRetries<T>(
  request: SendRequest,
  consume: (response: Response, scope: AttemptScope) => Promise<T>,
  firstAttempt = 1,
): Promise<SendOutcome<T>> {
  const now = request.now ?? Date.now;
  for (let attempt = firstAttempt; ; attempt += 1) {
    const outcome = await runAttempt(request, consume, now);
    if (outcome.ok) return { ok: true, value: outcome.value, attempts: attempt };
    const { error } = outcome;
    if (error.failure === 'aborted') return { ok: false, error, attempts: attempt };
    const next = await waitToRetry(request, attempt, {
      retryable: error.isRetryable,
      retryAfterMs: error.retryAfterMs,
      failure: error.failure === 'http_status' || error.failure === 'timeout' ? error.failure : 'network',
      statusCode: error.statusCode,
    });
    if (next === 'stop') return { ok: false, error, attempts: attempt };
    if (next === 'aborted') return { ok: false, error: abortedError(), attempts: attempt };
  }
}

async function runAttempt<T>(
  request: SendRequest,
  consume: (response: Response, scope: AttemptScope) => Promise<T>,
  now: () => number,
): Promise<{ ok: true; value: T } | { ok: false; error: HarnessModelHttpError }> {
  const scope = createAttemptScope(request.signal, request.timeoutMs);
  let response: Response;
  try {
    response = await postJson({
      url: request.url,
      headers: request.headers,
      body: request.body,
      signal: scope.signal,
      ...(request.fetch === undefined ? {} : { fetch: request.fetch }),
      ...(request.dispatcher === undefined ? {} : { dispatcher: request.dispatcher }),
    });
  } catch (error) {
    scope.dispose();
    return { ok: false, error: transportError(error, request, scope) };
  }
  if (isRedirect(response)) {
    scope.dispose();
    await response.body?.cancel().catch(() => undefined);
    return { ok: false, error: redirectError(response, request) };
  }
  if (!response.ok) {
    try {
      return { ok: false, error: await statusError(response, request, now()) };
    } finally {
      scope.dispose();
    }
  }
  try {
    return { ok: true, value: await consume(response, scope) };
  } catch (error) {
    scope.dispose();
    return { ok: false, error: HarnessModelHttpError.isInstance(error) ? error : transportError(error, request, scope) };
  }
}

function createAttemptScope(parent: AbortSignal | undefined, timeoutMs: number): AttemptScope {
  return new LinkedAttemptScope(parent, timeoutMs);
}

/**
 * An attempt's own signal, aborted by the caller's signal or the attempt's timer. A class, so an
 * attempt in flight holds its fields rather than a closure per method; it follows a turn's signal
 * through the turn's fan-out (`watchAbort`), not an `EventTarget` listener.
 */
class LinkedAttemptScope implements AttemptScope {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private didTimeOut = false;
  private readonly onParentAbort: (() => void) | undefined;

  constructor(
    private readonly parent: AbortSignal | undefined,
    timeoutMs: number,
  ) {
    this.signal = this.controller.signal;
    if (parent?.aborted) {
      this.controller.abort(parent.reason);
    } else if (parent !== undefined) {
      this.onParentAbort = () => this.controller.abort(parent.reason);
      watchAbort(parent, this.onParentAbort);
    }
    this.timer = setTimeout(() => this.timeout(), Math.max(0, timeoutMs));
  }

  clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  timeout(): void {
    if (this.signal.aborted) return;
    this.didTimeOut = true;
    this.controller.abort(new Error('timeout'));
  }

  timedOut(): boolean {
    return this.didTimeOut;
  }

  dispose(): void {
    this.clearTimer();
    if (this.onParentAbort !== undefined) unwatchAbort(this.parent as AbortSignal, this.onParentAbort);
  }
}

/** The error for a call the caller's signal cancelled. */
export function abortedError(): HarnessModelHttpError {
  return new HarnessModelHttpError('The request was cancelled.', { failure: 'aborted', isRetryable: false });
}

/** Classifies a thrown fetch or body-read error, naming the host it could not reach (never the key). */
export function transportError(error: unknown, request: SendRequest, scope: AttemptScope): HarnessModelHttpError {
  if (request.signal?.aborted === true) return abortedError();
  if (scope.timedOut()) {
    return new HarnessModelHttpError(`${hostOf(request.url)} did not answer within ${request.timeoutMs} ms.`, {
      failure: 'timeout',
      isRetryable: true,
      cause: error,
    });
  }
  const { detail, retryable } = networkFailure(error);
  return new HarnessModelHttpError(truncateText(request.redactor.text(`Could not reach ${hostOf(request.url)}: ${detail}`), 500), {
    failure: 'network',
    isRetryable: retryable,
    cause: error,
  });
}

// Failures that asking again a moment later does not fix: nothing listens there, the name does not
// resolve, the certificate is wrong, or fetch itself refuses the address.
const permanentNetworkCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_FAIL',
  'EAI_NONAME',
  'ERR_INVALID_URL',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** What a thrown fetch error says (its `cause` where fetch only says "fetch failed"), and whether a retry can help. */
function networkFailure(error: unknown): { detail: string; retryable: boolean } {
  let cause: unknown;
  let code: unknown;
  try {
    cause = (error as { cause?: unknown } | null)?.cause;
    code = (cause as { code?: unknown } | null | undefined)?.code ?? (error as { code?: unknown } | null)?.code;
  } catch {
    cause = undefined;
  }
  const message = describeError(error, 300);
  const causeMessage = cause === undefined ? undefined : describeError(cause, 300);
  if (causeMessage === 'bad port') {
    return {
      detail:
        'fetch refuses this port ("bad port": the Fetch standard blocks it, e.g. 1, 6000 or 6666); run the server on another port, or pass fetch: createNodeHttpFetch() on Node.js.',
      retryable: false,
    };
  }
  if (code === 'ECONNREFUSED') return { detail: 'the connection was refused (ECONNREFUSED); is the server running and listening on that port?', retryable: false };
  if (code === 'ENOTFOUND') return { detail: 'the host name does not resolve (ENOTFOUND).', retryable: false };
  const said = causeMessage !== undefined && causeMessage !== 'Unknown error' && causeMessage !== message ? `${message}: ${causeMessage}` : message;
  const codeText = typeof code === 'string' && !said.includes(code) ? ` (${code})` : '';
  return { detail: `${said}${codeText}.`, retryable: !(typeof code === 'string' && permanentNetworkCodes.has(code)) };
}

/** `host:port` of a URL, for messages (never its path, query or credentials). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the provider';
  }
}

function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || response.redirected || (response.status >= 300 && response.status < 400);
}

/** The error for a 3xx answer (or a `fetch` that followed one): never followed, never retried. */
function redirectError(response: Response, request: SendRequest): HarnessModelHttpError {
  let target = '';
  try {
    const location = response.headers.get('location');
    if (location !== null) target = ` to ${new URL(location, request.url).origin}`;
  } catch {
    // An unreadable Location names no target.
  }
  const status = response.status === 0 ? 'a redirect' : `HTTP ${response.status}`;
  return new HarnessModelHttpError(
    truncateText(
      request.redactor.text(
        `The provider answered with ${status}${target}. Model calls do not follow redirects, so no key is sent elsewhere; set baseUrl to the final endpoint.`,
      ),
      500,
    ),
    { failure: 'redirect', isRetryable: false, ...(response.status === 0 ? {} : { statusCode: response.status }) },
  );
}

async function statusError(response: Response, request: SendRequest, now: number): Promise<HarnessModelHttpError> {
  let raw: string;
  try {
    raw = (await readBodyText(response, MAX_ERROR_BODY_BYTES)).text;
  } catch {
    raw = '';
  }
  // Details are read from the raw body (JSON escapes decoded) and redacted afterwards; the excerpt is
  // redacted in its escaped form, which the redactor also recognises.
  const details = providerErrorDetails(raw);
  const verdict = classifyProviderError({ status: response.status, names: details.names, message: details.message, shouldRetry: readShouldRetry(response.headers) });
  const message = details.message === undefined ? undefined : truncateText(request.redactor.text(details.message), 300);
  const code = details.providerCode === undefined ? undefined : truncateText(request.redactor.text(details.providerCode), 200);
  const body = request.redactor.text(raw);
  const retryAfterMs = parseRetryAfter(response.headers, now);
  const statusText = response.statusText === '' ? '' : ` ${truncateText(request.redactor.text(response.statusText), 100)}`;
  const hint = response.status === 404 || response.status === 405 ? doubledPathHint(request.url) : '';
  return new HarnessModelHttpError(
    truncateText(`HTTP ${response.status}${statusText} from ${hostOf(request.url)}${message === undefined ? '' : `: ${message}`}${hint}`, 500),
    {
      failure: 'http_status',
      statusCode: response.status,
      isRetryable: verdict.retryable,
      ...(body === '' ? {} : { responseBody: truncateText(body, RESPONSE_BODY_EXCERPT_CHARS) }),
      ...(code === undefined ? {} : { providerCode: code }),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    },
  );
}

/**
 * A note for a 404 whose URL path ends in the same segments twice (`/v1/chat/completions/chat/completions`):
 * `baseUrl` already held the path the provider appends.
 */
export function doubledPathHint(url: string): string {
  let segments: string[];
  try {
    segments = new URL(url).pathname.split('/').filter((segment) => segment !== '');
  } catch {
    return '';
  }
  for (let size = Math.floor(segments.length / 2); size >= 1; size -= 1) {
    const tail = segments.slice(-size).join('/');
    if (tail === segments.slice(-2 * size, -size).join('/')) {
      return ` (the URL path ends in "/${tail}/${tail}": baseUrl probably already ends in "/${tail}", which the provider appends; remove it from baseUrl)`;
    }
  }
  return '';
}

/**
 * Picks a message and the provider's code from an error body (see `readProviderError`), decoded
 * and whole: the caller redacts, then shortens (so no cut can split a secret past redaction). A
 * body that is not JSON is its own message.
 */
export function providerErrorDetails(body: string): ProviderErrorDetails {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body.trim() === '' ? { names: [] } : { message: body.trim(), names: [] };
  }
  return readProviderError(parsed);
}
