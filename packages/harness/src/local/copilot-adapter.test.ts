// CopilotExecutionAdapter against a fake native `copilot` printing the JSON lines recorded from
// Copilot CLI 1.0.102 (see __fixtures__/fake-copilot.mjs): BYOK offline mode, the safe tool posture,
// resume, the usage report, HTTP errors, cancel, and the npm loader replaced by its native binary.
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExecutionStreamEvent } from '../execution/types.js';
import { abortAt, UNANSWERED_MODEL_URL, useFakeCli } from './__fixtures__/fake-cli-rig.js';
import { configErrorField, executionRequest, fixtureExecutable, isAlive, tempDir } from './__fixtures__/test-helpers.js';
import { CopilotExecutionAdapter, createCopilotAdapter, type CopilotAdapterOptions } from './copilot-adapter.js';
import { createLocalBackendAdapter } from './create-local-backend-adapter.js';

const cli = useFakeCli({
  executable: 'copilot',
  script: 'fake-copilot.mjs',
  create: ({ command, dir, env }, options: CopilotAdapterOptions = {}) =>
    new CopilotExecutionAdapter({ command, cwd: dir, cacheDir: join(dir, 'cache'), env: env(), killGraceMs: 500, ...options }),
});
const adapter = cli.adapter;
/** The package cache the adapters share (`cacheDir`). */
const cache = () => join(cli.dir, 'cache');

