// streamTurn over a backend that reports live events (ExecutionOptions.onEvent): a real child
// process prints JSON lines; a LocalCommand adapter turns them into events while it runs.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from './create-harness.js';
import { HarnessConfigError } from './errors/harness-config-error.js';
import type { HarnessStreamEvent } from './types/runtime.js';
import type { HarnessTraceEvent } from './types/trace.js';
import type { ExecutionAdapter, ExecutionStreamEvent } from '../execution/types.js';
import { LocalCommandExecutionAdapter } from '../local/local-command-adapter.js';
import { PLAIN_CAPABILITIES, turnInput } from '../local/__fixtures__/test-helpers.js';
import { defineExecutionAdapter } from './define-execution-adapter.js';

const engine = fileURLToPath(new URL('./__fixtures__/streaming-engine.mjs', import.meta.url));
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A loopback server whose GET answers only after `open()`: the engine waits on it at a `gate` step. */
async function gate(): Promise<{ url: string; open: () => void; requested: Promise<void> }> {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let requested!: () => void;
  const wasRequested = new Promise<void>((resolve) => (requested = resolve));
  const server = createServer((_request, response) => {
    requested();
    void opened.then(() => response.end('go'));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, open, requested: wasRequested };
}

type Step = { line: unknown } | { raw: string } | { gate: true };

/** The engine as a backend: lines `{ event }` are live events, the line `{ final }` is the answer. */
function engineBackend(steps: Step[], gateUrl = 'http://127.0.0.1:9/') {
  const seenOptions: { onEvent: boolean }[] = [];
  const backend = new LocalCommandExecutionAdapter({
    backendId: 'streaming-engine',
    command: process.execPath,
    capabilities: { ...PLAIN_CAPABILITIES, streaming: true },
    buildArgs: (_request, context) => {
      seenOptions.push({ onEvent: context.streaming === true });
      return [engine];
    },
    stdin: (request) => request.message.text,
    env: { ENGINE_SCRIPT: JSON.stringify(steps), GATE_URL: gateUrl },
    streamEvents: () => (line) => {
      const parsed = JSON.parse(line) as { event?: ExecutionStreamEvent };
      return parsed.event === undefined ? [] : [parsed.event];
    },
    parseOutput: (stdout) => {
      const final = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { final?: string })
        .find((line) => line.final !== undefined);
      return final === undefined ? null : { text: final.final };
    },
  });
  return { backend, seenOptions };
}

async function collect(stream: AsyncIterable<HarnessStreamEvent>, onEvent?: (event: HarnessStreamEvent) => void) {
  const events: HarnessStreamEvent[] = [];
  for await (const event of stream) {
    events.push(event);
    onEvent?.(event);
  }
  return events;
}

const deltas = (events: HarnessStreamEvent[]) =>
  events.filter((event): event is Extract<HarnessStreamEvent, { type: 'text_delta' }> => event.type === 'text_delta').map((event) => event.text);

