// The Qwen Code, GitHub Copilot CLI and Hermes Agent ACP presets through createHarness against fake
// engines (real child processes speaking ACP over stdio): fake-acp-agent.mjs in the `qwen` and
// `copilot` styles (measured shapes) and fake-hermes.mjs (Hermes's documented messages). Private
// homes, provider environment, the native binary behind copilot's npm shim, approvals, cancel,
// resume with session/load, usage.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backendContinuationFrom, createHarness, type HarnessResult, type HarnessStreamEvent } from '../../index.js';
import { cleanupTempDirs, fixtureExecutable, isAlive, tempDir, turnInput } from '../../local/__fixtures__/test-helpers.js';
import { probeEngineSessions } from '../probe-engine-sessions.js';
import type { AcpExecutionAdapter } from './acp-adapter.js';
import { createCopilotAcpAdapter } from './copilot-acp-preset.js';
import { createHermesAcpAdapter } from './hermes-acp-preset.js';
import { createQwenAcpAdapter } from './qwen-acp-preset.js';

const AGENT = '../../sessions/acp/__fixtures__/fake-acp-agent.mjs';
const HERMES = '../../sessions/acp/__fixtures__/fake-hermes.mjs';
const adapters: AcpExecutionAdapter[] = [];

afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.dispose()));
  cleanupTempDirs();
});

type Logged = { pid: number; argv?: string[]; env?: Record<string, string>; config?: string | null; message?: { method?: string; params?: Record<string, unknown> }; permissionAnswer?: unknown };
const readLog = (file: string): Logged[] =>
  existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Logged) : [];

function rig() {
  const dir = tempDir('harness-acp-presets-');
  const work = join(dir, 'work');
  mkdirSync(work);
  const log = join(dir, 'log');
  const envLog = join(dir, 'env-log');
  return { dir, work, log, envLog, logged: () => readLog(log), starts: () => readLog(envLog) };
}

function track<T extends AcpExecutionAdapter>(adapter: T): T {
  adapters.push(adapter);
  return adapter;
}

const harnessOf = (backend: AcpExecutionAdapter) => createHarness({ backend, limits: { maxElapsedMs: 30_000 } });
const input = (text: string, extra: Parameters<typeof turnInput>[1] = {}) => turnInput(text, { sessionId: 'chat-1', ...extra });
const approve = (paused: HarnessResult, decision: 'approved' | 'rejected') => {
  const requests = paused.metadata?.['approvalRequests'] as { id: string }[] | undefined;
  expect(requests).toHaveLength(1);
  return { type: 'approval' as const, decisions: { [requests![0]!.id]: decision } };
};

