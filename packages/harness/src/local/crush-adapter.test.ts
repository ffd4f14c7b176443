// CrushExecutionAdapter against a fake `crush` that prints exactly what crush's source documents
// (internal/cmd/run.go, internal/cmd/session.go; see __fixtures__/fake-crush.mjs). crush itself
// cannot be installed here: its npm package downloads the binary from GitHub in postinstall.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import type { LocalSpawnFn } from './local-spawn.js';
import { UNANSWERED_MODEL_URL, useFakeCli } from './__fixtures__/fake-cli-rig.js';
import { crushInstalledWithoutScripts, executionRequest, isAlive, tempDir, turnInput } from './__fixtures__/test-helpers.js';
import { backendContinuationFrom } from './backend-continuation.js';
import { createCrushAdapter, CrushExecutionAdapter, newestSessionId, type CrushAdapterOptions } from './crush-adapter.js';
import { createLocalBackendAdapter } from './create-local-backend-adapter.js';

const cli = useFakeCli({
  executable: 'crush',
  script: 'fake-crush.mjs',
  create: ({ command, env }, options: CrushAdapterOptions = {}) => new CrushExecutionAdapter({ command, env: env(), killGraceMs: 200, ...options }),
});
const adapter = cli.adapter;
const runs = () => cli.calls().filter((call) => call.argv[0] === 'run');

