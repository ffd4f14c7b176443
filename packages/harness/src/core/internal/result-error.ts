import type { HarnessStopReason } from '../types/outcome.js';
import type { HarnessResultError, HarnessResultMetadata } from '../types/result.js';

const defaultSources: Partial<Record<HarnessStopReason, string>> = Object.assign(Object.create(null) as object, {
  redundant_tool_loop: 'model',
  tool_unavailable: 'model',
  tool_error_unrecoverable: 'tool',
  model_refused: 'model',
  model_invalid_response: 'model',
  runtime_error: 'runtime',
  backend_unsupported: 'backend',
  continuation_invalid: 'continuation',
});

/**
 * The first-class `error` of a failed result: the fault recorded in `metadata.error` (code,
 * message, source, retryable), completed from the stop reason where a field is missing.
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
  return {
    code: recorded?.code ?? stopReason,
    message,
    retryable: recorded?.retryable ?? false,
    source: recorded?.source ?? defaultSources[stopReason] ?? 'runtime',
  };
}
