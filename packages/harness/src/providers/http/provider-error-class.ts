import { isRecord } from '../../shared/is-record.js';

/** What a provider said about a failure, read from any of its error shapes. */
export interface ProviderErrorDetails {
  /** The provider's message, decoded and whole (the caller redacts and shortens). */
  message?: string | undefined;
  /** The provider's own code: its `code`, else its `status` name, else its `type` (e.g. `insufficient_quota`, `NOT_FOUND`). */
  providerCode?: string | undefined;
  /** Every code-like name the error carried (`code`, `status`, `type`), most specific first. */
  names: string[];
  /** An HTTP status the error object itself names (Gemini `code: 404`, a numeric `code`, `status_code`). */
  status?: number | undefined;
}

/**
 * Reads an error from the usual shapes, whether it came as an HTTP body or inside a 200 response:
 * `{ error: { message, code, type, status } }` (OpenAI, OpenRouter, Groq, DeepSeek, Gemini — also
 * wrapped in an array), `{ type: 'error', error: { type, message } }` (Anthropic),
 * `{ type: 'error', code, message }` and `{ type: 'error', error: { code, message } }` (OpenAI
 * Responses, both seen), `{ error: '…' }` (Ollama), `{ message, type, code }` (vLLM, Mistral) and
 * `{ detail: '…' }`. Never throws.
 */
export function readProviderError(value: unknown): ProviderErrorDetails {
  const record = isRecord(value) ? value : Array.isArray(value) && isRecord(value[0]) ? value[0] : undefined;
  if (record === undefined) return { names: [] };
  const nested = own(record, 'error');
  const inner = isRecord(nested) ? nested : record;
  const message =
    text(own(inner, 'message')) ?? (typeof nested === 'string' ? text(nested) : undefined) ?? text(own(record, 'message')) ?? text(own(record, 'detail'));
  const names: string[] = [];
  for (const candidate of [own(inner, 'code'), own(inner, 'status'), own(inner, 'type'), inner === record ? undefined : own(record, 'code')]) {
    const name = codeName(candidate);
    if (name !== undefined && !names.includes(name)) names.push(name);
  }
  const status = httpStatus(own(inner, 'code')) ?? httpStatus(own(inner, 'status')) ?? httpStatus(own(inner, 'status_code'));
  const code = own(inner, 'code');
  const numericCode = httpStatus(code) ?? (typeof code === 'number' && Number.isSafeInteger(code) ? code : undefined);
  const providerCode = names[0] ?? (numericCode === undefined ? undefined : String(numericCode));
  return {
    ...(message === undefined ? {} : { message }),
    ...(providerCode === undefined ? {} : { providerCode }),
    names,
    ...(status === undefined ? {} : { status }),
  };
}

/**
 * How a failure is treated. `quota`, `payment`, `authentication`, `permission` and `invalid_request`
 * are never retried, whatever shape they arrive in.
 */
export type ProviderErrorClass =
  | 'quota'
  | 'payment'
  | 'authentication'
  | 'permission'
  | 'invalid_request'
  | 'not_found'
  | 'too_large'
  | 'context_overflow'
  | 'rate_limited'
  | 'unavailable'
  | 'timeout'
  | 'conflict'
  | 'other_client'
  | 'unknown';

/** The verdict on a provider failure: our result code, and whether asking again can help. */
export interface ProviderErrorVerdict {
  class: ProviderErrorClass;
  /** The result-level code (`result.error.code`), e.g. `quota_exceeded`, `rate_limited`. */
  code: string;
  retryable: boolean;
}

const verdicts: Readonly<Record<ProviderErrorClass, { code: string; retryable: boolean }>> = {
  quota: { code: 'quota_exceeded', retryable: false },
  payment: { code: 'payment_required', retryable: false },
  authentication: { code: 'authentication_failed', retryable: false },
  permission: { code: 'permission_denied', retryable: false },
  invalid_request: { code: 'bad_request', retryable: false },
  not_found: { code: 'not_found', retryable: false },
  too_large: { code: 'request_too_large', retryable: false },
  context_overflow: { code: 'context_overflow', retryable: false },
  rate_limited: { code: 'rate_limited', retryable: true },
  unavailable: { code: 'provider_unavailable', retryable: true },
  timeout: { code: 'provider_timeout', retryable: true },
  conflict: { code: 'provider_http_error', retryable: true },
  other_client: { code: 'provider_http_error', retryable: false },
  unknown: { code: 'provider_error', retryable: true },
};

