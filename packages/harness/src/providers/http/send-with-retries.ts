import { HarnessModelHttpError } from './harness-model-http-error.js';
import { abortableDelay, linkAbortSignal } from './link-abort-signal.js';
import { postJson, type FetchFunction } from './post-json.js';
import { readBodyText } from './read-body-text.js';
import { truncateText, type Redactor } from './redact-secrets.js';
import { isRetryableStatus, parseRetryAfter, retryDelay, type ResolvedRetryOptions } from './retry-policy.js';
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

/** The end of `sendWithRetries`. */
export type SendOutcome<T> =
  | { ok: true; value: T; attempts: number }
  | { ok: false; error: HarnessModelHttpError; attempts: number };

/**
 * Sends `request`, retrying retryable failures with backoff (or the server's `Retry-After`) until
 * `retry.maxRetries` is used up, the next wait would end past `deadlineAt` or exceed
 * `retry.maxRetryAfterMs`, or the caller's signal fires. `consume` turns a 2xx response into a value
 * within the attempt (under its timer); an error it throws counts as a failed attempt. On success the
 * scope belongs to the caller, who must `dispose` it.
 */
export async function sendWithRetries<T>(
  request: SendRequest,
  consume: (response: Response, scope: AttemptScope) => Promise<T>,
): Promise<SendOutcome<T>> {
  const now = request.now ?? Date.now;
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await runAttempt(request, consume, now);
    if (outcome.ok) return { ok: true, value: outcome.value, attempts: attempt };
    const { error } = outcome;
    if (!error.isRetryable || error.failure === 'aborted' || attempt > request.retry.maxRetries) {
      return { ok: false, error, attempts: attempt };
    }
    if (error.retryAfterMs !== undefined && error.retryAfterMs > request.retry.maxRetryAfterMs) {
      return { ok: false, error, attempts: attempt };
    }
    const delayMs = retryDelay(attempt, error.retryAfterMs, request.retry, request.random);
    if (request.deadlineAt !== undefined && now() + delayMs >= request.deadlineAt) {
      return { ok: false, error, attempts: attempt };
    }
    try {
      request.retry.onRetry?.({
        attempt,
        delayMs,
        failure: error.failure === 'http_status' || error.failure === 'timeout' ? error.failure : 'network',
        ...(error.statusCode === undefined ? {} : { statusCode: error.statusCode }),
      });
    } catch {
      // A logging callback must not change the call.
    }
    if (!(await abortableDelay(delayMs, request.signal))) {
      return { ok: false, error: abortedError(), attempts: attempt };
    }
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
  const link = linkAbortSignal(parent);
  let timedOut = false;
  const fire = () => {
    if (link.signal.aborted) return;
    timedOut = true;
    link.abort(new Error('timeout'));
  };
  let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(fire, Math.max(0, timeoutMs));
  const clearTimer = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return {
    signal: link.signal,
    clearTimer,
    timeout: fire,
    timedOut: () => timedOut,
    dispose() {
      clearTimer();
      link.dispose();
    },
  };
}

/** The error for a call the caller's signal cancelled. */
export function abortedError(): HarnessModelHttpError {
  return new HarnessModelHttpError('The request was cancelled.', { failure: 'aborted', isRetryable: false });
}

/** Classifies a thrown fetch or body-read error. */
export function transportError(error: unknown, request: SendRequest, scope: AttemptScope): HarnessModelHttpError {
  if (request.signal?.aborted === true) return abortedError();
  if (scope.timedOut()) {
    return new HarnessModelHttpError(`The provider did not answer within ${request.timeoutMs} ms.`, {
      failure: 'timeout',
      isRetryable: true,
      cause: error,
    });
  }
  const message = describeError(error);
  const causeCode = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  const detail = typeof causeCode === 'string' ? `${message} (${causeCode})` : message;
  return new HarnessModelHttpError(`Network error: ${truncateText(request.redactor.text(detail), 300)}`, {
    failure: 'network',
    isRetryable: true,
    cause: error,
  });
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
  const message = details.message === undefined ? undefined : truncateText(request.redactor.text(details.message), 300);
  const code = details.code === undefined ? undefined : truncateText(request.redactor.text(details.code), 200);
  const body = request.redactor.text(raw);
  const retryAfterMs = parseRetryAfter(response.headers, now);
  const statusText = response.statusText === '' ? '' : ` ${truncateText(request.redactor.text(response.statusText), 100)}`;
  return new HarnessModelHttpError(
    truncateText(`HTTP ${response.status}${statusText}${message === undefined ? '' : `: ${message}`}`, 500),
    {
      failure: 'http_status',
      statusCode: response.status,
      isRetryable: isRetryableStatus(response.status),
      ...(body === '' ? {} : { responseBody: truncateText(body, RESPONSE_BODY_EXCERPT_CHARS) }),
      ...(code === undefined ? {} : { providerCode: code }),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    },
  );
}

/**
 * Picks a message and a code from the usual error bodies (OpenAI, OpenRouter, Anthropic, vLLM),
 * decoded and whole: the caller redacts, then shortens (so no cut can split a secret past redaction).
 */
export function providerErrorDetails(body: string): { message?: string; code?: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body.trim() === '' ? {} : { message: body.trim() };
  }
  if (typeof parsed !== 'object' || parsed === null) return {};
  const record = parsed as Record<string, unknown>;
  const inner = typeof record.error === 'object' && record.error !== null ? (record.error as Record<string, unknown>) : record;
  const message = typeof inner.message === 'string' ? inner.message : typeof record.error === 'string' ? record.error : undefined;
  const rawCode = inner.code ?? inner.type;
  const code = typeof rawCode === 'string' || typeof rawCode === 'number' ? String(rawCode) : undefined;
  return { ...(message === undefined ? {} : { message }), ...(code === undefined ? {} : { code }) };
}
