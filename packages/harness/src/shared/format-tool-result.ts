import type { HarnessToolResult } from './types/tools.js';

/** A tool result as a provider message carries it. */
export interface FormattedToolResult {
  content: string;
  isError: boolean;
}

/**
 * Renders a tool result for the model. Success: `output`, else the JSON of `structuredOutput`.
 * Error: a JSON object with an `error` field (`code`, `message`, `retryable`), so the model can
 * tell a failure from data, plus any `output` the tool still produced.
 */
export function formatToolResult(result: HarnessToolResult): FormattedToolResult {
  if (result.status === 'success') {
    const content = result.output ?? (result.structuredOutput === undefined ? '' : JSON.stringify(result.structuredOutput));
    return { content, isError: false };
  }
  const error = result.error ?? { code: 'tool_error', message: 'The tool failed.' };
  return {
    content: JSON.stringify({
      error: {
        code: error.code,
        message: error.message,
        ...(error.retryable === undefined ? {} : { retryable: error.retryable }),
      },
      ...(result.output === undefined || result.output === '' ? {} : { output: result.output }),
    }),
    isError: true,
  };
}

/** The result given for a call that has no recorded result (it never ran). */
export function missingToolResult(): FormattedToolResult {
  return {
    content: JSON.stringify({ error: { code: 'not_executed', message: 'This tool call was not executed.' } }),
    isError: true,
  };
}
