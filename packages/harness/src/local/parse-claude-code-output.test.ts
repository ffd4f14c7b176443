// The Claude Code parser on stdout recorded from the real `claude` 2.1.332 (see __fixtures__/recorded).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture } from './__fixtures__/test-helpers.js';
import { parseClaudeCodeOutput } from './parse-claude-code-output.js';

const recorded = (name: string) => readFileSync(fixture(`recorded/${name}`), 'utf8');

describe('parseClaudeCodeOutput (recorded real output)', () => {
  it('reads a successful --output-format json result', () => {
    const parsed = parseClaudeCodeOutput(recorded('claude-success.json'));
    expect(parsed).toMatchObject({
      status: 'completed',
      text: 'PONG from fake',
      usage: { inputTokens: 12, outputTokens: 5, costUnits: expect.closeTo(0.000148, 9) },
      continuation: { kind: 'claude-code.session', continuationId: expect.any(String), state: { totalCostUsd: expect.closeTo(0.000148, 9) } },
      metadata: { subtype: 'success', numTurns: 1, stopReason: 'end_turn', terminalReason: 'completed' },
    });
  });

  it('reads the is_error result of an HTTP 400 as a failure (subtype is still "success")', () => {
    const parsed = parseClaudeCodeOutput(recorded('claude-http-400.json'));
    expect(parsed).toMatchObject({
      status: 'failed',
      error: { code: 'backend_execution_error', message: 'Claude Code failed: API Error: 400 fake injected HTTP 400', retryable: false },
      metadata: { apiErrorStatus: 400 },
    });
    expect(parsed?.text).toBeUndefined();
  });

  it('reads the last result line of stream-json', () => {
    expect(parseClaudeCodeOutput(recorded('claude-stream.jsonl'))).toMatchObject({ status: 'completed', text: 'PONG from fake' });
  });

  it('turns the session-cumulative cost into this run’s cost when resuming the same session', () => {
    const first = parseClaudeCodeOutput(recorded('claude-success.json'))!;
    const cumulative = recorded('claude-success.json').replace(/"total_cost_usd":[0-9.e-]+/, '"total_cost_usd":0.0005');
    const second = parseClaudeCodeOutput(cumulative, { continuation: first.continuation! });
    expect(second?.usage?.costUnits).toBeCloseTo(0.0005 - 0.000148, 9);
    expect(second?.continuation?.state).toEqual({ totalCostUsd: 0.0005 });
  });

  it('maps error subtypes: max turns is deferred, budget is budget_exceeded, others fail', () => {
    const base = { type: 'result', is_error: true, session_id: 's1' };
    expect(parseClaudeCodeOutput(JSON.stringify({ ...base, subtype: 'error_max_turns' }))).toMatchObject({ status: 'deferred', error: { retryable: true } });
    expect(parseClaudeCodeOutput(JSON.stringify({ ...base, subtype: 'error_max_budget_usd' }))).toMatchObject({ status: 'failed', error: { code: 'budget_exceeded' } });
    expect(parseClaudeCodeOutput(JSON.stringify({ ...base, subtype: 'error_during_execution' }))).toMatchObject({
      status: 'failed',
      error: { message: 'Claude Code failed: Claude Code ended with error_during_execution.', retryable: false },
    });
    expect(parseClaudeCodeOutput(JSON.stringify({ ...base, subtype: 'success', result: 'Request timed out' }))).toMatchObject({ error: { retryable: true } });
  });

  it('passes structured output (--json-schema) through and tolerates odd field types', () => {
    const parsed = parseClaudeCodeOutput(JSON.stringify({ type: 'result', subtype: 'success', result: 'ok', structured_output: { n: 1 }, num_turns: 'many', usage: null }));
    expect(parsed).toMatchObject({ status: 'completed', text: 'ok', structured: { n: 1 } });
  });

  it('returns null without a result object', () => {
    expect(parseClaudeCodeOutput('')).toBeNull();
    expect(parseClaudeCodeOutput('{"type":"assistant"}')).toBeNull();
    expect(parseClaudeCodeOutput('Error: something broke')).toBeNull();
  });
});
