import { describeError } from '../shared/describe-error.js';
import { toolResultSchema } from '../shared/schemas/common-schemas.js';
import { formatIssues } from '../shared/schemas/format-issues.js';
import type { HarnessToolCall, HarnessToolError, HarnessToolResult } from '../shared/types/tools.js';
import { plainToolResultText } from '../shared/plain-tool-result.js';
import { detachValue, MAX_DETACHED_VALUE_BYTES, type DetachedValue } from './continuation/detach-value.js';
import type { InterruptReason } from './internal/turn-signal.js';

/** Longest text a result may carry past the fast path; longer ones take the checked path (and its size limit). */
const MAX_PLAIN_TEXT_LENGTH = MAX_DETACHED_VALUE_BYTES - 1_024;

/** An error result for `call`. */
export function toolErrorResult(call: HarnessToolCall, error: HarnessToolError): HarnessToolResult {
  return { callId: call.id, toolName: call.name, status: 'error', error };
}

/**
 * Checks what a registry returned, detaches it (a plain-JSON copy) and pins it to the call it
 * answers. Never throws: an unusable or unreadable value becomes an `invalid_tool_result` error.
 */
export function normaliseToolResult(call: HarnessToolCall, value: unknown): HarnessToolResult {
  // A frozen text result made by this package's own registry is plain already: no check, no copy.
  const text = plainToolResultText(value);
  if (text !== undefined && text.length <= MAX_PLAIN_TEXT_LENGTH) {
    return { callId: call.id, toolName: call.name, status: 'success', output: text };
  }
  let copied: DetachedValue<HarnessToolResult>;
  try {
    const parsed = toolResultSchema.safeParse(value);
    copied = parsed.success
      ? detachValue(parsed.data as HarnessToolResult)
      : { ok: false, reason: formatIssues(parsed.error.issues) };
  } catch (error) {
    copied = { ok: false, reason: `it could not be read (${describeError(error, 200)})` };
  }
  if (!copied.ok) {
    return toolErrorResult(call, {
      code: 'invalid_tool_result',
      message: `The tool registry returned an unusable result for ${call.name}: ${copied.reason}.`,
      retryable: false,
    });
  }
  const result = copied.value;
  if (result.status === 'error' && result.error === undefined) {
    result.error = { code: 'tool_error', message: `${call.name} failed without details.` };
  }
  return { ...result, callId: call.id, toolName: call.name };
}

/** The result recorded for a registry that threw instead of returning an error result. */
export function thrownToolResult(call: HarnessToolCall, error: unknown): HarnessToolResult {
  return toolErrorResult(call, {
    code: 'tool_exception',
    message: `${call.name} threw: ${describeError(error)}`,
    retryable: false,
  });
}

/** The result recorded for a call the turn abandoned while it was running. */
export function interruptedToolResult(call: HarnessToolCall, reason: InterruptReason): HarnessToolResult {
  return toolErrorResult(call, {
    code: 'tool_interrupted',
    message: `${call.name} was ${reason === 'timeout' ? 'stopped by the turn time limit' : 'cancelled'} before it finished; whether it had any effect is unknown.`,
    retryable: true,
  });
}

/** The result recorded for a call that never ran because the turn paused first. */
export function skippedToolResult(call: HarnessToolCall): HarnessToolResult {
  return toolErrorResult(call, {
    code: 'tool_skipped',
    message: `${call.name} was not run because the turn paused before reaching it.`,
    retryable: true,
  });
}

/** The result the model sees for a tool that does not exist (or is not allowed). */
export function unknownToolResult(call: HarnessToolCall, available: readonly string[]): HarnessToolResult {
  const names = available.length === 0 ? 'none' : available.join(', ');
  return toolErrorResult(call, {
    code: 'tool_unavailable',
    message: `There is no tool named "${call.name}". Available tools: ${names}.`,
    retryable: true,
  });
}

/** The result the model sees for a call the user rejected. */
export function rejectedToolResult(call: HarnessToolCall): HarnessToolResult {
  return toolErrorResult(call, {
    code: 'approval_rejected',
    message: `The user rejected running ${call.name}. Do not retry it without asking.`,
    retryable: true,
  });
}
