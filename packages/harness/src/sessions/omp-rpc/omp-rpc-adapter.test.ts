// createOmpRpcAdapter through createHarness against a fake `omp --mode rpc` (a real child process
// speaking omp's JSONL): streaming, usage, approvals answered in the live engine, steering, abort
// held until agent_start, model errors, crashes, hostile lines, and the private home.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backendContinuationFrom, createHarness, createSteering, HarnessConfigError, type HarnessResult, type HarnessStreamEvent } from '../../index.js';
import { cleanupTempDirs, tempDir, turnInput } from '../../local/__fixtures__/test-helpers.js';
import { createOmpRpcAdapter, type OmpRpcExecutionAdapter } from './omp-rpc-adapter.js';
import type { OmpRpcAdapterOptions } from './omp-rpc-options.js';

const script = join(import.meta.dirname, '__fixtures__', 'fake-omp.mjs');
const adapters: OmpRpcExecutionAdapter[] = [];

afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.dispose()));
  cleanupTempDirs();
});

function setup(extra: OmpRpcAdapterOptions = {}) {
  const dir = tempDir('harness-omp-');
  const command = join(dir, 'omp');
  writeFileSync(command, `#!/bin/sh\nexec '${process.execPath}' '${script}' "$@"\n`);
  chmodSync(command, 0o755);
  const logFile = join(dir, 'log');
  const backend = createOmpRpcAdapter({ command, cwd: dir, env: { FAKE_OMP_LOG: logFile }, killGraceMs: 300, ...extra });
  adapters.push(backend);
  const harness = createHarness({ backend, limits: { maxElapsedMs: 30_000 } });
  const commands = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>) : []);
  return { backend, harness, dir, commands };
}

const input = (text: string) => turnInput(text, { sessionId: 'chat-1' });

