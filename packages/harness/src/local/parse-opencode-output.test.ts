// The opencode parser on the event shapes measured from `opencode run --format json` 1.18.33.
import { describe, expect, it } from 'vitest';
import { parseOpenCodeOutput } from './parse-opencode-output.js';

const lines = (...events: object[]) => events.map((event) => JSON.stringify({ sessionID: 'ses_1', timestamp: 1, ...event })).join('\n');

describe('parseOpenCodeOutput', () => {
  it('answers with the text of the last step that has text, and sums tokens and cost', () => {
    const stdout = lines(
      { type: 'step_start', part: { type: 'step-start' } },
      { type: 'text', part: { type: 'text', text: 'Let me look.' } },
      { type: 'tool_use', part: { type: 'tool', tool: 'bash' } },
      { type: 'step_finish', part: { reason: 'tool-calls', tokens: { input: 12, output: 6, reasoning: 0, cache: { read: 1, write: 2 } }, cost: 0.5 } },
      { type: 'step_start', part: { type: 'step-start' } },
      { type: 'text', part: { type: 'text', text: 'PONG ' } },
      { type: 'text', part: { type: 'text', text: 'done' } },
      { type: 'step_finish', part: { reason: 'stop', tokens: { input: 3, output: 4, reasoning: 1 }, cost: 0.25 } },
    );
    expect(parseOpenCodeOutput(stdout)).toEqual({
      status: 'completed',
      text: 'PONG done',
      usage: { inputTokens: 18, outputTokens: 11, costUnits: 0.75 },
      continuation: { kind: 'opencode.session', continuationId: 'ses_1', state: {} },
      metadata: { sessionId: 'ses_1', toolCallCount: 1 },
    });
  });

  it('keeps the earlier text when the last step has none', () => {
    const stdout = lines(
      { type: 'step_start' },
      { type: 'text', part: { text: 'answer' } },
      { type: 'step_finish', part: {} },
      { type: 'step_start' },
      { type: 'step_finish', part: {} },
    );
    expect(parseOpenCodeOutput(stdout)?.text).toBe('answer');
  });

  it('reads an APIError event as measured (HTTP 400, isRetryable false)', () => {
    const stdout = lines({ type: 'error', error: { name: 'APIError', data: { message: 'fake injected HTTP 400', statusCode: 400, isRetryable: false } } });
    expect(parseOpenCodeOutput(stdout)).toMatchObject({
      status: 'failed',
      error: { message: 'opencode failed: fake injected HTTP 400', retryable: false, metadata: { name: 'APIError', status: 400 } },
    });
  });

  it('falls back to the status or the message for retryability, and returns null for no outcome', () => {
    expect(parseOpenCodeOutput(lines({ type: 'error', error: { name: 'APIError', data: { message: 'x', statusCode: 503 } } }))?.error?.retryable).toBe(true);
    expect(parseOpenCodeOutput(lines({ type: 'error', error: { name: 'UnknownError', message: 'socket hang up' } }))?.error?.retryable).toBe(true);
    expect(parseOpenCodeOutput(lines({ type: 'step_start' }))).toBeNull();
  });
});
