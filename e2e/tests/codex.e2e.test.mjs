// The real `codex` CLI (@openai/codex, pinned) under CodexExecutionAdapter and createHarness,
// against the loopback fake OpenAI Responses server (configured with -c overrides).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adapterOptions, cli, isolatedEnv, turn, useCliTestContext, userTexts } from '../helpers.mjs';

const context = useCliTestContext('codex', {
  prepareHome: (home) => mkdirSync(join(home, '.codex')), // codex refuses a CODEX_HOME that does not exist
});

const backend = () => {
  const env = isolatedEnv(context.home, { CODEX_HOME: join(context.home, '.codex'), FAKE_API_KEY: 'sk-fake-e2e' });
  return new context.harness.CodexExecutionAdapter({
    command: cli('codex'),
    model: 'gpt-5.5',
    config: {
      model_provider: 'fake',
      'model_providers.fake.name': 'fake',
      'model_providers.fake.base_url': `${context.server.url}/v1`,
      'model_providers.fake.env_key': 'FAKE_API_KEY',
      'model_providers.fake.wire_api': 'responses',
      check_for_update_on_startup: false,
      'features.plugins': false,
      'analytics.enabled': false,
    },
    ...adapterOptions(context.home, env),
  });
};

describe('Codex CLI 0.171.0 (real) — end to end', () => {
  it('completes a turn with the thread id as continuation', async () => {
    const result = await context.harness.createHarness({ backend: backend(), limits: { maxElapsedMs: 120_000 } }).runTurn(turn('codex-1', '-say hi'));
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
    expect(result.usage).toMatchObject({ totalInputTokens: 24, totalOutputTokens: 12 });
    expect(context.harness.backendContinuationFrom(result)).toMatchObject({ kind: 'codex.session', continuationId: expect.any(String) });
    const request = context.server.requests.find((item) => item.url === '/v1/responses');
    expect(request.headers.authorization).toBe('Bearer sk-fake-e2e');
    expect(userTexts(request).at(-1)).toBe('# Instructions\n\nAnswer briefly.\n\n# Message\n\n-say hi');
  });

  it('resumes the thread in a second turn (`exec resume <id>`), reporting only that turn’s tokens', async () => {
    const harness = context.harness.createHarness({ backend: backend(), limits: { maxElapsedMs: 120_000 } });
    const first = await harness.runTurn(turn('codex-2a', 'remember PINEAPPLE'));
    const continuation = context.harness.backendContinuationFrom(first);
    const second = await harness.runTurn(turn('codex-2b', 'which word?', { metadata: { backendContinuation: continuation } }));
    expect(second).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
    expect(context.harness.backendContinuationFrom(second).continuationId).toBe(continuation.continuationId);
    expect(second.usage).toMatchObject({ totalInputTokens: 24, totalOutputTokens: 12 });
    const last = context.server.requests.at(-1);
    expect(JSON.stringify(last.body.input)).toContain('remember PINEAPPLE');
    expect(userTexts(last).at(-1)).toBe('which word?');
  });

  it('maps an injected HTTP 400 to failed, not retryable', async () => {
    const result = await context.harness.createHarness({ backend: backend(), limits: { maxElapsedMs: 120_000 } }).runTurn(turn('codex-3', 'FAKE_HTTP_400'));
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'runtime_error' });
    expect(result.metadata.error).toMatchObject({ code: 'backend_execution_error', retryable: false, message: 'Codex failed: fake injected HTTP 400' });
  });

  it('streamTurn: the command execution live, then the agent message (exec --json)', async () => {
    const stream = context.harness.createHarness({ backend: backend(), limits: { maxElapsedMs: 120_000 } }).streamTurn(turn('codex-4', 'FAKE_SHELL[echo STREAM_OK]'));
    const events = [];
    for await (const event of stream) events.push(event);
    const result = await stream.result;
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake (after tool)' } });
    const tools = events.filter((event) => event.type === 'tool_activity');
    expect(tools).toMatchObject([
      { phase: 'started', name: 'command_execution', kind: 'command' },
      { phase: 'finished', name: 'command_execution' },
    ]);
    expect(tools[0].command).toContain('echo STREAM_OK');
    expect(events.filter((event) => event.type === 'text_delta').map((event) => event.text)).toEqual(['PONG from fake (after tool)']);
  });
});