async function collect(stream: AsyncIterable<HarnessStreamEvent>): Promise<HarnessStreamEvent[]> {
  const events: HarnessStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const approvalIdOf = (result: HarnessResult) => (result.metadata?.['approvalRequests'] as { id: string }[])[0]!.id;

describe('createOmpRpcAdapter', () => {
  it('declares steering, native approvals and streaming; yolo says it asks nothing', () => {
    expect(setup().backend.describeCapabilities()).toMatchObject({ steer: true, approvalInterrupts: 'native', streaming: true, continuationSupport: 'opaque-resume' });
    expect(setup({ approvalMode: 'yolo' }).backend.describeCapabilities()).toMatchObject({ approvalInterrupts: 'none' });
  });

  it('refuses bad options by name', () => {
    expect(() => createOmpRpcAdapter({ approvalMode: 'never' as never })).toThrow(HarnessConfigError);
    expect(() => createOmpRpcAdapter({ provider: { baseUrl: 'ftp://x', model: 'm' } })).toThrow(/provider\.baseUrl/);
    expect(() => createOmpRpcAdapter({ provider: { baseUrl: 'http://x/v1', model: 'm\nx' } })).toThrow(/provider\.model/);
    expect(() => createOmpRpcAdapter({ model: '--yolo' })).toThrow(HarnessConfigError);
  });

  it('streams text, sums usage and cost, keeps the live engine for the session, and names its session', async () => {
    const { harness, commands } = setup();
    const events = await collect(harness.streamTurn(input('hello')));
    const result = await harness.runTurn(input('again'));
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG' } });
    expect(events.filter((event) => event.type === 'text_delta').map((event) => (event as { text: string }).text).join('')).toBe('PONG');
    expect(result.usage).toMatchObject({ totalInputTokens: 12, totalOutputTokens: 6, totalCostUnits: 0.25 });
    expect(backendContinuationFrom(result)).toMatchObject({ kind: 'omp-rpc.session', continuationId: '019aa0aa-0000-7000-8000-00000000f00d' });
    const sent = commands();
    expect(sent.filter((command) => command['type'] === 'get_state')).toHaveLength(1);
    expect(sent.filter((command) => command['type'] === 'prompt')).toHaveLength(2);
  });

  it('starts omp asking before tools, in a private home removed by dispose, with the provider key in the environment only', async () => {
    const { backend, harness, commands } = setup({ provider: { baseUrl: 'http://127.0.0.1:9/v1', model: 'fake-model', apiKey: 'sk-omp-secret' } });
    await harness.runTurn(input('hello'));
    const started = commands().find((entry) => entry['started'] === true) as { argv: string[]; home: string; key: string };
    expect(started.argv).toEqual(['--mode', 'rpc', '--model', 'harness/fake-model', '--approval-mode', 'always-ask']);
    expect(started.key).toBe('sk-omp-secret');
    const file = readFileSync(join(started.home, '.omp', 'agent', 'models.yml'), 'utf8');
    expect(JSON.parse(file)).toMatchObject({ providers: { harness: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'OMP_HARNESS_API_KEY', models: [{ id: 'fake-model' }] } } });
    expect(file).not.toContain('sk-omp-secret');
    await backend.dispose();
    expect(existsSync(started.home)).toBe(false);
  });

  it('an approval pauses the turn; approve runs the tool in the same engine, reject reports it rejected', async () => {
    const { harness } = setup();
    const stream = harness.streamTurn(input('ASK'));
    const events = await collect(stream);
    const first = await stream.result;
    expect(first).toMatchObject({ outcome: 'awaiting_approval' });
    expect(events.find((event) => event.type === 'approval_requested')).toMatchObject({ kind: 'command', command: 'touch MARKER' });
    const done = await harness.resumeTurn(first.continuation!, { type: 'approval', decisions: { [approvalIdOf(first)]: 'approved' } });
    expect(done).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'DONE after tool' } });
    const second = await harness.runTurn(input('ASK again'));
    const refusedEvents: HarnessStreamEvent[] = [];
    const resumed = harness.streamResumeTurn(second.continuation!, { type: 'approval', decisions: { [approvalIdOf(second)]: 'rejected' } });
    refusedEvents.push(...(await collect(resumed)));
    const refused = await resumed.result;
    expect(refused).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'OK, not running it' } });
    expect(refusedEvents.find((event) => event.type === 'tool_activity' && event.phase === 'finished')).toMatchObject({ status: 'rejected' });
  });

  it('steering reaches the running turn', async () => {
    const { harness } = setup();
    const steering = createSteering();
    const stream = harness.streamTurn(input('WAIT_STEER'), { steering });
    let outcome: Promise<unknown> | undefined;
    for await (const event of stream) if (event.type === 'text_delta') outcome ??= steering.steer('use staging');
    expect(await outcome).toMatchObject({ status: 'delivered' });
    expect(await stream.result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'thinking… PONG after use staging' } });
  });

  it('cancel sends abort to the running turn; the engine takes the next turn', async () => {
    const { harness, commands } = setup();
    const controller = new AbortController();
    const stream = harness.streamTurn(input('HANG'), { signal: controller.signal });
    for await (const event of stream) if (event.type === 'text_delta') controller.abort();
    expect((await stream.result).stopReason).toBe('cancelled');
    // The next turn waits for the cancelled one to end in the engine (the session is busy until then).
    expect((await harness.runTurn(input('hello'))).outcome).toBe('completed');
    expect(commands().some((command) => command['type'] === 'abort')).toBe(true);
  });

  it('a failed model call fails the turn with the first line of the error; a crash fails it and restarts', async () => {
    const { harness } = setup();
    const failed = await harness.runTurn(input('ERROR'));
    expect(failed.outcome).toBe('failed');
    expect(JSON.stringify(failed.metadata?.['error'])).toContain('400 fake injected HTTP 400');
    expect(JSON.stringify(failed.metadata?.['error'])).not.toContain('raw-http-request');
    const crashed = await harness.runTurn(input('CRASH'));
    expect(crashed.outcome).toBe('failed');
    expect(JSON.stringify(crashed.metadata?.['error'])).toContain('The engine exited');
    expect((await harness.runTurn(input('hello'))).outcome).toBe('completed');
  });

  it('ignores hostile lines (not JSON, __proto__ ids, endless ids, wrong types) and cancels UI requests it cannot answer', async () => {
    const { harness, commands } = setup();
    const result = await harness.runTurn(input('GARBAGE'));
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG' } });
    // The engine reads its input in order: once it answered the next turn, it had read the cancel.
    expect((await harness.runTurn(input('hello'))).outcome).toBe('completed');
    expect(commands()).toContainEqual({ type: 'extension_ui_response', id: '__proto__', cancelled: true });
  });

  it('resumes a session in a new engine with --resume', async () => {
    const first = setup();
    const one = await first.harness.runTurn(input('hello'));
    const second = setup({ home: first.dir });
    const two = await second.harness.runTurn(turnInput('again', { sessionId: 'chat-1', metadata: { backendContinuation: backendContinuationFrom(one) } }));
    expect(two.outcome).toBe('completed');
    expect(backendContinuationFrom(two)?.continuationId).toBe(backendContinuationFrom(one)?.continuationId);
  });
});
