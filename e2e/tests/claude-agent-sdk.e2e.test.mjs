// The real Claude Agent SDK (@anthropic-ai/claude-agent-sdk 0.3.333, pinned; it runs its bundled
// claude 2.1.333) in-process under createClaudeAgentSdkAdapter and createHarness: the shared Claude
// session suite (streaming, canUseTool approvals, cancel, reuse, crash) and a resume in a new query.
import { afterEach, describe, expect, it } from 'vitest';
import { childProcessesNamed } from '../acp-suite.mjs';
import { describeClaudeSession } from '../claude-session-suite.mjs';
import { adapterOptions, isolatedEnv, turn, useCliTestContext } from '../helpers.mjs';

/** The SDK's bundled `claude`, which the SDK starts as a child of this process. */
const SDK_CLAUDE = 'claude-agent-sdk-linux-x64/claude';

describeClaudeSession('Claude Agent SDK 0.3.333 in-process (real) — end to end', {
  name: 'claude-agent-sdk',
  kind: 'claude-agent-sdk.session',
  makeBackend: (context, env, options) => context.harness.createClaudeAgentSdkAdapter({ ...adapterOptions(context.home, env), ...options }),
  // In-process: the result names no pid; the live engine is the SDK's claude child.
  enginePid: () => childProcessesNamed(SDK_CLAUDE).at(-1),
});

describe('Claude Agent SDK (real) — resume in a new query', () => {
  const context = useCliTestContext('claude-agent-sdk-resume');
  const backends = [];
  afterEach(async () => {
    await Promise.all(backends.splice(0).map((adapter) => adapter.dispose()));
  });
  const harnessFor = (extra = {}) => {
    const env = isolatedEnv(context.home, { ANTHROPIC_BASE_URL: context.server.url, ANTHROPIC_API_KEY: 'sk-ant-fake-sdk', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' });
    const backend = context.harness.createClaudeAgentSdkAdapter({ ...adapterOptions(context.home, env), ...extra });
    backends.push(backend);
    return context.harness.createHarness({ backend, limits: { maxElapsedMs: 150_000 } });
  };

  it("resumes Claude's session in a new query (options.resume) after dispose left no process: same session id, the history reaches the model", async () => {
    const one = await harnessFor().runTurn(turn('sdk-resume-1', 'remember PINEAPPLE'));
    expect(one.outcome).toBe('completed');
    const continuation = context.harness.backendContinuationFrom(one);
    expect(continuation).toMatchObject({ kind: 'claude-agent-sdk.session', continuationId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    await backends.splice(0)[0].dispose();
    expect(childProcessesNamed(SDK_CLAUDE)).toHaveLength(0);
    // The second adapter is handed the SDK module itself (the `sdk` option) instead of importing it.
    const two = await harnessFor({ sdk: await import('@anthropic-ai/claude-agent-sdk') }).runTurn(turn('sdk-resume-2', 'which word?', { metadata: { backendContinuation: continuation } }));
    expect(two.outcome).toBe('completed');
    expect(context.harness.backendContinuationFrom(two).continuationId).toBe(continuation.continuationId);
    const last = context.server.requests.filter((request) => request.method === 'POST').at(-1);
    expect(last.raw).toContain('PINEAPPLE');
  });

  it('an HTTP 400 from the model fails the turn with the API error (the SDK then ends its query); the adapter takes the next turn', async () => {
    const harness = harnessFor();
    const failed = await harness.runTurn(turn('sdk-400-1', 'FAKE_HTTP_400 please'));
    expect(failed.outcome).toBe('failed');
    expect(failed.metadata.error).toMatchObject({ code: 'backend_execution_error', message: expect.stringContaining('400') });
    // The fake answers 400 to any body that holds the trigger, so the next turn is a new session.
    const next = await harness.runTurn(turn('sdk-400-2', 'say hi'));
    expect(next).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
  });
});