describe('streamTurn over a backend that streams', () => {
  it('streams text deltas, tool activity and plans while the process runs, and never repeats the answer', async () => {
    const door = await gate();
    const { backend } = engineBackend(
      [
        { line: { event: { type: 'plan_update', entries: [{ content: 'say hello', status: 'in_progress' }] } } },
        { line: { event: { type: 'tool_activity', phase: 'started', toolCallId: 't1', name: 'Bash', kind: 'command', command: 'echo hi' } } },
        { line: { event: { type: 'text_delta', text: 'Hello ' } } },
        { gate: true },
        { line: { event: { type: 'tool_activity', phase: 'finished', toolCallId: 't1', name: 'Bash', status: 'succeeded' } } },
        { line: { event: { type: 'text_delta', text: 'world' } } },
        { line: { final: 'Hello world' } },
      ],
      door.url,
    );
    const stream = createHarness({ backend }).streamTurn(turnInput('hi'));
    let sawFirstDeltaWhileWaiting = false;
    const events = await collect(stream, (event) => {
      if (event.type === 'text_delta' && event.text === 'Hello ') {
        // The engine is blocked on the gate until we open it: this delta arrived mid-run.
        void door.requested.then(() => {
          sawFirstDeltaWhileWaiting = true;
          door.open();
        });
      }
    });
    const result = await stream.result;
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Hello world' } });
    expect(sawFirstDeltaWhileWaiting).toBe(true);
    expect(deltas(events)).toEqual(['Hello ', 'world']);
    expect(deltas(events).join('')).toBe(result.assistantMessage?.text);
    expect(events.map((event) => event.type)).toEqual([
      'turn_started',
      'step_started',
      'plan_update',
      'tool_activity',
      'text_delta',
      'tool_activity',
      'text_delta',
      'step_finished',
      'result',
    ]);
    expect(events[2]).toEqual({ type: 'plan_update', iteration: 1, entries: [{ content: 'say hello', status: 'in_progress' }] });
    expect(events[3]).toEqual({ type: 'tool_activity', iteration: 1, phase: 'started', toolCallId: 't1', name: 'Bash', kind: 'command', command: 'echo hi' });
    expect(result.metadata?.['droppedStreamEvents']).toBeUndefined();
  });

  it('streams only the rest of the answer when the deltas were a prefix of it', async () => {
    const { backend } = engineBackend([{ line: { event: { type: 'text_delta', text: 'Hello' } } }, { line: { final: 'Hello there' } }]);
    const stream = createHarness({ backend }).streamTurn(turnInput('hi'));
    const events = await collect(stream);
    expect(deltas(events)).toEqual(['Hello', ' there']);
  });

  it('adds nothing when the deltas diverge from the answer, and says so in metadata', async () => {
    const { backend } = engineBackend([
      { line: { event: { type: 'text_delta', text: 'Let me check. ' } } },
      { line: { event: { type: 'text_delta', text: 'Done.' } } },
      { line: { final: 'Done.' } },
    ]);
    const stream = createHarness({ backend }).streamTurn(turnInput('hi'));
    const events = await collect(stream);
    expect(deltas(events)).toEqual(['Let me check. ', 'Done.']);
    expect((await stream.result).metadata).toMatchObject({ streamedTextDiverged: true });
  });

  it('streams the whole answer once at the end when the backend streamed nothing', async () => {
    const { backend } = engineBackend([{ line: { final: 'All at once' } }]);
    const stream = createHarness({ backend }).streamTurn(turnInput('hi'));
    expect(deltas(await collect(stream))).toEqual(['All at once']);
  });

  it('drops malformed events (counted in metadata) and strips fields outside the documented shape', async () => {
    const { backend } = engineBackend([
      { line: { event: { type: 'text_delta', text: 42 } } },
      { line: { event: { type: 'made_up' } } },
      { line: { event: { type: 'tool_activity', phase: 'started', name: 'Bash' } } },
      { line: { event: { type: 'plan_update', entries: [{ content: 'x', status: 'nearly' }] } } },
      { line: { event: { type: 'approval_requested', approvalKey: 'k1', title: 'rm -rf /tmp/x', apiKey: 'sk-secret', options: [{ optionId: 'once', name: 'Allow', kind: 'allow_once', extra: 1 }] } } },
      { line: { final: 'ok' } },
    ]);
    const stream = createHarness({ backend }).streamTurn(turnInput('hi'));
    const events = await collect(stream);
    const approval = events.find((event) => event.type === 'approval_requested');
    expect(approval).toEqual({
      type: 'approval_requested',
      iteration: 1,
      approvalKey: 'k1',
      title: 'rm -rf /tmp/x',
      options: [{ optionId: 'once', name: 'Allow', kind: 'allow_once' }],
    });
    expect(JSON.stringify(events)).not.toContain('sk-secret');
    expect(events.filter((event) => event.type === 'tool_activity' || event.type === 'plan_update')).toEqual([]);
    expect((await stream.result).metadata).toMatchObject({ droppedStreamEvents: 4 });
  });

  it('gives the backend no onEvent under runTurn, so the CLI is not asked to stream', async () => {
    const { backend, seenOptions } = engineBackend([{ line: { event: { type: 'text_delta', text: 'x' } } }, { line: { final: 'x' } }]);
    const harness = createHarness({ backend });
    expect(await harness.runTurn(turnInput('hi'))).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'x' } });
    await collect(harness.streamTurn(turnInput('hi')));
    expect(seenOptions).toEqual([{ onEvent: false }, { onEvent: true }]);
  });

  it('ignores events a backend sends after its execute settled, and survives a backend whose events throw on read', async () => {
    let late: ((event: ExecutionStreamEvent) => void) | undefined;
    const backend: ExecutionAdapter = defineExecutionAdapter({
      backendId: 'late',
      describeCapabilities: () => ({ ...PLAIN_CAPABILITIES, streaming: true }),
      negotiate: () => ({ supported: true, degraded: false, reasons: [], effectiveCapabilities: { ...PLAIN_CAPABILITIES } }),
      execute: async (_request, options) => {
        late = options?.onEvent;
        const hostile = Object.defineProperty({ type: 'text_delta' }, 'text', {
          enumerable: true,
          get() {
            throw new Error('boom');
          },
        });
        options?.onEvent?.(hostile as ExecutionStreamEvent);
        options?.onEvent?.({ type: 'text_delta', text: 'on time' });
        return { backendId: 'late', status: 'completed', output: { text: 'on time' } };
      },
    });
    const stream = createHarness({ backend }).streamTurn(turnInput('hi'));
    const events: HarnessStreamEvent[] = [];
    for await (const event of stream) {
      events.push(event);
      if (event.type === 'step_finished') late?.({ type: 'text_delta', text: 'too late' });
    }
    expect(deltas(events)).toEqual(['on time']);
    expect((await stream.result).metadata).toMatchObject({ droppedStreamEvents: 1 });
  });

  it('keeps live events out of the trace sink', async () => {
    const trace: HarnessTraceEvent[] = [];
    const { backend } = engineBackend([{ line: { event: { type: 'text_delta', text: 'x' } } }, { line: { final: 'x' } }]);
    await collect(createHarness({ backend, trace: { emit: (event) => void trace.push(event) } }).streamTurn(turnInput('hi')));
    expect(trace.map((event) => event.type)).toEqual(['turn_started', 'model_step_started', 'model_step_finished', 'turn_finished']);
  });

  it('streamResumeTurn streams the live events of the resumed backend turn', async () => {
    const backend = new LocalCommandExecutionAdapter({
      backendId: 'streaming-engine',
      command: process.execPath,
      capabilities: { ...PLAIN_CAPABILITIES, approvalInterrupts: 'native', continuationSupport: 'opaque-resume', streaming: true },
      buildArgs: () => [engine],
      stdin: (request) => request.message.text,
      env: {
        ENGINE_SCRIPT: JSON.stringify([
          { line: { event: { type: 'tool_activity', phase: 'started', toolCallId: 'c1', name: 'shell', kind: 'command', command: 'touch x' } } },
          { line: { event: { type: 'text_delta', text: 'ran it' } } },
        ]),
      },
      streamEvents: () => (line) => [(JSON.parse(line) as { event: ExecutionStreamEvent }).event],
      parseOutput: (_stdout, { request }) =>
        request.resume === undefined
          ? { status: 'awaiting_approval', text: 'May I run touch x?', continuation: { kind: 'engine', continuationId: 's1' } }
          : { text: 'ran it' },
    });
    const harness = createHarness({ backend });
    const paused = await harness.runTurn(turnInput('touch x please'));
    expect(paused.outcome).toBe('awaiting_approval');
    const approvalId = (paused.metadata?.['approvalRequests'] as { id: string }[])[0]!.id;
    const stream = harness.streamResumeTurn(paused.continuation, { type: 'approval', decisions: { [approvalId]: 'approved' } });
    const events = await collect(stream);
    expect(events.map((event) => event.type)).toEqual(['turn_started', 'step_started', 'tool_activity', 'text_delta', 'step_finished', 'result']);
    expect(await stream.result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'ran it' } });
  });

  it('streamResumeTurn rejects a malformed resolution with HarnessConfigError', async () => {
    const { backend } = engineBackend([{ line: { final: 'x' } }]);
    const stream = createHarness({ backend }).streamResumeTurn({}, { type: 'nonsense' } as never);
    await expect(stream.result).rejects.toBeInstanceOf(HarnessConfigError);
    await expect(collect(stream)).rejects.toBeInstanceOf(HarnessConfigError);
  });
});

