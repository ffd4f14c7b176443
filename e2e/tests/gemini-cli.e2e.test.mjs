// The real `gemini` CLI (@google/gemini-cli, pinned) under GeminiCliExecutionAdapter and
// createHarness, against the loopback fake Gemini API.
import { describe, expect, it } from 'vitest';
import { adapterOptions, cli, isolatedEnv, turn, useCliTestContext, userTexts, writeGeminiSettings } from '../helpers.mjs';

const context = useCliTestContext('gemini', { prepareHome: writeGeminiSettings });

const backend = () => {
  const env = isolatedEnv(context.home, { GEMINI_API_KEY: 'fake-gemini-key', GOOGLE_GEMINI_BASE_URL: context.server.url });
  return new context.harness.GeminiCliExecutionAdapter({ command: cli('gemini'), model: 'gemini-2.5-flash', ...adapterOptions(context.home, env) });
};

describe('Gemini CLI 0.61.0 (real) — end to end', () => {
  it('completes a turn with the chosen session id as continuation', async () => {
    const result = await context.harness.createHarness({ backend: backend(), limits: { maxElapsedMs: 120_000 } }).runTurn(turn('gemini-1', 'say hi'));
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
    expect(result.usage).toMatchObject({ totalInputTokens: 12, totalOutputTokens: 5 });
    expect(context.harness.backendContinuationFrom(result)).toMatchObject({ kind: 'gemini-cli.session', continuationId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const request = context.server.requests.find((item) => item.url.includes(':streamGenerateContent'));
    expect(request.headers['x-goog-api-key']).toBe('fake-gemini-key');
    expect(JSON.stringify(request.body.contents)).toContain('# Message\\n\\nsay hi');
  });

  it('resumes the session in a second turn (--resume)', async () => {
    const harness = context.harness.createHarness({ backend: backend(), limits: { maxElapsedMs: 120_000 } });
    const first = await harness.runTurn(turn('gemini-2a', 'remember PINEAPPLE'));
    const continuation = context.harness.backendContinuationFrom(first);
    const second = await harness.runTurn(turn('gemini-2b', 'which word?', { metadata: { backendContinuation: continuation } }));
    expect(second).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
    const last = context.server.requests.at(-1);
    expect(JSON.stringify(last.body.contents)).toContain('remember PINEAPPLE');
    expect(userTexts(last).at(-1)).toBe('which word?');
  });

  it('maps an injected HTTP 400 (exit 144, report on stderr) to failed, not retryable', async () => {
    const result = await context.harness.createHarness({ backend: backend(), limits: { maxElapsedMs: 120_000 } }).runTurn(turn('gemini-3', 'FAKE_HTTP_400'));
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'runtime_error' });
    expect(result.metadata.error).toMatchObject({ code: 'backend_execution_error', retryable: false, message: 'Gemini CLI failed: fake injected HTTP 400' });
  });

  it('streamTurn: live shell activity and message deltas (stream-json), usage and session from the stream', async () => {
    const yolo = () => {
      const env = isolatedEnv(context.home, { GEMINI_API_KEY: 'fake-gemini-key', GOOGLE_GEMINI_BASE_URL: context.server.url });
      return new context.harness.GeminiCliExecutionAdapter({ command: cli('gemini'), model: 'gemini-2.5-flash', approvalMode: 'yolo', ...adapterOptions(context.home, env) });
    };
    const stream = context.harness.createHarness({ backend: yolo(), limits: { maxElapsedMs: 120_000 } }).streamTurn(turn('gemini-4', 'FAKE_SHELL[echo STREAM_OK]'));
    const events = [];
    for await (const event of stream) events.push(event);
    const result = await stream.result;
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake (after tool)' } });
    expect(result.usage.totalInputTokens).toBeGreaterThan(0);
    expect(context.harness.backendContinuationFrom(result)).toMatchObject({ kind: 'gemini-cli.session' });
    expect(events.filter((event) => event.type === 'tool_activity')).toMatchObject([
      { phase: 'started', name: 'run_shell_command', kind: 'command', command: 'echo STREAM_OK' },
      { phase: 'finished', name: 'run_shell_command', status: 'succeeded' },
    ]);
    expect(events.filter((event) => event.type === 'text_delta').map((event) => event.text).join('')).toBe('PONG from fake (after tool)');
  });
});