const neverRetried = new Set<ProviderErrorClass>(['quota', 'payment', 'authentication', 'permission', 'invalid_request', 'context_overflow']);
const specificStatusClasses = new Set<ProviderErrorClass>(['payment', 'authentication', 'permission', 'not_found', 'too_large']);

// Provider codes, lower-cased: OpenAI and compatible servers (`code` / `type`), Anthropic (`error.type`),
// Gemini (`error.status`), and our own result codes (a proxy in front of another harness).
const namedClasses = new Map<string, ProviderErrorClass>([
  ['insufficient_quota', 'quota'],
  ['billing_error', 'quota'],
  ['billing_hard_limit_reached', 'quota'],
  ['billing_not_active', 'quota'],
  ['quota_exceeded', 'quota'],
  ['payment_required', 'payment'],
  ['invalid_api_key', 'authentication'],
  ['authentication_error', 'authentication'],
  ['authentication_failed', 'authentication'],
  ['invalid_authentication', 'authentication'],
  ['unauthenticated', 'authentication'],
  ['unauthorized', 'authentication'],
  ['permission_error', 'permission'],
  ['permission_denied', 'permission'],
  ['unsupported_country_region_territory', 'permission'],
  ['invalid_request_error', 'invalid_request'],
  ['invalid_argument', 'invalid_request'],
  ['failed_precondition', 'invalid_request'],
  ['invalid_value', 'invalid_request'],
  ['invalid_type', 'invalid_request'],
  ['unsupported_value', 'invalid_request'],
  ['unsupported_parameter', 'invalid_request'],
  ['unknown_parameter', 'invalid_request'],
  ['missing_required_parameter', 'invalid_request'],
  ['decimal_below_min_value', 'invalid_request'],
  ['decimal_above_max_value', 'invalid_request'],
  ['integer_below_min_value', 'invalid_request'],
  ['integer_above_max_value', 'invalid_request'],
  ['string_above_max_length', 'invalid_request'],
  ['array_above_max_length', 'invalid_request'],
  ['context_length_exceeded', 'context_overflow'],
  ['exceed_context_size_error', 'context_overflow'],
  ['invalid_prompt', 'invalid_request'],
  ['bad_request', 'invalid_request'],
  ['model_not_found', 'not_found'],
  ['not_found_error', 'not_found'],
  ['not_found', 'not_found'],
  ['request_too_large', 'too_large'],
  ['rate_limit_exceeded', 'rate_limited'],
  ['rate_limit_error', 'rate_limited'],
  ['rate_limited', 'rate_limited'],
  ['resource_exhausted', 'rate_limited'],
  ['overloaded_error', 'unavailable'],
  ['api_error', 'unavailable'],
  ['server_error', 'unavailable'],
  ['internal_error', 'unavailable'],
  ['internal', 'unavailable'],
  ['unavailable', 'unavailable'],
  ['service_unavailable', 'unavailable'],
  ['provider_unavailable', 'unavailable'],
  ['timeout_error', 'timeout'],
  ['deadline_exceeded', 'timeout'],
  ['vector_store_timeout', 'timeout'],
  ['provider_timeout', 'timeout'],
]);

/** The class of an HTTP status: 400/422 invalid, 401, 402, 403, 404, 413; 408, 409, 425, 429 and 5xx retried. */
function statusClass(status: number): ProviderErrorClass {
  switch (status) {
    case 400:
    case 422:
      return 'invalid_request';
    case 401:
      return 'authentication';
    case 402:
      return 'payment';
    case 403:
      return 'permission';
    case 404:
      return 'not_found';
    case 408:
      return 'timeout';
    case 409:
    case 425:
      return 'conflict';
    case 413:
      return 'too_large';
    case 429:
      return 'rate_limited';
    default:
      return status >= 500 && status <= 599 ? 'unavailable' : status >= 400 && status <= 499 ? 'other_client' : 'unknown';
  }
}

