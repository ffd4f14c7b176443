import type { HarnessToolCall, HarnessToolResult } from '../../../shared/types/tools.js';

/** A successful workspace result: text for the model plus structured data with `sourcePath`. */
export function successResult(
  call: HarnessToolCall,
  output: string,
  structuredOutput: Record<string, unknown> & { sourcePath: string },
): HarnessToolResult {
  return { callId: call.id, toolName: call.name, status: 'success', output, structuredOutput };
}

/** A failed workspace result. `structuredOutput` carries the `sourcePath` when the path was valid. */
export function errorResult(
  call: HarnessToolCall,
  code: string,
  message: string,
  options: { retryable: boolean; sourcePath?: string; metadata?: Record<string, unknown> },
): HarnessToolResult {
  const result: HarnessToolResult = {
    callId: call.id,
    toolName: call.name,
    status: 'error',
    error: { code, message, retryable: options.retryable },
  };
  if (options.metadata !== undefined) result.error!.metadata = options.metadata;
  if (options.sourcePath !== undefined) {
    result.structuredOutput = { sourcePath: options.sourcePath, ...(options.metadata ?? {}) };
  }
  return result;
}

/**
 * The `invalid_input` result for a field the model got wrong; retryable so it can correct itself.
 * `sourcePath` is given when the call's path itself was valid.
 */
export function invalidInputResult(call: HarnessToolCall, field: string, message: string, sourcePath?: string): HarnessToolResult {
  return errorResult(call, 'invalid_input', `Invalid input for ${call.name}: ${message}`, {
    retryable: true,
    metadata: { field },
    ...(sourcePath === undefined ? {} : { sourcePath }),
  });
}

/** The result for a call whose turn was cancelled or timed out while the workspace was working. */
export function cancelledResult(call: HarnessToolCall, sourcePath: string | undefined): HarnessToolResult {
  return errorResult(call, 'cancelled', `${call.name} was cancelled before it finished.`, {
    retryable: true,
    ...(sourcePath === undefined ? {} : { sourcePath }),
  });
}
