// GooseExecutionAdapter against a fake `goose` that prints the documented stream-json shapes
// (goose-cli session/mod.rs, conversation/message.rs; see __fixtures__/fake-goose.mjs). goose
// cannot be installed here: it is on no registry this machine reaches.
import { describe, expect, it } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import type { ExecutionStreamEvent } from '../execution/types.js';
import { abortAt, UNANSWERED_MODEL_URL, useFakeCli } from './__fixtures__/fake-cli-rig.js';
import { executionRequest, isAlive, turnInput } from './__fixtures__/test-helpers.js';
import { backendContinuationFrom } from './backend-continuation.js';
import { createGooseAdapter, GooseExecutionAdapter, type GooseAdapterOptions } from './goose-adapter.js';
import { createLocalBackendAdapter } from './create-local-backend-adapter.js';
import { parseGooseOutput } from './parse-goose-output.js';

const cli = useFakeCli({
  executable: 'goose',
  script: 'fake-goose.mjs',
  create: ({ command, env }, options: GooseAdapterOptions = {}) => new GooseExecutionAdapter({ command, env: env(), killGraceMs: 200, ...options }),
});
const adapter = cli.adapter;

describe('GooseExecutionAdapter', () => {
  it('runs `goose run --output-format stream-json -i -` with the prompt on stdin, a named session, a private HOME and GOOSE_MODE=approve', async () => {
    const result = await adapter({ model: 'fake-model' }).execute(executionRequest('hello'));
    const [call] = cli.calls();
    const name = call!.argv[call!.argv.indexOf('--name') + 1]!;
    expect(call!.argv).toEqual(['run', '--output-format', 'stream-json', '-i', '-', '--name', name, '--model', 'fake-model', '--with-builtin', 'developer']);
    expect(call!.stdin).toBe('# Instructions\n\nBe brief.\n\n# Message\n\nhello');
    expect(call!.env['GOOSE_MODE']).toBe('approve');
    expect(call!.env['HOME']).not.toBe(process.env['HOME']);
    expect(result).toMatchObject({
      backendId: 'goose',
      status: 'completed',
      output: { text: 'PONG from fake goose (message 1)' },
      usage: { inputTokens: 12, outputTokens: 6 },
      continuation: { kind: 'goose.session', continuationId: name },
    });
  });

  it('resumes the named session with --resume --name in a new turn', async () => {
    const harness = createHarness({ backend: adapter() });
    const first = await harness.runTurn(turnInput('first'));
    const name = backendContinuationFrom(first)!.continuationId!;
    const second = await harness.runTurn(turnInput('second', { turnId: 't2', metadata: { backendContinuation: backendContinuationFrom(first) } }));
    expect(second.assistantMessage?.text).toBe('PONG from fake goose (message 2)');
    const resumed = cli.calls()[1]!;
    expect(resumed.argv.slice(5, 8)).toEqual(['--resume', '--name', name]);
    expect(resumed.stdin).toBe('second');
  });

  it('is fail-safe by default: a tool that needs confirmation stops the run as failed, nothing runs', async () => {
    const result = await adapter().execute(executionRequest('FAKE_TOOL'));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: false, metadata: { approvalRequired: true } } });
    expect(result.error?.message).toMatch(/^goose stopped: a tool needs approval.*GooseMode::Approve.*`mode` option/);
  });

  it("runs the tool loop with mode: 'auto' (the opt-in), streaming text and tool activity", async () => {
    const events: ExecutionStreamEvent[] = [];
    const result = await adapter({ mode: 'auto' }).execute(executionRequest('FAKE_TOOL'), { onEvent: (event) => events.push(event) });
    expect(cli.calls()[0]!.env['GOOSE_MODE']).toBe('auto');
    expect(result).toMatchObject({ status: 'completed', output: { text: 'DONE after tool: TOOL_OK' }, metadata: { toolCallCount: 1 } });
    expect(events).toEqual([
      { type: 'text_delta', text: 'Let me check.' },
      { type: 'tool_activity', phase: 'started', toolCallId: 'call_1', name: 'developer__shell', kind: 'command', command: 'echo TOOL_OK' },
      { type: 'tool_activity', phase: 'finished', toolCallId: 'call_1', name: 'developer__shell', kind: 'command', status: 'succeeded' },
      { type: 'text_delta', text: 'DONE after tool: ' },
      { type: 'text_delta', text: 'TOOL_OK' },
    ]);
  });

  it('points goose at an OpenAI-compatible endpoint by environment; the key never reaches argv', async () => {
    const key = 'sk-goose-secret-123456';
    await adapter({ provider: { baseUrl: UNANSWERED_MODEL_URL, model: 'fake-model', apiKey: key } }).execute(executionRequest('hello'));
    const [call] = cli.calls();
    expect(call!.env).toMatchObject({ GOOSE_PROVIDER: 'openai', OPENAI_HOST: 'http://127.0.0.1:9', OPENAI_BASE_PATH: 'v1/chat/completions', GOOSE_MODEL: 'fake-model', OPENAI_API_KEY: key });
    expect(call!.argv.join(' ')).not.toContain(key);
  });

  it('maps an error line to failed, the HTTP status deciding retryable', async () => {
    const bad = await adapter().execute(executionRequest('FAKE_HTTP_400'));
    expect(bad).toMatchObject({ status: 'failed', error: { retryable: false } });
    expect(bad.error?.message).toBe('goose failed: Request failed: Bad request (400): fake injected HTTP 400');
    expect((await adapter().execute(executionRequest('FAKE_HTTP_503'))).error?.retryable).toBe(true);
  });

  it('cancels a streaming run and leaves no process behind (the tool child ignores SIGTERM)', async () => {
    const result = await adapter({ env: cli.env({ PID_FILE: cli.pidFile }) }).execute(executionRequest('FAKE_HANG'), abortAt('text_delta'));
    expect(result).toMatchObject({ status: 'failed', metadata: { cancelled: true } });
    const pids = cli.hangPids();
    expect(pids).toHaveLength(2);
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it('refuses a continuation whose session name is a path (goose makes a file name of it); nothing starts', async () => {
    for (const continuationId of ['../../outside', 'a/b', '.hidden']) {
      const result = await adapter().execute(executionRequest('x', { continuation: { kind: 'goose.session', continuationId, state: {} } }));
      expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: false } });
    }
    expect(cli.calls()).toEqual([]);
  });

  it('has a factory, a createLocalBackendAdapter id, honest capabilities, and checks its options', () => {
    expect(createGooseAdapter().backendId).toBe('goose');
    expect(createLocalBackendAdapter('goose')).toBeInstanceOf(GooseExecutionAdapter);
    expect(createGooseAdapter().describeCapabilities()).toMatchObject({ approvalInterrupts: 'none', streaming: true, steer: false, customProvider: true, continuationSupport: 'opaque-resume' });
    expect(() => new GooseExecutionAdapter({ mode: 'yolo' as 'auto' })).toThrow(/mode/);
    expect(() => new GooseExecutionAdapter({ builtins: ['--evil'] })).toThrow(/builtins/);
    expect(() => new GooseExecutionAdapter(null as unknown as GooseAdapterOptions)).toThrow(expect.objectContaining({ code: 'HARNESS_ERR_INVALID_CONFIG' }));
  });

  it('reads the answer after the last tool result and returns null for a stream with no end', () => {
    expect(parseGooseOutput('{"type":"notification","extension_id":"developer","log":{"message":"x"}}\n')).toBeNull();
    const answer = parseGooseOutput(
      [
        '{"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"before"},{"type":"toolRequest","id":"c"}]}}',
        '{"type":"message","message":{"role":"user","content":[{"type":"toolResponse","id":"c","toolResult":{"status":"error","error":"-32603: boom"}}]}}',
        '{"type":"message","message":{"role":"assistant","content":[{"type":"thinking","thinking":"hm"},{"type":"text","text":"after"}]}}',
        '{"type":"complete","total_tokens":null}',
      ].join('\n'),
    );
    expect(answer).toMatchObject({ status: 'completed', text: 'after', usage: { inputTokens: 0, outputTokens: 0 }, metadata: { toolCallCount: 1 } });
  });
});