async function collect(stream: AsyncIterable<HarnessStreamEvent>): Promise<HarnessStreamEvent[]> {
  const events: HarnessStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('createQwenAcpAdapter (fake qwen: measured Qwen Code 0.15.10 shapes)', () => {
  function qwen(extra: Parameters<typeof createQwenAcpAdapter>[0] = {}) {
    const r = rig();
    const command = fixtureExecutable(r.dir, 'qwen', AGENT);
    const backend = track(
      createQwenAcpAdapter({
        command,
        cwd: r.work,
        killGraceMs: 300,
        provider: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-qwen-secret', model: 'fake-model' },
        ...extra,
        env: { FAKE_ACP_STYLE: 'qwen', FAKE_ACP_LOG: r.log, FAKE_ACP_ENV_LOG: r.envLog, ...extra.env },
      }),
    );
    return { ...r, backend, harness: harnessOf(backend) };
  }

  it('starts qwen --acp --approval-mode default in a private home with its settings and the provider in the environment only; dispose removes the home and the process', async () => {
    const { harness, backend, starts } = qwen({ model: 'qwen-fast' });
    const result = await harness.runTurn(input('say hi'));
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
    const [start] = starts();
    expect(start!.argv).toEqual(['--acp', '--approval-mode', 'default', '--model', 'qwen-fast']);
    const env = start!.env!;
    expect(env).toMatchObject({ QWEN_CODE_NO_RELAUNCH: 'true', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: 'sk-qwen-secret', OPENAI_MODEL: 'fake-model' });
    expect(env['HOME']).not.toBe(process.env['HOME']);
    expect(env['XDG_CONFIG_HOME']).toBe(join(env['HOME']!, '.config'));
    expect(JSON.parse(readFileSync(join(env['HOME']!, '.qwen', 'settings.json'), 'utf8'))).toEqual({
      privacy: { usageStatisticsEnabled: false },
      security: { auth: { selectedType: 'openai' } },
      telemetry: { enabled: false },
    });
    expect(JSON.stringify(start!.argv)).not.toContain('sk-qwen-secret');
    expect(JSON.stringify(result)).not.toContain('sk-qwen-secret');
    await backend.dispose();
    expect(existsSync(env['HOME']!)).toBe(false);
    expect(isAlive(start!.pid)).toBe(false);
  });

  it("reads usage from the empty chunk's _meta.usage (the prompt result has none)", async () => {
    const { harness } = qwen();
    const result = await harness.runTurn(input('say hi'));
    expect(result.usage).toMatchObject({ totalInputTokens: 12, totalOutputTokens: 6 });
  });

  it('a permission request pauses the turn; approve answers proceed_once and the command runs, reject answers cancel and it never runs', async () => {
    const { harness, work, logged } = qwen();
    const marker = join(work, 'MARKER');
    const events = await collect(harness.streamTurn(input(`SHELL[${marker}]`)));
    expect(events.find((event) => event.type === 'approval_requested')).toMatchObject({ kind: 'command', command: `touch ${marker}` });
    const paused = await harness.runTurn(input(`SHELL[${marker}]`, { sessionId: 'chat-2' }));
    expect(paused).toMatchObject({ outcome: 'awaiting_approval', stopReason: 'approval_required' });
    expect(existsSync(marker)).toBe(false);
    const done = await harness.resumeTurn(paused.continuation, approve(paused, 'approved'));
    expect(done).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'ran it' } });
    expect(existsSync(marker)).toBe(true);

    const other = join(work, 'OTHER');
    const again = await harness.runTurn(input(`SHELL[${other}]`, { sessionId: 'chat-3' }));
    const refused = await harness.resumeTurn(again.continuation, approve(again, 'rejected'));
    expect(refused).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'not run' } });
    expect(existsSync(other)).toBe(false);
    expect(logged().filter((entry) => entry.permissionAnswer !== undefined).map((entry) => entry.permissionAnswer)).toEqual([
      { outcome: { outcome: 'selected', optionId: 'proceed_once' } },
      { outcome: { outcome: 'selected', optionId: 'cancel' } },
    ]);
  });

  it('a cancel during the model call, which qwen fails with JSON-RPC -32603 "Request was aborted.", is reported as cancelled; the engine takes the next turn', async () => {
    const { harness, logged } = qwen();
    const controller = new AbortController();
    const stream = harness.streamTurn(input('HANG'), { signal: controller.signal });
    for await (const event of stream) if (event.type === 'text_delta') controller.abort();
    const result = await stream.result;
    expect(result.stopReason).toBe('cancelled');
    expect(JSON.stringify(result.metadata)).not.toContain('Internal error');
    const next = await harness.runTurn(input('COUNT', { turnId: 'turn-2' }));
    expect(next.assistantMessage?.text).toMatch(/^prompts:2/);
    expect(new Set(logged().map((entry) => entry.pid)).size).toBe(1);
  });

  it('resumes its own session in a new engine process with session/load; the replayed history is not output of the next turn', async () => {
    const home = tempDir('qwen-home-');
    const first = qwen({ home });
    const done = await first.harness.runTurn(input('say hi'));
    const continuation = backendContinuationFrom(done);
    expect(continuation).toMatchObject({ kind: 'acp.session', continuationId: expect.stringMatching(/^ses_/) });
    await first.backend.dispose();
    expect(existsSync(join(home, '.qwen', 'settings.json'))).toBe(true); // a caller's home is kept

    const second = qwen({ home });
    const stream = second.harness.streamTurn(input('COUNT', { turnId: 'turn-2', metadata: { backendContinuation: continuation } }));
    const events = await collect(stream);
    const resumed = await stream.result;
    expect(resumed.assistantMessage?.text).toBe(`prompts:1 session:${continuation!.continuationId!}`);
    expect(JSON.stringify(events)).not.toContain('REPLAYED');
    expect(second.logged().map((entry) => entry.message?.method)).toContain('session/load');
  });

  it('validates its options', () => {
    expect(() => createQwenAcpAdapter({ provider: { baseUrl: 'ftp://x', model: 'm' } })).toThrow(/provider.baseUrl/);
    expect(() => createQwenAcpAdapter({ provider: { baseUrl: 'http://user:pw@host/v1', model: 'm' } })).toThrow(/credentials/);
    expect(() => createQwenAcpAdapter({ provider: { baseUrl: 'http://host/v1', model: 'a b' } })).toThrow(/provider.model/);
    expect(() => createQwenAcpAdapter({ model: '--yolo' })).toThrow(/model/);
    expect(() => createQwenAcpAdapter({ home: '' })).toThrow(/home/);
  });
});

