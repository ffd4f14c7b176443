import { HarnessModelHttpError } from '../http/harness-model-http-error.js';
import type { ResolvedHttpProviderOptions } from '../http/http-provider-options.js';
import { readBodyText } from '../../shared/read-body-text.js';
import { createRedactor, sensitiveHeaderValues, truncateText, type Redactor } from '../../shared/redact-secrets.js';
import { describeApiKeySource, resolveApiKey } from '../http/resolve-api-key.js';
import { sendWithRetries, waitToRetry, type AttemptScope, type FailedAttempt, type SendRequest } from '../http/send-with-retries.js';
import { readSseEvents, type SseEvent } from '../sse/read-sse-events.js';
import { readNdjsonLines } from '../ndjson/read-ndjson-lines.js';

/** How a provider reaches its endpoint. */
export interface ProviderTransportConfig {
  url: string;
  /** Options; a call whose `apiKey` source yields no key fails before any request. */
  options: ResolvedHttpProviderOptions;
  /** The auth headers for a resolved key (e.g. `authorization: Bearer …` or `x-api-key`). */
  authHeaders(apiKey: string): Record<string, string>;
  /** Headers every request carries besides the user's (e.g. `anthropic-version`). */
  fixedHeaders?: Record<string, string>;
  /** Provider name for messages, e.g. `OpenRouter`. */
  label: string;
  /**
   * How a streamed body is framed: server-sent events, or newline-delimited JSON (each line is
   * handed on as an event whose `data` is the line).
   * @default 'sse'
   */
  streamFormat?: 'sse' | 'ndjson';
}

/** Per-call context: the caller's signal and, when known, the deadline of the whole call. */
export interface CallContext {
  signal?: AbortSignal | undefined;
  deadlineAt?: number | undefined;
  /** The body already serialized (and measured) by the caller; sent instead of serializing `body`. */
  bodyText?: string;
  /**
   * The number of this call's first attempt within its model step (1 unless the step already spent
   * part of its retry budget on an earlier call).
   * @default 1
   */
  firstAttempt?: number;
}

interface Base {
  attempts: number;
  redactor: Redactor;
}

/** The end of a JSON call. */
export type JsonCallOutcome =
  | (Base & { type: 'json'; value: unknown })
  | (Base & { type: 'invalid_json'; excerpt: string; contentType?: string | undefined })
  | (Base & { type: 'failed'; error: HarnessModelHttpError })
  | { type: 'missing_key'; message: string; redactor: Redactor };

/** The end of opening a stream. `close` aborts the connection and must be called once done. */
export type StreamCallOutcome =
  | (Base & { type: 'stream'; events: AsyncGenerator<SseEvent, void, undefined>; close(): void })
  | JsonCallOutcome;

/** A provider's HTTP client: key resolution, redaction, retries, JSON and SSE. */
export interface ProviderTransport {
  sendJson(body: unknown, context: CallContext): Promise<JsonCallOutcome>;
  openStream(body: unknown, context: CallContext): Promise<StreamCallOutcome>;
  /**
   * After attempt number `attempt` of a step failed inside a 200 response (an error the provider
   * reported, a stream cut short), decides with the same budget, backoff and deadline as the
   * transport's own retries whether to try again, and waits (see `waitToRetry`).
   */
  waitToRetry(attempt: number, context: CallContext, failed: FailedAttempt): Promise<'retry' | 'stop' | 'aborted'>;
}

