import { describe, expect, it, vi } from 'vitest';
import {
  consoleTraceSink,
  createHarness,
  type HarnessModelAdapter,
  type HarnessModelConfig,
  type HarnessToolCall,
  type HarnessTraceEvent,
  type HarnessTraceSink,
} from '../index.js';
import {
  createFakeToolRegistry,
  createManualClock,
  createScriptedModel,
  createTurnInput,
  memoryTraceSink,
  type ScriptedModelStep,
} from '../testing/index.js';

const call = (id: string, name = 'lookup', input: Record<string, unknown> = { q: id }): HarnessToolCall => ({ id, name, input });
const start = Date.UTC(2026, 0, 1);

function harnessFor(model: HarnessModelAdapter, extra: Partial<Omit<HarnessModelConfig, 'model'>> = {}) {
  return createHarness({ model, clock: createManualClock(start), ...extra });
}

/** A weather turn where the model takes 100 ms per step and the tool 40 ms, on a manual clock. */
function timedTurn(trace: HarnessTraceSink) {
  const clock = createManualClock(start);
  const tools = createFakeToolRegistry({
    lookup: ({ q }) => {
      clock.advance(40);
      return { status: 'success', output: `found ${String(q)}`, usage: { costUnits: 1 } };
    },
  });
  const steps: ScriptedModelStep[] = [
    () => {
      clock.advance(100);
      return { type: 'tool_request', calls: [call('c1'), call('c2')], usage: { inputTokens: 10, outputTokens: 2 } };
    },
    () => {
      clock.advance(100);
      return { type: 'final_answer', text: 'Done.' };
    },
  ];
  const harness = createHarness({ model: createScriptedModel(steps), tools, trace, clock });
  return harness.runTurn(createTurnInput({ sessionId: 's1', userId: 'u1', workspaceId: 'w1', threadId: 't1' }));
}

const pick = (events: HarnessTraceEvent[]) =>
  events.map(({ type, iteration, toolCallCount, elapsedMs, timestamp }) => ({ type, iteration, toolCallCount, elapsedMs, timestamp }));
const at = (ms: number) => new Date(start + ms).toISOString();

