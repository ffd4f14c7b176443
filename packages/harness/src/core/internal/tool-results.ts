import { toolResultSchema } from '../../shared/schemas/common-schemas.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import type { HarnessToolCall, HarnessToolError, HarnessToolResult } from '../../shared/types/tools.js';
import { errorMessage } from './finish-run.js';
import type { InterruptReason } from './turn-signal.js';

/** An error result for `call`. */
export function toolErrorResult(call: HarnessToolCall, error: HarnessToolError): HarnessToolResult {
  return { callId: call.id, toolName: call.name, status: 'error', error };
}

/** Checks what a registry returned and pins it to the call it answers. */
export function normaliseToolResult(call: HarnessToolCall, value: unknown): HarnessToolResult {
  const parsed = toolResultSchema.safeParse(value);
  if (!parsed.success) {
    return toolErrorResult(call, {
      code: 'invalid_tool_result',
      message: `The tool registry returned an unusable result for ${call.name}: ${formatIssues(parsed.error.issues)}.`,
      retryable: false,
    });
  }
  const result = parsed.data as HarnessToolResult;
  if (result.status === 'error' && result.error === undefined) {
    result.error = { code: 'tool_error', message: `${call.name} failed without details.` };
  }
  return { ...result, callId: call.id, toolName: call.name };
}

/** The result recorded for a registry that threw instead of returning an error result. */
export function thrownToolResult(call: HarnessToolCall, error: unknown): HarnessToolResult {
  return toolErrorResult(call, {
    code: 'tool_exception',
    message: `${call.name} threw: ${errorMessage(error)}`,
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
