import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { checkInsecureHttpOptIn, type InsecureHttpOptIn } from './assert-endpoint-allowed.js';
import type { FetchFunction } from './post-json.js';
import { chooseApiKeySource } from './api-key-rule.js';
import { validateApiKeySource, type ApiKeySource, type EnvironmentRecord } from './resolve-api-key.js';
import { DEFAULT_RETRY_OPTIONS, type ResolvedRetryOptions, type RetryOptions } from './retry-policy.js';
import { validateModelPricing, type ModelPricing } from '../pricing/model-pricing.js';

/** Transport options shared by every HTTP provider. */
export interface HttpProviderOptions {
  /**
   * The API key, `{ env: 'NAME' }` to read it at call time from `env` or `process.env`, or `null`
   * to send no key. It is sent only in the auth header and never appears in outputs, errors,
   * metadata or traces.
   * @default undefined: on a provider's own host over `https:` its documented variable
   * (`api.openai.com` → `OPENAI_API_KEY`, `api.anthropic.com` → `ANTHROPIC_API_KEY`,
   * `generativelanguage.googleapis.com` → `GEMINI_API_KEY`, `openrouter.ai` → `OPENROUTER_API_KEY`,
   * `ollama.com` → `OLLAMA_API_KEY`); on any other host no key.
   */
  apiKey?: ApiKeySource | null | undefined;
  /**
   * Environment values for `{ env }` keys, e.g. a Cloudflare Workers `env` binding. Looked up
   * before `process.env`.
   * @default undefined (only `process.env`, where it exists)
   */
  env?: EnvironmentRecord | undefined;
  /**
   * Extra request headers. Values of headers whose names look secret (`authorization`, `*key*`,
   * `*token*` …) are redacted from errors like the key.
   * @default {}
   */
  headers?: Readonly<Record<string, string>> | undefined;
  /**
   * The `fetch` to use; the global `fetch` is looked up at call time otherwise.
   * @default globalThis.fetch
   */
  fetch?: FetchFunction | undefined;
  /**
   * Node only: an undici `Dispatcher` (for example `new ProxyAgent(url)` for a corporate proxy),
   * passed through to `fetch`. Give it with the `fetch` of the same undici
   * (`import { fetch, ProxyAgent } from 'undici'`): Node's built-in `fetch` runs on Node's own
   * undici, which may not accept another version's dispatcher. Typed loosely so the Worker build
   * needs no undici.
   * @default undefined
   */
  dispatcher?: object | undefined;
  /**
   * Time limit of one attempt, in milliseconds: until the whole JSON body has arrived, or until a
   * stream's response headers arrived. The turn's signal still bounds everything.
   * @default 60000
   */
  timeoutMs?: number | undefined;
  /**
   * Longest silence allowed between two chunks of a stream, in milliseconds.
   * @default 30000
   */
  streamIdleTimeoutMs?: number | undefined;
  /**
   * Largest JSON response body accepted, in bytes.
   * @default 8388608 (8 MiB)
   */
  maxResponseBytes?: number | undefined;
  /**
   * Largest streamed (SSE) response accepted, in bytes as received, over the whole stream. A stream
   * that grows past it is cancelled and the step ends as a non-retryable `provider_error`
   * (`metadata.error.failure: 'response_too_large'`).
   * @default 33554432 (32 MiB)
   */
  maxStreamBytes?: number | undefined;
  /** How failed attempts are retried; see `DEFAULT_RETRY_OPTIONS`. */
  retry?: RetryOptions | undefined;
  /**
   * Prices per million tokens; reported tokens become `usage.costUnits` (so `limits.budgetLimit`
   * works) unless the provider reported a cost itself, which wins.
   * @default undefined (only a provider-reported cost)
   */
  pricing?: ModelPricing | undefined;
  /**
   * Largest serialized request body, in UTF-8 bytes (at most 16 MiB). A step whose request would be
   * larger ends as a non-retryable `input_too_large` output naming both sizes, before any call.
   * @default undefined (no limit; provider profiles default to 1 MiB)
   */
  maxInputBytes?: number | undefined;
  /**
   * The model's context window, in tokens (input and output together, as the provider states it).
   * Set on the adapter as `contextWindow`; a harness then compacts the conversation before a step
   * whose estimated input passes `compaction.threshold` of it, and once after the provider answers
   * with its context-overflow error (see docs/context.md). Unknown, nothing is compacted automatically.
   * @default undefined
   */
  contextWindow?: number | undefined;
  /**
   * Allows a plain `http:` base URL on a host that is not loopback: `true` for any host, or the
   * host names to allow (e.g. `['ollama']` for a docker-compose service, a LAN inference box).
   * Requests and the key then travel unencrypted; off unless you opt in.
   * @default false
   */
  allowInsecureHttp?: InsecureHttpOptIn | undefined;
  /**
   * Fixed query parameters added to every request URL, e.g. `{ 'api-version': '2024-10-21' }` for
   * Azure OpenAI (`baseUrl` itself may not carry a query string). Names that look like secrets
   * (`key`, `token`, `secret`, `signature`, …) are refused: send keys as `apiKey` or `headers`.
   * @default {}
   */
  queryParameters?: Readonly<Record<string, string>> | undefined;
}