describe('createCopilotAcpAdapter (fake copilot: measured GitHub Copilot CLI 1.0.102 --acp shapes)', () => {
  /** An npm layout: .bin/copilot → @github/copilot/npm-loader.js (which must never run) and the platform package's native binary. */
  function npmLayout(dir: string) {
    const modules = join(dir, 'node_modules');
    const shimDir = join(modules, '@github', 'copilot');
    const nativeDir = join(modules, '@github', `copilot-${process.platform}-${process.arch}`);
    mkdirSync(shimDir, { recursive: true });
    mkdirSync(nativeDir, { recursive: true });
    mkdirSync(join(modules, '.bin'));
    writeFileSync(join(shimDir, 'npm-loader.js'), '#!/bin/sh\necho "the npm shim ran" >&2\nexit 3\n', { mode: 0o755 });
    writeFileSync(join(nativeDir, 'package.json'), JSON.stringify({ name: `@github/copilot-${process.platform}-${process.arch}`, exports: { '.': './copilot' } }));
    fixtureExecutable(nativeDir, 'copilot', AGENT);
    symlinkSync('../@github/copilot/npm-loader.js', join(modules, '.bin', 'copilot'));
    return { shim: join(modules, '.bin', 'copilot'), native: join(nativeDir, 'copilot') };
  }

  function copilot(extra: Parameters<typeof createCopilotAcpAdapter>[0] = {}) {
    const r = rig();
    const { shim, native } = npmLayout(r.dir);
    const backend = track(
      createCopilotAcpAdapter({
        command: shim,
        cwd: r.work,
        killGraceMs: 300,
        cacheDir: join(r.dir, 'shared-cache'),
        provider: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-copilot-secret', model: 'fake-model' },
        ...extra,
        env: { FAKE_ACP_STYLE: 'copilot', FAKE_ACP_LOG: r.log, FAKE_ACP_ENV_LOG: r.envLog, ...extra.env },
      }),
    );
    return { ...r, native, backend, harness: harnessOf(backend) };
  }

  it('runs the native binary behind the npm shim, with BYOK offline mode in the environment, a private home and the shared cache', async () => {
    const { harness, backend, starts, dir } = copilot();
    const result = await harness.runTurn(input('say hi'));
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake' } });
    const [start] = starts();
    expect(start!.argv).toEqual(['--acp']);
    expect(start!.env).toMatchObject({
      COPILOT_PROVIDER_BASE_URL: 'http://127.0.0.1:9/v1',
      COPILOT_PROVIDER_API_KEY: 'sk-copilot-secret',
      COPILOT_MODEL: 'fake-model',
      COPILOT_OFFLINE: 'true',
      COPILOT_AUTO_UPDATE: 'false',
      XDG_CACHE_HOME: join(dir, 'shared-cache'),
    });
    const home = start!.env!['HOME']!;
    expect(home).not.toBe(process.env['HOME']);
    expect(start!.env!['COPILOT_ALLOW_ALL']).toBeUndefined();
    await backend.dispose();
    expect(existsSync(home)).toBe(false);
    expect(isAlive(start!.pid)).toBe(false);
  });

  it('approve answers allow_once and the command runs; reject answers reject_once, copilot says so, and it never runs; usage from the result', async () => {
    const { harness, work, logged } = copilot();
    const marker = join(work, 'MARKER');
    const stream = harness.streamTurn(input(`SHELL[${marker}]`));
    const events = await collect(stream);
    const paused = await stream.result;
    expect(events.filter((event) => event.type === 'tool_activity').map((event) => (event as { phase: string }).phase)).toEqual(['started']);
    expect(events.find((event) => event.type === 'approval_requested')).toMatchObject({ kind: 'command', command: `touch ${marker}`, title: 'Run a shell command for the test' });
    expect(existsSync(marker)).toBe(false);
    const done = await harness.resumeTurn(paused.continuation, approve(paused, 'approved'));
    expect(done).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'ran it' } });
    expect(existsSync(marker)).toBe(true);

    const other = join(work, 'OTHER');
    const again = await harness.runTurn(input(`SHELL[${other}]`, { turnId: 'turn-2' }));
    const refused = await harness.resumeTurn(again.continuation, approve(again, 'rejected'));
    expect(refused).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Info: Operation cancelled by user' } });
    expect(refused.usage).toMatchObject({ totalInputTokens: 36, totalOutputTokens: 18 });
    expect(existsSync(other)).toBe(false);
    expect(logged().filter((entry) => entry.permissionAnswer !== undefined).map((entry) => entry.permissionAnswer)).toEqual([
      { outcome: { outcome: 'selected', optionId: 'allow_once' } },
      { outcome: { outcome: 'selected', optionId: 'reject_once' } },
    ]);
  });

  it('a command that is not the npm shim runs as given', async () => {
    const r = rig();
    const command = fixtureExecutable(r.dir, 'copilot', AGENT);
    const backend = track(createCopilotAcpAdapter({ command, cwd: r.work, env: { FAKE_ACP_STYLE: 'copilot', FAKE_ACP_ENV_LOG: r.envLog } }));
    const result = await harnessOf(backend).runTurn(input('say hi'));
    expect(result.outcome).toBe('completed');
    expect(r.starts()[0]!.env).not.toHaveProperty('COPILOT_OFFLINE');
  });
});