describe('trace events', () => {
  it('arrive in order with turn identity, iteration, tool count and elapsed time from the injected clock', async () => {
    const trace = memoryTraceSink();
    const result = await timedTurn(trace);
    expect(result.outcome).toBe('completed');
    expect(pick(trace.events)).toEqual([
      { type: 'turn_started', iteration: 0, toolCallCount: 0, elapsedMs: 0, timestamp: at(0) },
      { type: 'model_step_started', iteration: 1, toolCallCount: 0, elapsedMs: 0, timestamp: at(0) },
      { type: 'model_step_finished', iteration: 1, toolCallCount: 0, elapsedMs: 100, timestamp: at(100) },
      { type: 'tool_requested', iteration: 1, toolCallCount: 0, elapsedMs: 100, timestamp: at(100) },
      { type: 'tool_started', iteration: 1, toolCallCount: 1, elapsedMs: 100, timestamp: at(100) },
      { type: 'tool_finished', iteration: 1, toolCallCount: 1, elapsedMs: 140, timestamp: at(140) },
      { type: 'tool_started', iteration: 1, toolCallCount: 2, elapsedMs: 140, timestamp: at(140) },
      { type: 'tool_finished', iteration: 1, toolCallCount: 2, elapsedMs: 180, timestamp: at(180) },
      { type: 'model_step_started', iteration: 2, toolCallCount: 2, elapsedMs: 180, timestamp: at(180) },
      { type: 'model_step_finished', iteration: 2, toolCallCount: 2, elapsedMs: 280, timestamp: at(280) },
      { type: 'turn_finished', iteration: 2, toolCallCount: 2, elapsedMs: 280, timestamp: at(280) },
    ]);
    for (const event of trace.events) {
      expect(event).toMatchObject({ assistantId: 'assistant-test', turnId: 'turn-test', sessionId: 's1', userId: 'u1', workspaceId: 'w1', threadId: 't1' });
    }
    expect(result.traceSummary).toMatchObject({ elapsedMs: 280, finalEventType: 'model_step_finished', traceSinkErrors: 0 });
  });

  it('carry the details of each step', async () => {
    const trace = memoryTraceSink();
    await timedTurn(trace);
    const [started, , stepFinished, requested, toolStarted, toolFinished] = trace.events;
    expect(started).not.toHaveProperty('resumedFrom');
    expect(stepFinished).toMatchObject({ outputType: 'tool_request', latencyMs: 100, usage: { inputTokens: 10, outputTokens: 2 } });
    expect(stepFinished).not.toHaveProperty('invalidKind');
    expect(requested).toMatchObject({ calls: [call('c1'), call('c2')] });
    expect(toolStarted).toMatchObject({ call: call('c1') });
    expect(toolFinished).toMatchObject({
      latencyMs: 40,
      result: { callId: 'c1', status: 'success', output: 'found c1', usage: { costUnits: 1 } },
    });
    expect(trace.events.at(-1)).toMatchObject({ type: 'turn_finished', outcome: 'completed', stopReason: 'answer_finalized' });
  });

  it('mark invalid outputs and failed tools', async () => {
    const trace = memoryTraceSink();
    const tools = createFakeToolRegistry({ lookup: () => ({ status: 'error', error: { code: 'busy', message: 'Busy' } }) });
    const model = createScriptedModel([
      { type: 'invalid', kind: 'empty_response', reason: 'nothing' },
      { type: 'tool_request', calls: [call('c1')] },
      { type: 'final_answer', text: 'ok' },
    ]);
    await harnessFor(model, { tools, trace }).runTurn(createTurnInput());
    expect(trace.events[2]).toMatchObject({ type: 'model_step_finished', outputType: 'invalid', invalidKind: 'empty_response' });
    expect(trace.events.find((event) => event.type === 'tool_failed')).toMatchObject({ result: { error: { code: 'busy' } } });
  });

  it.each([
    ['clarification', [{ type: 'clarification', question: 'Which?' }], {}, ['model_step_finished', 'clarification_requested']],
    [
      'approval of a tool',
      [{ type: 'tool_request', calls: [call('c1', 'pay')] }],
      { tools: createFakeToolRegistry({ pay: { requiresApproval: true, execute: () => 'paid' } }) },
      ['model_step_finished', 'approval_requested'],
    ],
    [
      'max tool calls',
      [{ type: 'tool_request', calls: [call('c1'), call('c2')] }],
      { tools: createFakeToolRegistry({ lookup: () => 'x' }), limits: { maxToolCalls: 1 } },
      ['tool_requested', 'tool_started', 'tool_finished', 'limit_reached'],
    ],
    ['refusal', [{ type: 'refusal', reason: 'no' }], {}, ['model_step_started', 'model_step_finished']],
  ] as [string, ScriptedModelStep[], Partial<HarnessModelConfig>, string[]][])(
    'end with the right events for a %s',
    async (_name, steps, config, tail) => {
      const trace = memoryTraceSink();
      const result = await harnessFor(createScriptedModel(steps), { ...config, trace }).runTurn(createTurnInput());
      expect(trace.types().slice(-tail.length - 1)).toEqual([...tail, 'turn_finished']);
      expect(result.traceSummary.finalEventType).toBe(tail.at(-1));
    },
  );

  it('are delivered synchronously, before the step they describe runs', async () => {
    const trace = memoryTraceSink();
    const seenByModel: string[] = [];
    const seenByTool: string[] = [];
    const tools = createFakeToolRegistry({
      lookup: () => {
        seenByTool.push(trace.types().at(-1)!);
        return 'x';
      },
    });
    const model = createScriptedModel([
      () => {
        seenByModel.push(trace.types().at(-1)!);
        return { type: 'tool_request', calls: [call('c1')] };
      },
      { type: 'final_answer', text: 'ok' },
    ]);
    await harnessFor(model, { tools, trace }).runTurn(createTurnInput());
    expect(seenByModel).toEqual(['model_step_started']);
    expect(seenByTool).toEqual(['tool_started']);
  });

  it("carry an adapter's notes on model_step_finished, bounded; bad notes never fail the step", async () => {
    const trace = memoryTraceSink();
    const long = 'x'.repeat(2_000);
    const notes = ['Skipped an output item of type "tool_search_call".', 7, '', long, ...Array.from({ length: 30 }, (_, index) => `note ${index}`)];
    const model = createScriptedModel([
      { type: 'final_answer', text: 'Done.', notes: notes as string[] },
    ]);
    const result = await harnessFor(model, { trace }).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    const finished = trace.events.find((event) => event.type === 'model_step_finished');
    const kept = (finished as { notes?: string[] }).notes!;
    expect(kept[0]).toBe('Skipped an output item of type "tool_search_call".');
    expect(kept[1]).toHaveLength(500);
    expect(kept.every((note) => typeof note === 'string' && note.length <= 500)).toBe(true);
    // The first 16 entries are read; the number and the empty string among them are dropped.
    expect(kept).toHaveLength(14);
  });

  it('still fill in finalEventType without a sink', async () => {
    const model = createScriptedModel([{ type: 'tool_request', calls: [call('c1')] }]);
    const result = await harnessFor(model, { tools: createFakeToolRegistry({ lookup: () => 'x' }), limits: { maxIterations: 1 } }).runTurn(
      createTurnInput(),
    );
    expect(result.traceSummary).toMatchObject({ finalEventType: 'limit_reached', traceSinkErrors: 0 });
  });
});

