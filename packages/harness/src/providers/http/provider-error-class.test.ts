import { describe, expect, it } from 'vitest';
import { classifyProviderError, readProviderError, readShouldRetry } from './provider-error-class.js';

// Error shapes as the providers send them (their API references and recorded traffic).
const shapes: [name: string, status: number | undefined, body: unknown, expected: { code: string; retryable: boolean; providerCode?: string }][] = [
  [
    'OpenAI 429 insufficient_quota',
    429,
    { error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } },
    { code: 'quota_exceeded', retryable: false, providerCode: 'insufficient_quota' },
  ],
  [
    'OpenAI 429 rate_limit_exceeded',
    429,
    { error: { message: 'Rate limit reached for gpt-4o on tokens per min (TPM).', type: 'tokens', param: null, code: 'rate_limit_exceeded' } },
    { code: 'rate_limited', retryable: true, providerCode: 'rate_limit_exceeded' },
  ],
  [
    'OpenAI 401 invalid_api_key',
    401,
    { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } },
    { code: 'authentication_failed', retryable: false, providerCode: 'invalid_api_key' },
  ],
  [
    'OpenAI 404 model_not_found',
    404,
    { error: { message: 'The model `gpt-9` does not exist or you do not have access to it.', type: 'invalid_request_error', param: null, code: 'model_not_found' } },
    { code: 'not_found', retryable: false, providerCode: 'model_not_found' },
  ],
  [
    'OpenAI 400 unsupported_value',
    400,
    { error: { message: "Unsupported value: 'temperature' does not support 0.2 with this model.", type: 'invalid_request_error', param: 'temperature', code: 'unsupported_value' } },
    { code: 'bad_request', retryable: false, providerCode: 'unsupported_value' },
  ],
  [
    'OpenAI 400 decimal_below_min_value',
    400,
    { error: { message: "Invalid 'max_tokens': decimal below minimum value.", type: 'invalid_request_error', param: 'max_tokens', code: 'decimal_below_min_value' } },
    { code: 'bad_request', retryable: false, providerCode: 'decimal_below_min_value' },
  ],
  [
    'Responses error event, nested (as sent)',
    undefined,
    { type: 'error', sequence_number: 2, error: { type: 'insufficient_quota', code: 'insufficient_quota', message: 'You exceeded your current quota.', param: null } },
    { code: 'quota_exceeded', retryable: false, providerCode: 'insufficient_quota' },
  ],
  [
    'Responses error event, top level (as documented)',
    undefined,
    { type: 'error', code: 'invalid_prompt', message: 'Invalid prompt.', param: null, sequence_number: 1 },
    { code: 'bad_request', retryable: false, providerCode: 'invalid_prompt' },
  ],
  ['Responses response.failed error', undefined, { code: 'server_error', message: 'The model failed to generate a response.' }, { code: 'provider_unavailable', retryable: true, providerCode: 'server_error' }],
  [
    'Anthropic 404 not_found_error',
    404,
    { type: 'error', error: { type: 'not_found_error', message: 'model: claude-x' }, request_id: 'req_011' },
    { code: 'not_found', retryable: false, providerCode: 'not_found_error' },
  ],
  [
    'Anthropic 400 invalid_request_error',
    400,
    { type: 'error', error: { type: 'invalid_request_error', message: 'messages: text content blocks must be non-empty' } },
    { code: 'bad_request', retryable: false, providerCode: 'invalid_request_error' },
  ],
  ['Anthropic overloaded_error event', undefined, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, { code: 'provider_unavailable', retryable: true, providerCode: 'overloaded_error' }],
  ['Anthropic 402 billing_error', 402, { type: 'error', error: { type: 'billing_error', message: 'Your credit balance is too low.' } }, { code: 'quota_exceeded', retryable: false, providerCode: 'billing_error' }],
  [
    'Gemini 404 NOT_FOUND',
    404,
    { error: { code: 404, message: 'models/gemini-x is not found for API version v1beta, or is not supported for generateContent.', status: 'NOT_FOUND' } },
    { code: 'not_found', retryable: false, providerCode: 'NOT_FOUND' },
  ],
  [
    'Gemini 429 RESOURCE_EXHAUSTED (in an array)',
    429,
    [{ error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } }],
    { code: 'rate_limited', retryable: true, providerCode: 'RESOURCE_EXHAUSTED' },
  ],
  ['Gemini in-band INTERNAL', undefined, { error: { code: 500, message: 'An internal error has occurred.', status: 'INTERNAL' } }, { code: 'provider_unavailable', retryable: true, providerCode: 'INTERNAL' }],
  [
    'Groq tool_use_failed (streamed, status_code)',
    undefined,
    { error: { message: 'Failed to call a function. Please adjust your prompt.', type: 'invalid_request_error', code: 'tool_use_failed', failed_generation: '…', status_code: 400 } },
    { code: 'bad_request', retryable: false, providerCode: 'tool_use_failed' },
  ],
  [
    'DeepSeek 402 Insufficient Balance',
    402,
    { error: { message: 'Insufficient Balance', type: 'unknown_error', param: null, code: 'invalid_request_error' } },
    { code: 'payment_required', retryable: false, providerCode: 'invalid_request_error' },
  ],
  ['OpenRouter mid-stream server_error', undefined, { error: { code: 'server_error', message: 'Provider disconnected unexpectedly' } }, { code: 'provider_unavailable', retryable: true, providerCode: 'server_error' }],
  ['OpenRouter in-band 502', undefined, { error: { code: 502, message: 'Provider returned error' } }, { code: 'provider_unavailable', retryable: true, providerCode: '502' }],
  ['Ollama string error', 404, { error: 'model "llama9" not found, try pulling it first' }, { code: 'not_found', retryable: false }],
  ['vLLM top-level error', 400, { object: 'error', message: 'max_tokens is too large', type: 'BadRequestError', param: null, code: 400 }, { code: 'bad_request', retryable: false, providerCode: 'BadRequestError' }],
  ['an error with nothing known', undefined, { error: { message: 'Something broke.' } }, { code: 'provider_error', retryable: true }],
  // Context overflow, in each protocol's words (see __fixtures__/real-traffic for the recordings).
  [
    'OpenAI 400 context_length_exceeded',
    400,
    { error: { message: "This model's maximum context length is 4097 tokens. However, your messages resulted in 4294 tokens.", type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } },
    { code: 'context_overflow', retryable: false, providerCode: 'context_length_exceeded' },
  ],
  [
    'Responses error event context_length_exceeded',
    undefined,
    { type: 'error', sequence_number: 2, error: { type: 'invalid_request_error', code: 'context_length_exceeded', message: 'Your input exceeds the context window of this model.', param: 'input' } },
    { code: 'context_overflow', retryable: false, providerCode: 'context_length_exceeded' },
  ],
  [
    'Anthropic 400 prompt is too long',
    400,
    { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 208310 tokens > 200000 maximum' } },
    { code: 'context_overflow', retryable: false, providerCode: 'invalid_request_error' },
  ],
  [
    'Anthropic 400 input length and max_tokens exceed context limit',
    400,
    { type: 'error', error: { type: 'invalid_request_error', message: 'input length and `max_tokens` exceed context limit: 199759 + 8192 > 200000, decrease input length or `max_tokens` and try again' } },
    { code: 'context_overflow', retryable: false, providerCode: 'invalid_request_error' },
  ],
  [
    'Gemini 400 input token count',
    400,
    { error: { code: 400, message: 'The input token count (132478) exceeds the maximum number of tokens allowed (131072).', status: 'INVALID_ARGUMENT' } },
    { code: 'context_overflow', retryable: false, providerCode: 'INVALID_ARGUMENT' },
  ],
  ['Ollama 400 input length', 400, { error: 'the input length exceeds the context length' }, { code: 'context_overflow', retryable: false }],
  ['Ollama in-stream input length', undefined, { error: 'the input length exceeds the context length', status: 400 }, { code: 'context_overflow', retryable: false }],
  [
    'llama.cpp 400 exceed_context_size_error',
    400,
    { error: { code: 400, message: 'request (830 tokens) exceeds the available context size (256 tokens), try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: 830, n_ctx: 256 } },
    { code: 'context_overflow', retryable: false, providerCode: 'exceed_context_size_error' },
  ],
  [
    'OpenRouter 400 maximum context length (numeric code)',
    400,
    { error: { message: "This endpoint's maximum context length is 16384 tokens. However, you requested about 94307 tokens.", code: 400, metadata: { provider_name: null } } },
    { code: 'context_overflow', retryable: false, providerCode: '400' },
  ],
  // Not an overflow: a rate limit on tokens per minute, a quota, and a 400 about something else.
  [
    'OpenAI 429 tokens per minute (not an overflow)',
    429,
    { error: { message: 'Request too large for gpt-4o: Limit 30000, Requested 50000. The input or output tokens must be reduced in order to run successfully.', type: 'tokens', code: 'rate_limit_exceeded' } },
    { code: 'rate_limited', retryable: true, providerCode: 'rate_limit_exceeded' },
  ],
  [
    'Gemini 429 input token quota (not an overflow)',
    429,
    { error: { code: 429, message: 'Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_input_token_count, limit: 250000', status: 'RESOURCE_EXHAUSTED' } },
    { code: 'rate_limited', retryable: true, providerCode: 'RESOURCE_EXHAUSTED' },
  ],
];

describe('readProviderError + classifyProviderError', () => {
  it.each(shapes)('%s', (_name, status, body, expected) => {
    const details = readProviderError(body);
    expect(details.message).toEqual(expect.any(String));
    expect(details.providerCode).toBe(expected.providerCode);
    const verdict = classifyProviderError({ status: status ?? details.status, names: details.names, message: details.message });
    expect({ code: verdict.code, retryable: verdict.retryable }).toEqual({ code: expected.code, retryable: expected.retryable });
  });

  it('retries by status when no code is known: 408, 409, 425, 429, 5xx', () => {
    for (const status of [408, 409, 425, 429, 500, 502, 503, 529]) expect(classifyProviderError({ status }).retryable).toBe(true);
    for (const status of [400, 401, 402, 403, 404, 410, 413, 422]) expect(classifyProviderError({ status }).retryable).toBe(false);
  });

  it('follows x-should-retry, except that quota, authentication, permission and invalid-request errors are never retried', () => {
    expect(classifyProviderError({ status: 503, shouldRetry: false }).retryable).toBe(false);
    expect(classifyProviderError({ status: 404, shouldRetry: true }).retryable).toBe(true);
    for (const names of [['insufficient_quota'], ['authentication_error'], ['PERMISSION_DENIED'], ['invalid_request_error']]) {
      expect(classifyProviderError({ status: 429, names, shouldRetry: true }).retryable).toBe(false);
    }
    expect(readShouldRetry(new Headers({ 'x-should-retry': 'TRUE ' }))).toBe(true);
    expect(readShouldRetry(new Headers({ 'x-should-retry': 'false' }))).toBe(false);
    expect(readShouldRetry(new Headers({ 'x-should-retry': 'maybe' }))).toBeUndefined();
  });

  it('a context overflow is never retried, whatever x-should-retry says', () => {
    expect(classifyProviderError({ status: 400, names: ['context_length_exceeded'], shouldRetry: true })).toEqual({ class: 'context_overflow', code: 'context_overflow', retryable: false });
    expect(classifyProviderError({ status: 413, message: 'prompt is too long: 5 tokens > 4 maximum', shouldRetry: true }).code).toBe('context_overflow');
    expect(classifyProviderError({ status: 400, message: 'messages: text content blocks must be non-empty' }).code).toBe('bad_request');
  });

  it('reads only own properties', () => {
    expect(readProviderError({ __proto__: { error: { code: 'insufficient_quota' } } })).toEqual({ names: [] });
  });
});