describe('createHermesAcpAdapter (fake hermes: Hermes Agent ACP as documented in its source)', () => {
  function hermes(extra: Parameters<typeof createHermesAcpAdapter>[0] = {}) {
    const r = rig();
    const command = fixtureExecutable(r.dir, 'hermes', HERMES);
    const backend = track(
      createHermesAcpAdapter({
        command,
        cwd: r.work,
        killGraceMs: 300,
        provider: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-hermes-secret', model: 'fake-model' },
        ...extra,
        env: { FAKE_HERMES_LOG: r.log, ...extra.env },
      }),
    );
    return { ...r, backend, harness: harnessOf(backend) };
  }

  it('runs `hermes acp` with HERMES_HOME in a private home; the provider is in config.yaml, its key only in the environment', async () => {
    const { harness, backend, logged } = hermes();
    const stream = harness.streamTurn(input('say hi'));
    const deltas = (await collect(stream)).filter((event) => event.type === 'text_delta').map((event) => (event as { text: string }).text);
    const result = await stream.result;
    expect(deltas).toEqual(['PONG', ' from', ' hermes']);
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from hermes' } });
    expect(result.usage).toMatchObject({ totalInputTokens: 12, totalOutputTokens: 6 });
    const [start] = logged();
    expect(start!.argv).toEqual(['acp']);
    const env = start!.env!;
    expect(env['HERMES_HOME']).toBe(join(env['HOME']!, '.hermes'));
    expect(env['HERMES_HARNESS_API_KEY']).toBe('sk-hermes-secret');
    expect(start!.config).toBe(
      'model:\n  provider: "custom:harness"\n  default: "fake-model"\nproviders:\n  harness:\n    api: "http://127.0.0.1:9/v1"\n    transport: chat_completions\n    key_env: HERMES_HARNESS_API_KEY\n',
    );
    await backend.dispose();
    expect(existsSync(env['HOME']!)).toBe(false);
    expect(isAlive(start!.pid)).toBe(false);
  });

  it('a dangerous command pauses the turn; approve answers allow_once and it runs, reject answers deny and it does not', async () => {
    const { harness, work, logged } = hermes();
    const doomed = join(work, 'doomed');
    mkdirSync(doomed);
    const paused = await harness.runTurn(input(`DANGER[${doomed}]`));
    expect(paused.outcome).toBe('awaiting_approval');
    expect(existsSync(doomed)).toBe(true);
    const done = await harness.resumeTurn(paused.continuation, approve(paused, 'approved'));
    expect(done).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'deleted' } });
    expect(existsSync(doomed)).toBe(false);

    const kept = join(work, 'kept');
    mkdirSync(kept);
    const again = await harness.runTurn(input(`DANGER[${kept}]`, { turnId: 'turn-2' }));
    const refused = await harness.resumeTurn(again.continuation, approve(again, 'rejected'));
    expect(refused).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'not deleted' } });
    expect(existsSync(kept)).toBe(true);
    expect(logged().filter((entry) => entry.permissionAnswer !== undefined).map((entry) => entry.permissionAnswer)).toEqual([
      { outcome: { outcome: 'selected', optionId: 'allow_once' } },
      { outcome: { outcome: 'selected', optionId: 'deny' } },
    ]);
  });

  it("approvalScope 'session' answers allow_session (never the permanent allow_always), and Hermes stops asking in that session", async () => {
    const { harness, work, logged } = hermes({ approvalScope: 'session' });
    const [a, b] = [join(work, 'a'), join(work, 'b')];
    mkdirSync(a);
    mkdirSync(b);
    const paused = await harness.runTurn(input(`DANGER[${a}]`));
    await harness.resumeTurn(paused.continuation, approve(paused, 'approved'));
    const next = await harness.runTurn(input(`DANGER[${b}]`, { turnId: 'turn-2' }));
    expect(next).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'deleted' } });
    expect(logged().filter((entry) => entry.permissionAnswer !== undefined).map((entry) => entry.permissionAnswer)).toEqual([
      { outcome: { outcome: 'selected', optionId: 'allow_session' } },
    ]);
  });

  it('a paused request given up by a new turn is answered cancelled, which Hermes counts as deny', async () => {
    const { harness, work, logged } = hermes();
    const kept = join(work, 'kept');
    mkdirSync(kept);
    const paused = await harness.runTurn(input(`DANGER[${kept}]`));
    expect(paused.outcome).toBe('awaiting_approval');
    const next = await harness.runTurn(input('say hi', { turnId: 'turn-2' }));
    expect(next).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from hermes' } });
    expect(existsSync(kept)).toBe(true);
    expect(logged().find((entry) => entry.permissionAnswer !== undefined)?.permissionAnswer).toEqual({ outcome: { outcome: 'cancelled' } });
  });

  it('cancel mid-turn sends session/cancel and the engine takes the next turn; dispose leaves no process', async () => {
    const { harness, backend, logged } = hermes();
    const controller = new AbortController();
    const stream = harness.streamTurn(input('HANG'), { signal: controller.signal });
    for await (const event of stream) if (event.type === 'text_delta') controller.abort();
    expect((await stream.result).stopReason).toBe('cancelled');
    // The next turn of the session waits until the cancelled prompt has ended in the engine.
    const next = await harness.runTurn(input('COUNT', { turnId: 'turn-2' }));
    expect(next.assistantMessage?.text).toMatch(/^prompts:2 /);
    expect(logged().some((entry) => entry.message?.method === 'session/cancel')).toBe(true);
    await backend.dispose();
    expect(isAlive(logged()[0]!.pid)).toBe(false);
  });

  it('resumes its own session with session/load in a new process with the same home', async () => {
    const home = tempDir('hermes-home-');
    const first = hermes({ home });
    const done = await first.harness.runTurn(input('remember this'));
    const continuation = backendContinuationFrom(done);
    await first.backend.dispose();
    const second = hermes({ home });
    const resumed = await second.harness.runTurn(input('COUNT', { turnId: 'turn-2', metadata: { backendContinuation: continuation } }));
    expect(resumed.assistantMessage?.text).toBe('prompts:1 history:2');
    expect(second.logged().map((entry) => entry.message?.method)).toContain('session/load');
  });
});

describe('probeEngineSessions: qwen-acp, copilot-acp, hermes-acp', () => {
  it('answers the ACP handshake of each, and names the install command when one is missing', async () => {
    const dir = tempDir('engine-bin-');
    fixtureExecutable(dir, 'qwen', AGENT);
    fixtureExecutable(dir, 'hermes', HERMES);
    const env = { PATH: `${dir}:${join(process.execPath, '..')}` };
    const [qwenProbe, copilotProbe, hermesProbe] = await probeEngineSessions(['qwen-acp', 'copilot-acp', 'hermes-acp'], { env });
    expect(qwenProbe).toMatchObject({ id: 'qwen-acp', protocol: 'acp', available: true, resolvedPath: join(dir, 'qwen'), version: '0.0.1' });
    expect(hermesProbe).toMatchObject({ id: 'hermes-acp', available: true, engineName: 'hermes-agent', version: '0.19.0', capabilities: expect.arrayContaining(['loadSession']) });
    expect(copilotProbe).toMatchObject({ id: 'copilot-acp', available: false, handshake: 'not_run', command: 'copilot' });
    expect(copilotProbe!.error).toContain('npm install -g @github/copilot');
    expect(copilotProbe!.error).toContain("commands['copilot-acp']");
  });
});