/** Creates the transport a model or execution adapter uses for every call. */
export function createProviderTransport(config: ProviderTransportConfig): ProviderTransport {
  const { options } = config;
  const url = withQueryParameters(config.url, options.queryParameters);
  const prepare = (body: unknown, context: CallContext) => {
    const apiKey = resolveApiKey(options.apiKey, options.env);
    const redactor = createRedactor([apiKey, ...sensitiveHeaderValues(options.headers)]);
    if (apiKey === undefined && options.apiKey !== undefined) {
      return {
        ok: false as const,
        redactor,
        message: `No ${config.label} API key: ${describeApiKeySource(options.apiKey)}.`,
      };
    }
    const request: SendRequest = {
      url,
      headers: { ...config.fixedHeaders, ...options.headers, ...(apiKey === undefined ? {} : config.authHeaders(apiKey)) },
      body: context.bodyText ?? JSON.stringify(body),
      timeoutMs: options.timeoutMs,
      retry: options.retry,
      redactor,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
      ...(context.signal === undefined ? {} : { signal: context.signal }),
      ...(context.deadlineAt === undefined ? {} : { deadlineAt: context.deadlineAt }),
    };
    return { ok: true as const, request, redactor };
  };

  const readJson = async (response: Response, redactor: Redactor) => {
    const { text, truncated } = await readBodyText(response, options.maxResponseBytes);
    if (truncated) {
      throw new HarnessModelHttpError(`The response was larger than ${options.maxResponseBytes} bytes.`, {
        failure: 'response_too_large',
        statusCode: response.status,
        isRetryable: false,
      });
    }
    try {
      return { type: 'json' as const, value: JSON.parse(text) as unknown };
    } catch {
      const contentType = response.headers.get('content-type');
      return {
        type: 'invalid_json' as const,
        excerpt: truncateText(redactor.text(text), 200),
        ...(contentType === null || contentType === '' ? {} : { contentType: truncateText(redactor.text(contentType), 100) }),
      };
    }
  };

  return {
    async sendJson(body, context) {
      const prepared = prepare(body, context);
      if (!prepared.ok) return { type: 'missing_key', message: prepared.message, redactor: prepared.redactor };
      const { redactor } = prepared;
      const outcome = await sendWithRetries(
        prepared.request,
        async (response, scope) => {
          try {
            return await readJson(response, redactor);
          } finally {
            scope.dispose();
          }
        },
        context.firstAttempt,
      );
      if (!outcome.ok) return { type: 'failed', error: outcome.error, attempts: outcome.attempts, redactor };
      return { ...outcome.value, attempts: outcome.attempts, redactor };
    },

    async openStream(body, context) {
      const prepared = prepare(body, context);
      if (!prepared.ok) return { type: 'missing_key', message: prepared.message, redactor: prepared.redactor };
      const { redactor } = prepared;
      const outcome = await sendWithRetries(
        prepared.request,
        async (response, scope): Promise<{ type: 'stream'; response: Response; scope: AttemptScope } | Awaited<ReturnType<typeof readJson>>> => {
          const contentType = response.headers.get('content-type') ?? '';
          if (contentType.includes('application/json')) {
            try {
              return await readJson(response, redactor);
            } finally {
              scope.dispose();
            }
          }
          scope.clearTimer();
          return { type: 'stream', response, scope };
        },
        context.firstAttempt,
      );
      if (!outcome.ok) return { type: 'failed', error: outcome.error, attempts: outcome.attempts, redactor };
      const value = outcome.value;
      if (value.type !== 'stream') return { ...value, attempts: outcome.attempts, redactor };
      const { response, scope } = value;
      const close = () => {
        scope.timeout();
        scope.dispose();
      };
      if (response.body === null) {
        close();
        return { type: 'invalid_json', excerpt: '', attempts: outcome.attempts, redactor };
      }
      const readOptions = { idleTimeoutMs: options.streamIdleTimeoutMs, signal: scope.signal, maxTotalBytes: options.maxStreamBytes };
      const events = config.streamFormat === 'ndjson' ? readNdjsonLines(response.body, readOptions) : readSseEvents(response.body, readOptions);
      return { type: 'stream', events, close, attempts: outcome.attempts, redactor };
    },

    waitToRetry(attempt, context, failed) {
      return waitToRetry({ retry: options.retry, signal: context.signal, deadlineAt: context.deadlineAt }, attempt, failed);
    },
  };
}

/** `url` with the configured fixed query parameters set (after any the protocol itself uses). */
function withQueryParameters(url: string, parameters: readonly (readonly [string, string])[]): string {
  if (parameters.length === 0) return url;
  const parsed = new URL(url);
  for (const [name, value] of parameters) parsed.searchParams.set(name, value);
  return parsed.href;
}
