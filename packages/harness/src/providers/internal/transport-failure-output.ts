import type { HarnessInvalidOutput } from '../../core/types/model.js';
import type { HarnessInvalidOutputKind } from '../../core/types/transcript.js';
import type { HarnessUsage } from '../../shared/types/usage.js';
import { httpErrorToInvalidOutput } from '../http/http-error-to-invalid-output.js';
import { classifyProviderError, type ProviderErrorDetails } from '../http/provider-error-class.js';
import { truncateText, type Redactor } from '../../shared/redact-secrets.js';
import type { JsonCallOutcome } from './create-provider-transport.js';

/** What every output of one model call is stamped with. */
export interface OutputContext {
  /** Provider name for metadata, e.g. `openrouter`. */
  provider: string;
  /** The configured model id. */
  model: string;
  /** Epoch milliseconds when the call started. */
  startedAt: number;
  /** Attempts the call took (1 without retries). */
  attempts: number;
  redactor: Redactor;
  now: () => number;
  /** UTF-8 size of the serialized request body, when it was measured. */
  requestBytes?: number | undefined;
}

/** The `usage` of an output: measured latency plus whatever the provider reported. */
export function outputUsage(context: OutputContext, reported: HarnessUsage = {}): HarnessUsage {
  return { ...reported, latencyMs: Math.max(0, context.now() - context.startedAt) };
}

/** Metadata every output carries: provider, model, attempts and (when measured) `requestBytes`, plus `extra`. */
export function outputMetadata(context: OutputContext, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    provider: context.provider,
    model: context.model,
    attempts: context.attempts,
    ...(context.requestBytes === undefined ? {} : { requestBytes: context.requestBytes }),
    ...extra,
  };
}

/** Builds an `invalid` output with usage and metadata; the reason is redacted. */
export function invalidOutput(
  kind: HarnessInvalidOutputKind,
  reason: string,
  context: OutputContext,
  extra: {
    retryable?: boolean;
    code?: string;
    providerCode?: string | undefined;
    httpStatus?: number | undefined;
    usage?: HarnessUsage;
    metadata?: Record<string, unknown>;
  } = {},
): HarnessInvalidOutput {
  return {
    type: 'invalid',
    kind,
    reason: context.redactor.text(reason),
    ...(extra.code === undefined ? {} : { code: extra.code }),
    ...(extra.providerCode === undefined ? {} : { providerCode: truncateText(context.redactor.text(extra.providerCode), 180) }),
    ...(extra.retryable === undefined ? {} : { retryable: extra.retryable }),
    ...(extra.httpStatus === undefined ? {} : { httpStatus: extra.httpStatus }),
    usage: outputUsage(context, extra.usage),
    metadata: outputMetadata(context, extra.metadata),
  };
}

/**
 * The output for an error the provider reported inside a 200 response (a stream event, an error
 * chunk, an `error` field of the body): a `provider_error` with our code and the provider's, whose
 * `retryable` comes from `classifyProviderError` — quota, authentication, permission and
 * invalid-request errors are never retryable, whatever shape they arrive in.
 */
export function reportedErrorOutput(
  label: string,
  details: ProviderErrorDetails,
  context: OutputContext,
  extra: { usage?: HarnessUsage; metadata?: Record<string, unknown> } = {},
): HarnessInvalidOutput {
  const verdict = classifyProviderError({ status: details.status, names: details.names, message: details.message });
  const named = details.providerCode === undefined ? '' : ` (${truncateText(details.providerCode, 180)})`;
  const message = details.message === undefined ? 'no details' : truncateText(details.message, 500);
  return invalidOutput('provider_error', `${label} reported an error${named}: ${message}`, context, {
    ...extra,
    retryable: verdict.retryable,
    code: verdict.code,
    providerCode: details.providerCode,
    httpStatus: details.status,
  });
}

/**
 * The output of a stream that ended, broke or went silent before its terminal event: a retryable
 * `provider_error` (code `stream_truncated`). The adapter repeats it at most once, and only when
 * nothing of it was streamed yet.
 */
export function truncatedStreamOutput(context: OutputContext, reason = 'The stream ended before it was complete.'): HarnessInvalidOutput {
  return invalidOutput('provider_error', reason, context, { retryable: true, code: 'stream_truncated' });
}

/**
 * Maps a transport outcome that carries no usable body to an `invalid` output: a missing key is a
 * non-retryable `provider_error` (`missing_api_key`); a failed call follows
 * `httpErrorToInvalidOutput`; a 200 body that is not JSON is a non-retryable `provider_error`
 * (`invalid_response`: sending the same request again gets the same body).
 */
export function transportFailureOutput(
  outcome: Exclude<JsonCallOutcome, { type: 'json' }>,
  context: OutputContext,
): HarnessInvalidOutput {
  switch (outcome.type) {
    case 'missing_key':
      return invalidOutput('provider_error', outcome.message, context, { retryable: false, code: 'missing_api_key' });
    case 'failed':
      return httpErrorToInvalidOutput(outcome.error, { usage: outputUsage(context), metadata: outputMetadata(context) });
    case 'invalid_json':
      return invalidOutput('provider_error', `The provider answered with a body that is not valid JSON${outcome.contentType === undefined ? '' : ` (content-type ${outcome.contentType})`}.`, context, {
        retryable: false,
        code: 'invalid_response',
        metadata: { responseExcerpt: outcome.excerpt },
      });
  }
}