describe('CopilotExecutionAdapter', () => {
  it('runs `copilot -p "" --output-format json` with the prompt on stdin, a chosen session id, private state and the shared cache', async () => {
    const result = await adapter().execute(executionRequest('hello'));
    const [call] = cli.calls();
    const session = call!.argv.find((arg) => arg.startsWith('--session-id='))!;
    const usageFile = call!.argv.find((arg) => arg.startsWith('--usage-output-file='))!;
    expect(call!.argv).toEqual(['-p', '', '--output-format', 'json', session, usageFile]);
    expect(call!.stdin).toBe('# Instructions\n\nBe brief.\n\n# Message\n\nhello');
    expect(existsSync(usageFile.slice(usageFile.indexOf('=') + 1))).toBe(false);
    expect(call!.env).toMatchObject({ COPILOT_HOME: join(call!.env['HOME']!, '.copilot'), XDG_CACHE_HOME: cache(), COPILOT_AUTO_UPDATE: 'false' });
    expect(call!.env['HOME']).not.toBe(process.env['HOME']);
    expect(call!.env['COPILOT_OFFLINE']).toBeUndefined();
    expect(result).toMatchObject({
      backendId: 'copilot',
      status: 'completed',
      output: { text: 'PONG from fake copilot (message 1)' },
      usage: { inputTokens: 12, outputTokens: 6 },
      continuation: { kind: 'copilot.session', continuationId: session.slice('--session-id='.length) },
    });
  });

  it('runs your own provider in offline mode, the key only in the environment', async () => {
    const backend = adapter({
      provider: { baseUrl: UNANSWERED_MODEL_URL, type: 'openai', wireApi: 'completions' },
      model: 'fake-model',
      env: cli.env({ COPILOT_PROVIDER_API_KEY: 'sk-secret-value-1234' }),
    });
    const result = await backend.execute(executionRequest('hi'));
    const [call] = cli.calls();
    expect(result.status).toBe('completed');
    expect(call!.argv).toContain('--model=fake-model');
    expect(call!.argv.join(' ')).not.toContain('sk-secret');
    expect(call!.env).toMatchObject({
      COPILOT_PROVIDER_BASE_URL: 'http://127.0.0.1:9/v1',
      COPILOT_PROVIDER_TYPE: 'openai',
      COPILOT_PROVIDER_WIRE_API: 'completions',
      COPILOT_PROVIDER_API_KEY: 'sk-secret-value-1234',
      COPILOT_OFFLINE: 'true',
    });
  });

  it('denies a command that needs permission by default and says so in tool activity; allowTools lets it run', async () => {
    const marker = join(cli.dir, 'MARKER');
    const events: ExecutionStreamEvent[] = [];
    const denied = await adapter().execute(executionRequest(`FAKE_SHELL[touch ${marker}]`), { onEvent: (event) => events.push(event) });
    expect(existsSync(marker)).toBe(false);
    expect(denied).toMatchObject({ status: 'completed', metadata: { deniedTools: [{ toolCallId: 'call_fake_1', name: 'bash', command: `touch ${marker}` }] } });
    expect(events.filter((event) => event.type === 'tool_activity')).toEqual([
      { type: 'tool_activity', phase: 'started', toolCallId: 'call_fake_1', name: 'bash', kind: 'command', command: `touch ${marker}` },
      { type: 'tool_activity', phase: 'finished', toolCallId: 'call_fake_1', name: 'bash', kind: 'command', status: 'rejected' },
    ]);
    expect(cli.calls()[0]!.argv.some((arg) => /allow-all|yolo/.test(arg))).toBe(false);

    const allowed = await adapter({ allowTools: ['shell(touch)'] }).execute(executionRequest(`FAKE_SHELL[touch ${marker}]`));
    expect(existsSync(marker)).toBe(true);
    expect(cli.calls()[1]!.argv).toContain('--allow-tool=shell(touch)');
    expect(allowed.metadata?.['deniedTools']).toBeUndefined();
    expect(allowed.usage).toMatchObject({ inputTokens: 24, outputTokens: 12 });
  });

  it('streams the message deltas live', async () => {
    const events: ExecutionStreamEvent[] = [];
    const result = await adapter().execute(executionRequest('hi'), { onEvent: (event) => events.push(event) });
    expect(events).toEqual([
      { type: 'text_delta', text: 'PONG from ' },
      { type: 'text_delta', text: 'fake copil' },
      { type: 'text_delta', text: 'ot (message 1)' },
    ]);
    expect(result.output?.text).toBe('PONG from fake copilot (message 1)');
  });

  it('resumes its own session with --resume in a new turn', async () => {
    const backend = adapter();
    const first = await backend.execute(executionRequest('first'));
    const second = await backend.execute(executionRequest('second', { continuation: first.continuation! }));
    expect(second).toMatchObject({ status: 'completed', output: { text: 'PONG from fake copilot (message 2)' }, continuation: first.continuation });
    expect(cli.calls()[1]!.argv).toContain(`--resume=${first.continuation!.continuationId!}`);
    expect(cli.calls()[1]!.argv.some((arg) => arg.startsWith('--session-id'))).toBe(false);
  });

  it('fails on session.error (exit 1) with the status deciding retryable, and on an unknown session with its words', async () => {
    const bad = await adapter().execute(executionRequest('FAKE_HTTP_400'));
    expect(bad).toMatchObject({
      status: 'failed',
      error: { code: 'backend_execution_error', message: 'GitHub Copilot CLI failed: 400 fake injected HTTP 400', retryable: false, metadata: { status: 400 } },
    });
    expect((await adapter().execute(executionRequest('FAKE_HTTP_503'))).error?.retryable).toBe(true);
    const unknown = await adapter().execute(executionRequest('again', { continuation: { kind: 'copilot.session', continuationId: 'deadbeef-0000' } }));
    expect(unknown.status).toBe('failed');
    expect(unknown.error?.message).toContain("No session, task, or name matched 'deadbeef-0000'");
  });

  it('says how to sign in when Copilot has neither a provider nor a token', async () => {
    const result = await adapter().execute(executionRequest('FAKE_NO_AUTH'));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: false } });
    expect(result.error?.message).toMatch(/^GitHub Copilot CLI is not signed in: give the adapter a `provider`/);
  });

  it('cancels: the CLI and its tool child are gone when execute resolves', async () => {
    const result = await adapter({ env: cli.env({ PID_FILE: cli.pidFile }) }).execute(executionRequest('FAKE_HANG'), abortAt('tool_activity'));
    const pids = cli.hangPids();
    expect(pids).toHaveLength(2);
    expect(result).toMatchObject({ status: 'failed', metadata: { cancelled: true } });
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it('starts the native binary behind the npm loader, never the loader itself', async () => {
    const modules = join(cli.dir, 'lib', 'node_modules', '@github');
    mkdirSync(join(modules, 'copilot'), { recursive: true });
    writeFileSync(join(modules, 'copilot', 'npm-loader.js'), '#!/bin/sh\necho "the npm loader ran" >&2\nexit 1\n', { mode: 0o755 });
    const platform = join(modules, `copilot-${process.platform}-${process.arch}`);
    mkdirSync(platform, { recursive: true });
    fixtureExecutable(platform, 'copilot', 'fake-copilot.mjs');
    const bin = join(cli.dir, 'bin');
    mkdirSync(bin);
    symlinkSync(join(modules, 'copilot', 'npm-loader.js'), join(bin, 'copilot'));
    const result = await adapter({ command: join(bin, 'copilot') }).execute(executionRequest('hi'));
    expect(result).toMatchObject({ status: 'completed', output: { text: 'PONG from fake copilot (message 1)' } });

    const orphan = tempDir('copilot-orphan-');
    writeFileSync(join(orphan, 'npm-loader.js'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    const missing = await adapter({ command: join(orphan, 'npm-loader.js') }).execute(executionRequest('hi'));
    expect(missing.status).toBe('failed');
    expect(missing.error?.message).toMatch(/is the npm loader of GitHub Copilot CLI, and its native binary \(@github\/copilot-.+\) is not installed beside it/);
  });

  it('dispose deletes the private HOME and COPILOT_HOME, never the shared cache', async () => {
    const backend = adapter();
    await backend.execute(executionRequest('first'));
    const home = cli.calls()[0]!.env['HOME']!;
    expect(existsSync(join(home, '.copilot', 'session-state'))).toBe(true);
    mkdirSync(cache(), { recursive: true });
    await backend.dispose();
    expect(existsSync(home)).toBe(false);
    expect(existsSync(cache())).toBe(true);
    expect((await backend.execute(executionRequest('second'))).status).toBe('completed');
    await backend.dispose();
  });

  it('is reachable as createLocalBackendAdapter("copilot") and says what it can do', () => {
    const backend = createLocalBackendAdapter('copilot', { command: cli.command });
    expect(backend).toBeInstanceOf(CopilotExecutionAdapter);
    expect(backend.describeCapabilities()).toMatchObject({ streaming: true, steer: false, approvalInterrupts: 'none', continuationSupport: 'opaque-resume' });
    expect(createCopilotAdapter()).toBeInstanceOf(CopilotExecutionAdapter);
  });

  it('refuses bad options with a typed error naming the field', () => {
    const field = (options: CopilotAdapterOptions) => configErrorField(() => createCopilotAdapter(options));
    expect(field({ provider: { baseUrl: 'http://x/v1' } })).toBe('provider');
    expect(field({ provider: { baseUrl: 'ftp://x' }, model: 'm' })).toBe('provider.baseUrl');
    expect(field({ allowTools: ['--allow-all-tools'] })).toBe('allowTools');
    expect(field({ allowTools: ['shell(a)\n--yolo'] })).toBe('allowTools');
    expect(field({ cacheDir: '' })).toBe('cacheDir');
  });
});