/** The largest `maxInputBytes` accepted: 16 MiB. */
export const MAX_INPUT_BYTES_LIMIT = 16_777_216 /* 16 MiB */;

/** Defaults of `HttpProviderOptions`. */
export const DEFAULT_HTTP_PROVIDER_OPTIONS: Readonly<{
  timeoutMs: number;
  streamIdleTimeoutMs: number;
  maxResponseBytes: number;
  maxStreamBytes: number;
}> = /* @__PURE__ */ Object.freeze({ timeoutMs: 60_000, streamIdleTimeoutMs: 30_000, maxResponseBytes: 8_388_608 /* 8 MiB */, maxStreamBytes: 33_554_432 /* 32 MiB */ });

/** `HttpProviderOptions` checked and with defaults applied. */
export interface ResolvedHttpProviderOptions {
  /** Where the key comes from (see `chooseApiKeySource`); `undefined`: no key is sent. */
  apiKey: ApiKeySource | undefined;
  env: EnvironmentRecord | undefined;
  headers: Readonly<Record<string, string>>;
  fetch: FetchFunction | undefined;
  dispatcher: object | undefined;
  timeoutMs: number;
  streamIdleTimeoutMs: number;
  maxResponseBytes: number;
  maxStreamBytes: number;
  retry: ResolvedRetryOptions;
  pricing: Readonly<ModelPricing> | undefined;
  maxInputBytes: number | undefined;
  contextWindow: number | undefined;
  allowInsecureHttp: boolean | ReadonlySet<string>;
  /** Own entries of `queryParameters`, checked. */
  queryParameters: readonly (readonly [string, string])[];
}

/**
 * Validates the shared transport options, and chooses where the key comes from for requests to
 * `endpoint` (the provider's base URL) by the one rule of `chooseApiKeySource`.
 * @throws HarnessConfigError naming the first invalid field.
 */