describe('CrushExecutionAdapter', () => {
  it('runs `crush run --quiet` with the prompt on stdin, in a private home whose configuration disables bash', async () => {
    const result = await adapter({ model: 'custom/fake-model' }).execute(executionRequest('hello'));
    const [call] = runs();
    expect(call!.argv.slice(0, 3)).toEqual(['run', '--quiet', '--data-dir']);
    expect(call!.argv.slice(4)).toEqual(['--model', 'custom/fake-model']);
    expect(call!.stdin).toBe('# Instructions\n\nBe brief.\n\n# Message\n\nhello');
    const home = call!.env['HOME']!;
    expect(home).not.toBe(process.env['HOME']);
    expect(call!.env['XDG_CONFIG_HOME']).toBe(`${home}/.config`);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    const settings = JSON.parse(readFileSync(join(home, '.config', 'crush', 'crush.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    expect(settings['options']).toMatchObject({ disabled_tools: ['bash'], disable_metrics: true });
    expect(result).toMatchObject({ backendId: 'crush', status: 'completed', output: { text: 'PONG from fake crush (message 1)' } });
    expect(result.usage).toBeUndefined();
  });

  it('keeps bash away from the model by default; disabledTools: [] is the opt-in that lets crush run commands', async () => {
    expect((await adapter().execute(executionRequest('FAKE_TOOL'))).output?.text).toBe('I have no bash tool here.');
    expect((await adapter({ disabledTools: [] }).execute(executionRequest('FAKE_TOOL'))).output?.text).toBe('DONE after tool: TOOL_OK');
    expect(adapter().describeCapabilities()).toMatchObject({ approvalInterrupts: 'none', streaming: false, steer: false, customProvider: true });
  });

  it('reads the session id with `crush session list --json` and resumes with --session in a new turn', async () => {
    const harness = createHarness({ backend: adapter() });
    const first = await harness.runTurn(turnInput('first'));
    const continuation = backendContinuationFrom(first)!;
    const list = cli.calls().find((call) => call.argv[0] === 'session')!;
    expect(list.argv.slice(0, 4)).toEqual(['session', 'list', '--json', '--data-dir']);
    const sessionId = continuation.state?.['crushSessionId'] as string;
    expect(sessionId).toMatch(/^[0-9a-f]{16}$/);
    const second = await harness.runTurn(turnInput('second', { turnId: 't2', metadata: { backendContinuation: continuation } }));
    expect(second.assistantMessage?.text).toBe('PONG from fake crush (message 2)');
    const resumed = runs()[1]!;
    expect(resumed.argv).toContain('--session');
    expect(resumed.argv[resumed.argv.indexOf('--session') + 1]).toBe(sessionId);
    expect(resumed.argv[3]).toBe(runs()[0]!.argv[3]);
    expect(resumed.stdin).toBe('second');
  });

  it('gives each conversation its own data directory, so concurrent turns never mix sessions', async () => {
    const backend = adapter();
    const [a, b] = await Promise.all([backend.execute(executionRequest('one')), backend.execute(executionRequest('two'))]);
    expect(a.continuation?.continuationId).not.toBe(b.continuation?.continuationId);
    expect(a.continuation?.state?.['crushSessionId']).not.toBe(b.continuation?.state?.['crushSessionId']);
  });

  it('refuses a continuation that is not one of its conversations (no path from outside reaches the data directory)', async () => {
    const result = await adapter().execute(executionRequest('x', { continuation: { kind: 'crush.session', continuationId: '../../etc', state: {} } }));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: false } });
    expect(runs()).toEqual([]);
  });

  it('passes the provider key by environment only: never in argv or the configuration file', async () => {
    const key = 'sk-crush-secret-123456';
    await adapter({ provider: { baseUrl: `${UNANSWERED_MODEL_URL}/`, model: 'fake-model', apiKey: key } }).execute(executionRequest('hello'));
    const [call] = runs();
    expect(call!.argv.join(' ')).not.toContain(key);
    expect(call!.env['AGENT_ASSISTANT_CRUSH_API_KEY']).toBe(key);
    const file = readFileSync(join(call!.env['HOME']!, '.config', 'crush', 'crush.json'), 'utf8');
    expect(file).not.toContain(key);
    expect(JSON.parse(file)).toMatchObject({
      providers: { custom: { type: 'openai-compat', base_url: 'http://127.0.0.1:9/v1', api_key: '$AGENT_ASSISTANT_CRUSH_API_KEY', models: [{ id: 'fake-model' }] } },
      models: { large: { provider: 'custom', model: 'fake-model' } },
    });
  });

  it('maps `agent run failed` (exit 1) to failed, with the HTTP status deciding retryable', async () => {
    const bad = await adapter().execute(executionRequest('FAKE_HTTP_400'));
    expect(bad).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: false } });
    expect(bad.error?.message).toMatch(/^crush exited with code 1: agent run failed: .*400 Bad Request/);
    expect((await adapter().execute(executionRequest('FAKE_HTTP_503'))).error?.retryable).toBe(true);
  });

  it('cancels a run and leaves no process behind (the tool child ignores SIGTERM)', async () => {
    const controller = new AbortController();
    const spawnFn: LocalSpawnFn = (command, args, options) => {
      const child = spawn(command, args, options);
      child.stdout?.on('data', (chunk: Buffer) => String(chunk).includes('ready') && controller.abort());
      return child;
    };
    const result = await adapter({ env: { PID_FILE: cli.pidFile }, spawnFn }).execute(executionRequest('FAKE_HANG'), { signal: controller.signal });
    expect(result).toMatchObject({ status: 'failed', metadata: { cancelled: true } });
    const pids = cli.hangPids();
    expect(pids).toHaveLength(2);
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it('removes the private home on dispose, but never a home the caller gave', async () => {
    const made = adapter();
    await made.execute(executionRequest('hello'));
    const home = runs()[0]!.env['HOME']!;
    await made.dispose();
    expect(existsSync(home)).toBe(false);
    const given = join(cli.dir, 'given-home');
    const mine = adapter({ home: given });
    await mine.execute(executionRequest('hello'));
    await mine.dispose();
    expect(readdirSync(join(given, '.config', 'crush'))).toEqual(['crush.json']);
  });

  it("refuses to run npm's launcher whose binary is missing (it would litter the workspace), naming the binary to use", async () => {
    const installed = crushInstalledWithoutScripts();
    const cwd = tempDir('crush-workspace-');
    const result = await adapter({ command: 'crush', cwd, env: { PATH: `${installed.bin}:${dirname(process.execPath)}` } }).execute(executionRequest('hello'));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: false } });
    expect(result.error?.message).toContain(`the binary it runs, ${join(installed.pkg, 'bin', 'crush')}, is missing`);
    expect(result.error?.message).toMatch(/Pass the crush binary's path as `command`\.$/);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('has a factory, a createLocalBackendAdapter id, and checks its options', () => {
    expect(createCrushAdapter().backendId).toBe('crush');
    expect(createLocalBackendAdapter('crush')).toBeInstanceOf(CrushExecutionAdapter);
    expect(() => new CrushExecutionAdapter({ disabledTools: ['--all'] })).toThrow(/disabledTools/);
    expect(() => new CrushExecutionAdapter({ provider: { baseUrl: 'http://user:pw@host/v1', model: 'm' } })).toThrow(/baseUrl/);
    expect(() => new CrushExecutionAdapter({ provider: { baseUrl: 'file:///etc', model: 'm' } })).toThrow(/baseUrl/);
    expect(() => new CrushExecutionAdapter({ provider: { baseUrl: 'http://h/v1', model: '-x' } })).toThrow(/model/);
  });

  it('picks the newest session of a `session list --json` answer and ignores malformed entries', () => {
    expect(newestSessionId([{ id: 'a1', created: 1 }, { id: 'b2', created: 5 }, { id: '--x', created: 9 }, null, { id: 7 }])).toBe('b2');
    expect(newestSessionId({ id: 'a' })).toBeUndefined();
    expect(newestSessionId([])).toBeUndefined();
  });
});
