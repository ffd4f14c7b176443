import type { HarnessStopReason } from '../types/outcome.js';
import type { HarnessResultMetadata } from '../types/result.js';
import type { HarnessResultError } from '../types/result-error.js';

const defaultSources: Partial<Record<HarnessStopReason, string>> = Object.assign(Object.create(null) as object, {
  redundant_tool_loop: 'model',
  tool_unavailable: 'model',
  tool_error_unrecoverable: 'tool',
  model_refused: 'model',
  model_invalid_response: 'model',
  provider_error: 'model',
  runtime_error: 'runtime',
  backend_unsupported: 'backend',
  continuation_invalid: 'continuation',
});

/**
 * The first-class `error` of a failed result: the fault recorded in `metadata.error` (code,
 * message, source, retryable, and the provider's code — also where a backend's `ExecutionError`
 * keeps it, in `metadata.providerCode`), completed from the stop reason where a field is missing.
 */
export function resultError(
  stopReason: HarnessStopReason,
  metadata: HarnessResultMetadata | undefined,
  assistantText: string | undefined,
): HarnessResultError {
  const recorded = metadata?.error;
  const message =
    recorded?.message !== undefined && recorded.message !== ''
      ? recorded.message
      : stopReason === 'model_refused' && assistantText !== undefined && assistantText !== ''
        ? assistantText
        : `The turn failed (${stopReason}).`;
  const providerCode = recordedProviderCode(recorded);
  return {
    code: recorded?.code ?? stopReason,
    message,
    retryable: recorded?.retryable ?? false,
    source: recorded?.source ?? defaultSources[stopReason] ?? 'runtime',
    ...(providerCode === undefined ? {} : { providerCode }),
  };
}

function recordedProviderCode(recorded: (HarnessResultMetadata['error'] & { metadata?: unknown }) | undefined): string | undefined {
  const own = recorded?.providerCode;
  if (typeof own === 'string' && own !== '') return own;
  const nested = recorded?.metadata;
  const fromMetadata = typeof nested === 'object' && nested !== null ? (nested as { providerCode?: unknown }).providerCode : undefined;
  return typeof fromMetadata === 'string' && fromMetadata !== '' ? fromMetadata.slice(0, 200) : undefined;
}
