// PiExecutionAdapter against a fake `pi` printing the JSON lines recorded from pi 0.73.1 (see
// __fixtures__/fake-pi.mjs): the prompt file, the private agent directory, the tool allow-list,
// resume by session file, pi's exit 0 after a model error, cancel by SIGTERM.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExecutionStreamEvent } from '../execution/types.js';
import { abortAt, UNANSWERED_MODEL_URL, useFakeCli } from './__fixtures__/fake-cli-rig.js';
import { configErrorField, executionRequest, isAlive, tempDir } from './__fixtures__/test-helpers.js';
import { createLocalBackendAdapter } from './create-local-backend-adapter.js';
import { createPiAdapter, PiExecutionAdapter, type PiAdapterOptions } from './pi-adapter.js';

const cli = useFakeCli({
  executable: 'pi',
  script: 'fake-pi.mjs',
  create: ({ command, dir, env }, options: PiAdapterOptions = {}) => new PiExecutionAdapter({ command, cwd: dir, env: env(), killGraceMs: 500, ...options }),
});
const adapter = cli.adapter;

const promptFileOf = (argv: string[]) => argv.at(-1)!.slice(1);

describe('PiExecutionAdapter', () => {
  it('runs `pi -p --mode json` on a private prompt file, removed afterwards, with the read-only tools and a private agent dir', async () => {
    const result = await adapter().execute(executionRequest('hello'));
    const [call] = cli.calls();
    expect(call!.argv.slice(0, -1)).toEqual(['-p', '--mode', 'json', '--tools', 'read,grep,find,ls']);
    expect(call!.argv.at(-1)).toMatch(/^@\/.+\/prompt\.md$/);
    expect(call!.stdin).toBe('# Instructions\n\nBe brief.\n\n# Message\n\nhello');
    expect(existsSync(promptFileOf(call!.argv))).toBe(false);
    expect(call!.env['PI_OFFLINE']).toBe('1');
    expect(call!.env['PI_CODING_AGENT_DIR']).toBe(join(call!.env['HOME']!, '.pi', 'agent'));
    expect(call!.env['HOME']).not.toBe(process.env['HOME']);
    expect(result).toMatchObject({
      backendId: 'pi',
      status: 'completed',
      output: { text: 'PONG from fake pi (message 1, tools read,grep,find,ls)' },
      usage: { inputTokens: 14, outputTokens: 6, cachedInputTokens: 2, costUnits: 0.003 },
      continuation: { kind: 'pi.session' },
    });
    expect(result.continuation?.continuationId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('lets bash run only when the tools option opts in; an empty list is --no-tools', async () => {
    const safe = await adapter().execute(executionRequest('FAKE_TOOL please'));
    expect(safe.output?.text).toContain('tools read,grep,find,ls');
    const opted = await adapter({ tools: ['read', 'bash'] }).execute(executionRequest('FAKE_TOOL please'));
    expect(opted.output?.text).toBe('PONG from fake pi (message 1, tools read,bash)');
    expect(opted.usage).toMatchObject({ inputTokens: 28, outputTokens: 12, costUnits: 0.006 });
    await adapter({ tools: [] }).execute(executionRequest('hi'));
    const calls = cli.calls();
    expect(calls[1]!.argv).toContain('read,bash');
    expect(calls[2]!.argv).toContain('--no-tools');
    expect(calls[2]!.argv).not.toContain('--tools');
  });

  it('streams text deltas and the bash call live', async () => {
    const events: ExecutionStreamEvent[] = [];
    const result = await adapter({ tools: ['bash'] }).execute(executionRequest('FAKE_TOOL'), { onEvent: (event) => events.push(event) });
    expect(events).toEqual([
      { type: 'tool_activity', phase: 'started', toolCallId: 'call_1', name: 'bash', kind: 'command', command: 'echo TOOL_OK' },
      { type: 'tool_activity', phase: 'finished', toolCallId: 'call_1', name: 'bash', kind: 'command', status: 'succeeded' },
      { type: 'text_delta', text: 'PONG from ' },
      { type: 'text_delta', text: 'fake pi (m' },
      { type: 'text_delta', text: 'essage 1, tools bash)' },
    ]);
    expect(result.output?.text).toBe('PONG from fake pi (message 1, tools bash)');
  });

  it('writes a custom provider to models.json with the key as an environment variable name, never its value', async () => {
    const agentDir = join(cli.dir, 'agent');
    const backend = adapter({
      agentDir,
      model: 'fake-model',
      provider: { name: 'local', baseUrl: UNANSWERED_MODEL_URL, apiKeyEnv: 'LOCAL_KEY' },
      env: cli.env({ LOCAL_KEY: 'sk-secret-value-1234' }),
    });
    await backend.execute(executionRequest('hi'));
    const [call] = cli.calls();
    expect(call!.argv).toContain('local/fake-model');
    expect(call!.argv.join(' ')).not.toContain('sk-secret');
    expect(call!.env['PI_CODING_AGENT_DIR']).toBe(agentDir);
    const models = readFileSync(join(agentDir, 'models.json'), 'utf8');
    expect(models).not.toContain('sk-secret');
    expect(JSON.parse(models)).toEqual({
      providers: {
        local: {
          baseUrl: 'http://127.0.0.1:9/v1',
          api: 'openai-completions',
          apiKey: 'LOCAL_KEY',
          compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
          models: [{ id: 'fake-model' }],
        },
      },
    });
  });

  it('resumes by the session file, so a turn from another working directory continues the session', async () => {
    const agentDir = join(cli.dir, 'shared-agent');
    const first = await adapter({ agentDir, cwd: tempDir('pi-cwd-a-') }).execute(executionRequest('first'));
    const second = await adapter({ agentDir, cwd: tempDir('pi-cwd-b-') }).execute(executionRequest('second', { continuation: first.continuation! }));
    expect(second).toMatchObject({ status: 'completed', output: { text: 'PONG from fake pi (message 2, tools read,grep,find,ls)' } });
    expect(second.continuation?.continuationId).toBe(first.continuation?.continuationId);
    const argv = cli.calls()[1]!.argv;
    const session = argv[argv.indexOf('--session') + 1]!;
    expect(session.startsWith(join(agentDir, 'sessions'))).toBe(true);
    expect(session.endsWith(`_${first.continuation!.continuationId!}.jsonl`)).toBe(true);
    expect(cli.calls()[1]!.stdin).toBe('second');
  });

  it('fails plainly when pi refuses a session of another directory (exit 0, empty stdout) instead of completing empty', async () => {
    const agentDir = join(cli.dir, 'other-agent');
    const first = await adapter({ agentDir, cwd: tempDir('pi-cwd-a-') }).execute(executionRequest('first'));
    // The caller pointed pi elsewhere than the adapter's agent dir: the lookup misses and pi gets the bare id.
    const stray = adapter({ cwd: tempDir('pi-cwd-b-'), env: cli.env({ PI_CODING_AGENT_DIR: agentDir }) });
    const second = await stray.execute(executionRequest('second', { continuation: first.continuation! }));
    expect(second.status).toBe('failed');
    expect(second.error?.message).toMatch(/^pi refused to resume the session: it belongs to another working directory \(.+\) and pi printed nothing\.$/);
  });

  it('reports a model error as failed although pi exits 0', async () => {
    const result = await adapter().execute(executionRequest('FAKE_HTTP_400'));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', message: 'pi failed: 400 fake injected HTTP 400', retryable: false } });
    expect((await adapter().execute(executionRequest('FAKE_HTTP_503'))).error?.retryable).toBe(true);
  });

  it('fails an unknown session with pi\'s own words', async () => {
    const result = await adapter().execute(executionRequest('again', { continuation: { kind: 'pi.session', continuationId: '99999999-aaaa' } }));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error' } });
    expect(result.error?.message).toContain("No session found matching '99999999-aaaa'");
    const hostile = await adapter().execute(executionRequest('again', { continuation: { kind: 'pi.session', continuationId: '..%2F..%2Fetc' } }));
    expect(hostile.error?.message).toContain('does not hold a pi session id');
    expect(cli.calls()).toHaveLength(1);
  });

  it('cancels with SIGTERM, so pi stops its detached tool too, and removes the prompt file', async () => {
    const backend = adapter({ tools: ['bash'], env: cli.env({ PID_FILE: cli.pidFile }) });
    const result = await backend.execute(executionRequest('FAKE_HANG'), abortAt('tool_activity'));
    const pids = cli.hangPids();
    expect(pids).toHaveLength(2);
    expect(result).toMatchObject({ status: 'failed', metadata: { cancelled: true } });
    expect(pids.filter(isAlive)).toEqual([]);
    expect(existsSync(promptFileOf(cli.calls()[0]!.argv))).toBe(false);
  });

  it('dispose deletes the private HOME and agent dir; a later turn starts in a new one', async () => {
    const backend = adapter();
    await backend.execute(executionRequest('first'));
    const home = cli.calls()[0]!.env['HOME']!;
    expect(existsSync(join(home, '.pi', 'agent', 'sessions'))).toBe(true);
    await backend.dispose();
    expect(existsSync(home)).toBe(false);
    const again = await backend.execute(executionRequest('second'));
    expect(again.output?.text).toContain('message 1');
    expect(cli.calls()[1]!.env['HOME']).not.toBe(home);
    await backend.dispose();
  });

  it('is reachable as createLocalBackendAdapter("pi") and says what it can do', () => {
    const backend = createLocalBackendAdapter('pi', { command: cli.command });
    expect(backend).toBeInstanceOf(PiExecutionAdapter);
    expect(backend.describeCapabilities()).toMatchObject({ streaming: true, steer: false, approvalInterrupts: 'none', continuationSupport: 'opaque-resume' });
    expect(createPiAdapter()).toBeInstanceOf(PiExecutionAdapter);
  });

  it('refuses bad options with a typed error naming the field', () => {
    const field = (options: PiAdapterOptions) => configErrorField(() => createPiAdapter(options));
    expect(field({ tools: ['read,bash'] })).toBe('tools');
    expect(field({ tools: ['--yolo'] })).toBe('tools');
    expect(field({ provider: { baseUrl: 'http://x/v1' } })).toBe('provider.models');
    expect(field({ provider: { baseUrl: 'file:///etc', models: ['m'] } })).toBe('provider.baseUrl');
    expect(field({ provider: { baseUrl: 'http://x/v1', models: ['m'], apiKeyEnv: 'A=B' } })).toBe('provider.apiKeyEnv');
    expect(field({ provider: { baseUrl: 'http://x/v1', models: ['m'], name: '__proto__/x' } })).toBe('provider.name');
    expect(field({ provider: { baseUrl: 'http://x/v1', models: ['m'], name: '__proto__' } })).toBe('provider.name');
    expect(field({ provider: { baseUrl: 'http://x/v1', models: ['__proto__'], compat: JSON.parse('{"__proto__": true}') as Record<string, boolean> } })).toBe('provider.compat');
  });
});
