import type { HarnessOutcome, HarnessStopReason } from './types/outcome.js';
import type { HarnessResult } from './types/result.js';
import type { HarnessResultError } from './types/result-error.js';

// Null-prototype tables: a stop reason read from outside (say `constructor`) finds nothing inherited.
const outcomes: Readonly<Record<HarnessStopReason, HarnessOutcome>> = /* @__PURE__ */ table({
  answer_finalized: 'completed',
  clarification_required: 'needs_clarification',
  approval_required: 'awaiting_approval',
  max_iterations_reached: 'deferred',
  max_tool_calls_reached: 'deferred',
  timeout_reached: 'deferred',
  budget_reached: 'deferred',
  cancelled: 'deferred',
  redundant_tool_loop: 'failed',
  tool_unavailable: 'failed',
  tool_error_unrecoverable: 'failed',
  model_refused: 'failed',
  model_invalid_response: 'failed',
  provider_error: 'failed',
  runtime_error: 'failed',
  backend_unsupported: 'failed',
  continuation_invalid: 'failed',
});

/* @__NO_SIDE_EFFECTS__ */
function table<T extends object>(entries: T): Readonly<T> {
  return Object.freeze(Object.assign(Object.create(null) as T, entries));
}

/** Every stop reason, in table order. */
export const HARNESS_STOP_REASONS = /* @__PURE__ */ Object.freeze(Object.keys(outcomes) as HarnessStopReason[]);

/**
 * The one outcome each stop reason belongs to (DESIGN.md §4). A value that is not a stop reason
 * (say, read from an untrusted store) gives `failed`.
 */
export function outcomeForStopReason(stopReason: HarnessStopReason): HarnessOutcome {
  return outcomes[stopReason] ?? 'failed';
}

const messages: Readonly<Record<HarnessStopReason, string>> = /* @__PURE__ */ table({
  answer_finalized: 'Done.',
  clarification_required: 'I need a little more information before I can answer.',
  approval_required: 'This needs your approval before I can continue.',
  max_iterations_reached: 'I ran out of steps before finishing; I can continue where I stopped.',
  max_tool_calls_reached: 'I ran out of tool calls before finishing; I can continue where I stopped.',
  timeout_reached: 'This took longer than allowed; I can continue where I stopped.',
  budget_reached: 'This reached its cost budget; I can continue if you allow more.',
  cancelled: 'This was cancelled before it finished.',
  redundant_tool_loop: 'I got stuck repeating the same lookup, so I stopped.',
  tool_unavailable: 'A tool I needed is not available here, so I could not finish.',
  tool_error_unrecoverable: 'A tool I needed failed, so I could not finish.',
  model_refused: 'I can’t help with that request.',
  model_invalid_response: 'I had trouble producing a reply. Please try again.',
  provider_error: 'The model service could not answer. Please try again in a moment.',
  runtime_error: 'Something went wrong on my side. Please try again.',
  backend_unsupported: 'The configured assistant backend cannot handle this request.',
  continuation_invalid: 'I could not resume the earlier request; please ask again.',
});

const configurationCodes = new Set([
  'missing_api_key',
  'authentication_failed',
  'permission_denied',
  'payment_required',
  'quota_exceeded',
  'not_found',
  'bad_request',
  'provider_redirect',
]);

const errorMessages = new Map<string, string>([
  ['input_too_large', 'This request is too large for me to handle in one turn.'],
  ['request_too_large', 'This request is too large for me to handle in one turn.'],
  ['rate_limited', 'The model service is busy right now. Please try again in a moment.'],
  ['attachment_too_large', 'An attachment is too large for me to take in one turn.'],
  ['too_many_attachments', 'This has more attachments than I can take in one turn.'],
  ['too_many_history_messages', 'This conversation is too long for me to take in one turn.'],
]);

const notRetryable: Partial<Record<HarnessStopReason, string>> = /* @__PURE__ */ table({
  model_invalid_response: 'I had trouble producing a reply.',
  provider_error: 'The model service could not answer.',
  runtime_error: 'Something went wrong on my side.',
});

/**
 * A short, honest sentence for the end user explaining why the turn stopped. Given a whole
 * result, a failure also reads its `error`: a configuration or credentials problem says so instead
 * of inviting a retry, and a fault that a retry cannot fix does not suggest one.
 * For `completed` results prefer `result.assistantMessage`.
 */
export function stopReasonToUserMessage(
  result: (Pick<HarnessResult, 'stopReason'> & { error?: Pick<HarnessResultError, 'code' | 'retryable'> | undefined }) | HarnessStopReason,
): string {
  const stopReason = typeof result === 'string' ? result : result.stopReason;
  const error = typeof result === 'string' ? undefined : result.error;
  if (error !== undefined && outcomeForStopReason(stopReason) === 'failed') {
    if (configurationCodes.has(error.code)) {
      return 'I can’t answer right now because the assistant is not set up correctly; trying again won’t help until it is fixed.';
    }
    const specific = errorMessages.get(error.code);
    if (specific !== undefined) return specific;
    if (!error.retryable) {
      const message = notRetryable[stopReason];
      if (message !== undefined) return message;
    }
  }
  return messages[stopReason] ?? 'Something went wrong on my side. Please try again.';
}
