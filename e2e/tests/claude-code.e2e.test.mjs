// The real `claude` CLI (@anthropic-ai/claude-code, pinned) under ClaudeCodeExecutionAdapter and
// createHarness, against the loopback fake Anthropic Messages server.
import { describe, expect, it } from 'vitest';
import { adapterOptions, cli, isolatedEnv, turn, useCliTestContext, userTexts } from '../helpers.mjs';

const context = useCliTestContext('claude');

const backend = (options = {}) => {
  const env = isolatedEnv(context.home, {
    ANTHROPIC_BASE_URL: context.server.url,
    ANTHROPIC_API_KEY: 'sk-ant-fake-e2e',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  });
  return new context.harness.ClaudeCodeExecutionAdapter({ command: cli('claude'), ...adapterOptions(context.home, env), ...options });
};

describe('Claude Code CLI 2.1.332 (real) — end to end', () => {
  it('completes a turn: answer, usage, cost and the session continuation', async () => {
    const harness = context.harness.createHarness({ backend: backend(), limits: { maxElapsedMs: 120_000 } });
    const result = await harness.runTurn(turn('claude-1', '-starts with a dash, say hi'));
    expect(result).toMatchObject({ outcome: 'completed', stopReason: 'answer_finalized', assistantMessage: { text: 'PONG from fake' } });
    expect(result.usage).toMatchObject({ totalInputTokens: 12, totalOutputTokens: 5, modelCalls: 1 });
    expect(result.usage.totalCostUnits).toBeGreaterThan(0);
    const continuation = context.harness.backendContinuationFrom(result);
    expect(continuation).toMatchObject({ kind: 'claude-code.session', continuationId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    // The prompt arrived on stdin, whole; the instructions were appended to the system prompt.
    const [request] = context.server.requests;
    expect(request.url).toBe('/v1/messages?beta=true');
    expect(request.headers['x-api-key']).toBe('sk-ant-fake-e2e');
    expect(userTexts(request).at(-1)).toContain('-starts with a dash, say hi');
    expect(JSON.stringify(request.body.system)).toContain('Answer briefly.');
  });

  it('resumes the session in a second turn (--resume): the model sees the first exchange', async () => {
    const harness = context.harness.createHarness({ backend: backend(), limits: { maxElapsedMs: 120_000 } });
    const first = await harness.runTurn(turn('claude-2a', 'remember the word PINEAPPLE'));
    const continuation = context.harness.backendContinuationFrom(first);
    const second = await harness.runTurn(turn('claude-2b', 'which word?', { metadata: { backendContinuation: continuation } }));
    expect(second).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
    expect(context.harness.backendContinuationFrom(second)?.continuationId).toBe(continuation.continuationId);
    const last = context.server.requests.at(-1);
    const roles = last.body.messages.map((message) => message.role);
    expect(roles).toContain('assistant');
    expect(JSON.stringify(last.body.messages)).toContain('remember the word PINEAPPLE');
    expect(userTexts(last).at(-1)).toBe('which word?');
    // Claude reports the session's cumulated cost; the turn reports only its own.
    expect(second.usage.totalCostUnits).toBeCloseTo(first.usage.totalCostUnits, 9);
  });

  it('maps an injected HTTP 400 to failed (not completed), not retryable', async () => {
    const result = await context.harness.createHarness({ backend: backend(), limits: { maxElapsedMs: 120_000 } }).runTurn(turn('claude-3', 'FAKE_HTTP_400 please'));
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'runtime_error' });
    expect(result.metadata.error).toMatchObject({ code: 'backend_execution_error', retryable: false, source: 'backend:claude-code' });
    expect(result.metadata.error.message).toMatch(/400/);
  });

  it('times out a hanging model call, then resumeTurn continues the same session', async () => {
    const harness = context.harness.createHarness({ backend: backend({ timeoutMs: 8_000 }), limits: { maxElapsedMs: 120_000 } });
    const paused = await harness.runTurn(turn('claude-4', 'FAKE_HANG first'));
    expect(paused).toMatchObject({ outcome: 'deferred', stopReason: 'timeout_reached' });
    expect(context.server.requests.length).toBeGreaterThan(0);
    const sessionId = paused.continuation.state.backendContinuation.continuationId;
    const resumed = await harness.resumeTurn(paused.continuation, { type: 'deferred' });
    expect(resumed).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
    expect(context.harness.backendContinuationFrom(resumed)?.continuationId).toBe(sessionId);
    expect(JSON.stringify(context.server.requests.at(-1).body.messages)).toContain('FAKE_HANG first');
  });

  it('streams text deltas (stream-json with partial messages)', async () => {
    const deltas = [];
    const result = await context.harness
      .createHarness({ backend: backend({ onTextDelta: (text) => deltas.push(text) }), limits: { maxElapsedMs: 120_000 } })
      .runTurn(turn('claude-5', 'stream please'));
    expect(result.assistantMessage?.text).toBe('PONG from fake');
    expect(deltas.join('')).toBe('PONG from fake');
  });

  it('streamTurn: live Bash activity and partial-message deltas (stream-json), the answer not repeated', async () => {
    const harness = context.harness.createHarness({ backend: backend({ allowedTools: ['Bash'] }), limits: { maxElapsedMs: 120_000 } });
    const stream = harness.streamTurn(turn('claude-6', 'FAKE_SHELL[echo STREAM_OK]'));
    const events = [];
    for await (const event of stream) events.push(event);
    const result = await stream.result;
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake (after tool)' } });
    const tools = events.filter((event) => event.type === 'tool_activity');
    expect(tools).toMatchObject([
      { phase: 'started', name: 'Bash', kind: 'command', command: 'echo STREAM_OK' },
      { phase: 'finished', name: 'Bash', status: 'succeeded' },
    ]);
    expect(tools[0].toolCallId).toBe(tools[1].toolCallId);
    const deltas = events.filter((event) => event.type === 'text_delta');
    expect(deltas.map((event) => event.text).join('')).toBe('PONG from fake (after tool)');
    expect(events.findIndex((event) => event.type === 'tool_activity')).toBeLessThan(events.findIndex((event) => event.type === 'text_delta'));
  });
});
