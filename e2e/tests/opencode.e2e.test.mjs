// The real `opencode` CLI (opencode-linux-x64, pinned) under OpenCodeExecutionAdapter and createHarness,
// against the loopback fake OpenAI Chat Completions server. (In a fresh home opencode also looks
// up two packuments on the npm registry; that fails silently without network.)
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { adapterOptions, opencodeBinary, opencodeEnv, turn, useCliTestContext, userTexts } from '../helpers.mjs';

const context = useCliTestContext('opencode');

const backend = () => new context.harness.OpenCodeExecutionAdapter({ command: opencodeBinary, ...adapterOptions(context.home, opencodeEnv(context.home, context.server.url)) });
const chatRequests = () => context.server.requests.filter((request) => request.url === '/v1/chat/completions' && (request.body.tools?.length ?? 0) > 0);

// Only linux-x64 builds of opencode are installable here (see helpers.mjs).
describe.skipIf(!existsSync(opencodeBinary))('opencode 1.18.33 (real) — end to end', () => {
  it('completes a turn, then resumes the session in a second turn (--session)', async () => {
    const harness = context.harness.createHarness({ backend: backend(), limits: { maxElapsedMs: 120_000 } });
    const first = await harness.runTurn(turn('opencode-1a', '-remember PINEAPPLE'));
    expect(first).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
    expect(first.usage).toMatchObject({ totalInputTokens: 12, totalOutputTokens: 6 });
    const continuation = context.harness.backendContinuationFrom(first);
    expect(continuation).toMatchObject({ kind: 'opencode.session', continuationId: expect.stringMatching(/^ses_/) });
    expect(userTexts(chatRequests()[0]).at(-1)).toBe('# Instructions\n\nAnswer briefly.\n\n# Message\n\n-remember PINEAPPLE');

    const second = await harness.runTurn(turn('opencode-1b', 'which word?', { metadata: { backendContinuation: continuation } }));
    expect(second).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
    expect(context.harness.backendContinuationFrom(second).continuationId).toBe(continuation.continuationId);
    const last = chatRequests().at(-1);
    expect(JSON.stringify(last.body.messages)).toContain('-remember PINEAPPLE');
    expect(userTexts(last).at(-1)).toBe('which word?');
  });

  it('maps an injected HTTP 400 to failed, not retryable', async () => {
    const result = await context.harness.createHarness({ backend: backend(), limits: { maxElapsedMs: 120_000 } }).runTurn(turn('opencode-2', 'FAKE_HTTP_400'));
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'runtime_error' });
    expect(result.metadata.error).toMatchObject({ code: 'backend_execution_error', retryable: false, message: 'opencode failed: fake injected HTTP 400' });
  });
});