/**
 * What the context-overflow errors say when no code names them: Anthropic `prompt is too long: …`
 * and `input length and \`max_tokens\` exceed context limit: …`, Gemini `The input token count (…)
 * exceeds the maximum number of tokens allowed (…)`, Ollama `the input length exceeds the context
 * length`, llama.cpp `request (…) exceeds the available context size (…)`, OpenAI-compatible
 * servers (vLLM, OpenRouter) `… maximum context length is … tokens`, OpenAI Responses `Your input
 * exceeds the context window of this model`.
 */
const contextOverflowMessage =
  /prompt is too long|maximum context length|exceeds? (?:the )?(?:available |maximum )?context (?:size|length|limit|window)|input token count \(\d+\) exceeds the maximum number of tokens/i;

/** Classes under which a message may still say the request overflowed the model's context. */
const overflowCandidates = new Set<ProviderErrorClass>(['invalid_request', 'too_large', 'other_client', 'unknown']);

/**
 * Classifies a provider failure — the one place that decides what is retried. A code the provider
 * names wins over the HTTP status (a 429 whose code is `insufficient_quota` is a spent quota, not a
 * rate limit); otherwise the status decides; an error with neither counts as transient. A request
 * over the model's context window (`context_length_exceeded`, `exceed_context_size_error`, or an
 * invalid request whose `message` says so in one of the providers' words) is `context_overflow`:
 * the harness compacts the conversation and asks again (see docs/context.md). The server's
 * `x-should-retry` (as the official OpenAI and Anthropic SDKs read it) then decides — except that
 * quota, authentication, permission, invalid-request and context-overflow failures are never retried.
 */
export function classifyProviderError(failure: {
  status?: number | undefined;
  names?: readonly string[] | undefined;
  /** The provider's message (only read to recognise a context overflow). */
  message?: string | undefined;
  shouldRetry?: boolean | undefined;
}): ProviderErrorVerdict {
  let found: ProviderErrorClass | undefined;
  for (const name of failure.names ?? []) {
    found = namedClasses.get(name.toLowerCase());
    if (found !== undefined) break;
  }
  const byStatus = failure.status === undefined ? undefined : statusClass(failure.status);
  // A generic "invalid request" code under a more specific status (DeepSeek's 402 "Insufficient
  // Balance" says `invalid_request_error`) keeps the status's meaning.
  let errorClass = found === 'invalid_request' && byStatus !== undefined && specificStatusClasses.has(byStatus) ? byStatus : (found ?? byStatus ?? 'unknown');
  if (overflowCandidates.has(errorClass) && isContextOverflowMessage(failure.message)) errorClass = 'context_overflow';
  const verdict = verdicts[errorClass];
  // A code that is never retried stays so when a more specific status renamed its class (INVALID_ARGUMENT under a 404).
  const never = neverRetried.has(errorClass) || (found !== undefined && neverRetried.has(found));
  const retryable = never ? false : (failure.shouldRetry ?? verdict.retryable);
  return { class: errorClass, code: verdict.code, retryable };
}

/** Whether a provider's message says the request was larger than the model's context window. */
function isContextOverflowMessage(message: string | undefined): boolean {
  // Bounded: the phrases come first in every known message.
  return typeof message === 'string' && contextOverflowMessage.test(message.slice(0, 2000));
}

/** Reads the `x-should-retry` header: `true`, `false`, or `undefined` when absent or anything else. */
export function readShouldRetry(headers: Headers): boolean | undefined {
  const value = headers.get('x-should-retry')?.trim().toLowerCase();
  return value === 'true' ? true : value === 'false' ? false : undefined;
}

/** An own property only: nothing inherited is read as the provider's. */
function own(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function codeName(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const name = value.trim();
  // `error` is the envelope's own type (Anthropic, Responses), not a code; a numeric string is a status.
  return name === '' || name.toLowerCase() === 'error' || /^\d+$/.test(name) ? undefined : name;
}

function httpStatus(value: unknown): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\d{3}$/.test(value.trim()) ? Number(value) : undefined;
  return number !== undefined && Number.isInteger(number) && number >= 100 && number <= 599 ? number : undefined;
}