describe('trace sink faults never change the outcome', () => {
  async function runWith(sink: HarnessTraceSink) {
    const reference = memoryTraceSink();
    const expected = await timedTurn(reference);
    const result = await timedTurn(sink);
    return { expected, result, eventCount: reference.events.length };
  }

  it('counts a sink that throws on every event', async () => {
    const emit = vi.fn(() => {
      throw new Error('sink down');
    });
    const { expected, result, eventCount } = await runWith({ emit });
    expect(emit).toHaveBeenCalledTimes(eventCount);
    expect(result).toEqual({ ...expected, traceSummary: { ...expected.traceSummary, traceSinkErrors: eventCount } });
  });

  it('counts an async sink that fails on every event', async () => {
    const { expected, result, eventCount } = await runWith({
      async emit() {
        throw new Error('sink down');
      },
    });
    expect(result).toEqual({ ...expected, traceSummary: { ...expected.traceSummary, traceSinkErrors: eventCount } });
  });

  it('never reports a late rejection as a change of outcome', async () => {
    const { expected, result } = await runWith({ emit: async () => Promise.reject(new Error('sink down')) });
    expect(result.outcome).toBe(expected.outcome);
    expect(result.traceSummary.traceSinkErrors).toBeGreaterThan(0);
  });

  it('counts a sink that throws only on turn_finished', async () => {
    const { result } = await runWith({
      emit(event) {
        if (event.type === 'turn_finished') throw new Error('late');
      },
    });
    expect(result.traceSummary.traceSinkErrors).toBe(1);
    expect(result.outcome).toBe('completed');
  });

  it('does not wait for a sink that never settles', async () => {
    const emit = vi.fn(() => new Promise<void>(() => undefined));
    const outcome = await Promise.race([
      runWith({ emit }).then(({ result, expected }) => ({ result, expected })),
      new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 2_000)),
    ]);
    expect(outcome).not.toBe('hung');
    if (outcome === 'hung') return;
    expect(outcome.result).toEqual(outcome.expected);
    expect(emit).toHaveBeenCalled();
  });

  it('survives a sink that returns a thenable whose then throws', async () => {
    const { result, eventCount } = await runWith({
      emit: () =>
        ({
          then() {
            throw new Error('bad thenable');
          },
        }) as unknown as Promise<void>,
    });
    expect(result.outcome).toBe('completed');
    expect(result.traceSummary.traceSinkErrors).toBe(eventCount);
  });
});

describe('consoleTraceSink', () => {
  it('prints one summary line per event, or the event as JSON', async () => {
    const lines: string[] = [];
    await timedTurn(consoleTraceSink({ log: (line) => lines.push(line) }));
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe('[turn-test #0 +0ms] turn_started');
    expect(lines[3]).toBe('[turn-test #1 +100ms] tool_requested lookup, lookup');
    expect(lines.at(-1)).toBe('[turn-test #2 +280ms] turn_finished completed/answer_finalized');
    const json: string[] = [];
    await timedTurn(consoleTraceSink({ log: (line) => json.push(line), json: true }));
    expect(JSON.parse(json[0]!)).toMatchObject({ type: 'turn_started', turnId: 'turn-test' });
  });
});