export function resolveHttpProviderOptions(options: HttpProviderOptions, endpoint: URL): ResolvedHttpProviderOptions {
  validateApiKeySource(options.apiKey, 'apiKey');
  if (options.env !== undefined && (typeof options.env !== 'object' || options.env === null)) {
    throw new HarnessConfigError('env must be an object of strings.', { field: 'env' });
  }
  const headers = options.headers ?? {};
  if (typeof headers !== 'object' || headers === null || Object.values(headers).some((value) => typeof value !== 'string')) {
    throw new HarnessConfigError('headers must be an object of string values.', { field: 'headers' });
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new HarnessConfigError('fetch must be a function.', { field: 'fetch' });
  }
  if (options.dispatcher !== undefined && (typeof options.dispatcher !== 'object' || options.dispatcher === null)) {
    throw new HarnessConfigError('dispatcher must be an undici Dispatcher object.', { field: 'dispatcher' });
  }
  const retry = options.retry ?? {};
  if (retry.onRetry !== undefined && typeof retry.onRetry !== 'function') {
    throw new HarnessConfigError('retry.onRetry must be a function.', { field: 'retry.onRetry' });
  }
  const maxInputBytes = optionalPositiveInteger(options.maxInputBytes, 'maxInputBytes');
  if (maxInputBytes !== undefined && maxInputBytes > MAX_INPUT_BYTES_LIMIT) {
    throw new HarnessConfigError(`maxInputBytes must be at most ${MAX_INPUT_BYTES_LIMIT} (16 MiB).`, { field: 'maxInputBytes' });
  }
  return {
    apiKey: chooseApiKeySource(options.apiKey, endpoint),
    env: options.env,
    headers,
    fetch: options.fetch,
    dispatcher: options.dispatcher,
    timeoutMs: positive(options.timeoutMs, DEFAULT_HTTP_PROVIDER_OPTIONS.timeoutMs, 'timeoutMs'),
    streamIdleTimeoutMs: positive(options.streamIdleTimeoutMs, DEFAULT_HTTP_PROVIDER_OPTIONS.streamIdleTimeoutMs, 'streamIdleTimeoutMs'),
    maxResponseBytes: positive(options.maxResponseBytes, DEFAULT_HTTP_PROVIDER_OPTIONS.maxResponseBytes, 'maxResponseBytes'),
    maxStreamBytes: positive(options.maxStreamBytes, DEFAULT_HTTP_PROVIDER_OPTIONS.maxStreamBytes, 'maxStreamBytes'),
    retry: {
      maxRetries: count(retry.maxRetries, DEFAULT_RETRY_OPTIONS.maxRetries, 'retry.maxRetries'),
      initialDelayMs: count(retry.initialDelayMs, DEFAULT_RETRY_OPTIONS.initialDelayMs, 'retry.initialDelayMs'),
      maxDelayMs: count(retry.maxDelayMs, DEFAULT_RETRY_OPTIONS.maxDelayMs, 'retry.maxDelayMs'),
      maxRetryAfterMs: count(retry.maxRetryAfterMs, DEFAULT_RETRY_OPTIONS.maxRetryAfterMs, 'retry.maxRetryAfterMs'),
      ...(retry.onRetry === undefined ? {} : { onRetry: retry.onRetry }),
    },
    pricing: validateModelPricing(options.pricing, 'pricing'),
    maxInputBytes,
    contextWindow: optionalPositiveInteger(options.contextWindow, 'contextWindow'),
    allowInsecureHttp: checkInsecureHttpOptIn(options.allowInsecureHttp),
    queryParameters: checkQueryParameters(options.queryParameters),
  };
}

const secretLookingName = /key|token|secret|sig|password|auth|credential/i;

function checkQueryParameters(value: unknown): readonly (readonly [string, string])[] {
  if (value === undefined) return [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HarnessConfigError('queryParameters must be an object of string values.', { field: 'queryParameters' });
  }
  const entries = Object.entries(value);
  if (entries.length > 50) throw new HarnessConfigError('queryParameters may hold at most 50 entries.', { field: 'queryParameters' });
  for (const [name, parameter] of entries) {
    if (typeof parameter !== 'string' || name === '' || name.length > 200 || parameter.length > 2000) {
      throw new HarnessConfigError(`queryParameters.${name.slice(0, 50)} must be a non-empty name with a string value.`, { field: 'queryParameters' });
    }
    if (secretLookingName.test(name)) {
      throw new HarnessConfigError(
        `queryParameters.${name.slice(0, 50)} looks like a secret; a key in a URL ends up in logs. Pass it as apiKey or in headers.`,
        { field: 'queryParameters' },
      );
    }
  }
  return entries as [string, string][];
}

function positive(value: number | undefined, fallback: number, field: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new HarnessConfigError(`${field} must be a positive number.`, { field });
  }
  return value;
}

function count(value: number | undefined, fallback: number, field: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new HarnessConfigError(`${field} must be a whole number, 0 or more.`, { field });
  }
  return value;
}

/**
 * Checks an optional positive integer option (such as `maxTokens`).
 * @throws HarnessConfigError naming `field`.
 */
export function optionalPositiveInteger(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new HarnessConfigError(`${field} must be a positive whole number.`, { field });
  }
  return value;
}

/**
 * Checks an optional finite number option (such as `temperature`).
 * @throws HarnessConfigError naming `field`.
 */
export function optionalFiniteNumber(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new HarnessConfigError(`${field} must be a finite number.`, { field });
  }
  return value;
}

/**
 * Checks a required non-empty string option (such as `model`).
 * @throws HarnessConfigError naming `field`.
 */
export function requiredString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new HarnessConfigError(`${field} must be a non-empty string.`, { field });
  }
  return value;
}
