/** How a turn ended. */
export type HarnessOutcome =
  | 'completed'
  | 'needs_clarification'
  | 'awaiting_approval'
  | 'deferred'
  | 'failed';

/** Why a turn ended. Each maps to exactly one outcome (see `outcomeForStopReason`). */
export type HarnessStopReason =
  | 'answer_finalized'
  | 'clarification_required'
  | 'approval_required'
  | 'max_iterations_reached'
  | 'max_tool_calls_reached'
  | 'timeout_reached'
  | 'budget_reached'
  | 'cancelled'
  | 'redundant_tool_loop'
  | 'tool_unavailable'
  | 'tool_error_unrecoverable'
  | 'model_refused'
  | 'model_invalid_response'
  /** The model provider's call failed (missing key, HTTP error, quota, network, an error it reported). */
  | 'provider_error'
  | 'runtime_error'
  | 'backend_unsupported'
  | 'continuation_invalid';
