import { describe, expect, it } from 'vitest';
import { formatToolResult, missingToolResult } from './format-tool-result.js';

describe('formatToolResult', () => {
  it('uses output, else the JSON of structuredOutput', () => {
    expect(formatToolResult({ callId: 'c', toolName: 't', status: 'success', output: 'text', structuredOutput: { a: 1 } })).toEqual({ content: 'text', isError: false });
    expect(formatToolResult({ callId: 'c', toolName: 't', status: 'success', structuredOutput: { a: 1 } })).toEqual({ content: '{"a":1}', isError: false });
    expect(formatToolResult({ callId: 'c', toolName: 't', status: 'success' })).toEqual({ content: '', isError: false });
  });

  it('marks errors with an error field and keeps partial output', () => {
    const formatted = formatToolResult({ callId: 'c', toolName: 't', status: 'error', output: 'partial', error: { code: 'timeout', message: 'Too slow.' } });
    expect(formatted.isError).toBe(true);
    expect(JSON.parse(formatted.content)).toEqual({ error: { code: 'timeout', message: 'Too slow.' }, output: 'partial' });
    expect(JSON.parse(formatToolResult({ callId: 'c', toolName: 't', status: 'error' }).content).error.code).toBe('tool_error');
    expect(missingToolResult().isError).toBe(true);
  });
});
