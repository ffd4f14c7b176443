import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createHarness,
  type HarnessLoopContinuationState,
  type HarnessModelAdapter,
  type HarnessModelConfig,
  type HarnessModelInput,
  type HarnessModelOutput,
  type HarnessResult,
  type HarnessRunOptions,
  type HarnessToolCall,
  type HarnessToolExecutionContext,
  type HarnessTurnInput,
} from '../index.js';
import { createFakeToolRegistry, createScriptedModel, createTurnInput, memoryTraceSink } from '../testing/index.js';

const call = (id: string, name = 'lookup', input: Record<string, unknown> = { q: id }): HarnessToolCall => ({ id, name, input });
const never = <T>() => new Promise<T>(() => undefined);
const loopState = (result: HarnessResult) => result.continuation?.state as HarnessLoopContinuationState;

function harnessFor(model: HarnessModelAdapter, extra: Partial<Omit<HarnessModelConfig, 'model'>> = {}) {
  return createHarness({ model, ...extra });
}

/** A model whose calls never settle and which ignores its signal; records every input. */
function hangingModel() {
  const calls: HarnessModelInput[] = [];
  const model: HarnessModelAdapter = {
    nextStep(input) {
      calls.push(input);
      return never();
    },
  };
  return { model, calls };
}

/** Starts a turn and reports whether it has settled yet. */
function start(harness: ReturnType<typeof createHarness>, input: HarnessTurnInput, options?: HarnessRunOptions) {
  let settled = false;
  const result = harness.runTurn(input, options).finally(() => {
    settled = true;
  });
  return { result, settled: () => settled };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('timeout during a hanging model call', () => {
  it('defers timeout_reached exactly at maxElapsedMs, aborts the model’s signal and leaves no timer', async () => {
    const trace = memoryTraceSink();
    const { model, calls } = hangingModel();
    const turn = start(harnessFor(model, { trace, limits: { maxElapsedMs: 1_000 } }), createTurnInput());
    await vi.advanceTimersByTimeAsync(999);
    expect(turn.settled()).toBe(false);
    expect(calls[0]?.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const result = await turn.result;
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'timeout_reached' });
    expect(result.continuation).toMatchObject({ type: 'deferred', state: { stopReason: 'timeout_reached' } });
    expect(result.traceSummary).toMatchObject({ iterationCount: 1, elapsedMs: 1_000 });
    expect(result.usage.modelCalls).toBe(1);
    expect(calls[0]?.signal.aborted).toBe(true);
    expect(calls[0]?.signal.reason).toMatchObject({ name: 'TurnInterrupted', reason: 'timeout' });
    expect(trace.types()).toEqual(['turn_started', 'model_step_started', 'limit_reached', 'turn_finished']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('uses the default 30 000 ms when no limit is given', async () => {
    const { model } = hangingModel();
    const turn = start(harnessFor(model), createTurnInput());
    await vi.advanceTimersByTimeAsync(29_999);
    expect(turn.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await turn.result).stopReason).toBe('timeout_reached');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps what happened before the hanging step in the result and the continuation', async () => {
    let step = 0;
    const model: HarnessModelAdapter = {
      nextStep: async () => {
        step += 1;
        return step === 1 ? { type: 'tool_request', calls: [call('c1')] } : never();
      },
    };
    const tools = createFakeToolRegistry({ lookup: () => 'found' });
    const turn = start(harnessFor(model, { tools, limits: { maxElapsedMs: 100 } }), createTurnInput());
    await vi.advanceTimersByTimeAsync(100);
    const result = await turn.result;
    expect(result.stopReason).toBe('timeout_reached');
    expect(result.transcript.map((item) => item.type)).toEqual(['assistant_step', 'tool_result']);
    expect(loopState(result).transcript).toEqual(result.transcript);
    expect(loopState(result).pendingCalls).toBeUndefined();
  });

  it('ignores what the model returns after the turn ended', async () => {
    let answer: (output: HarnessModelOutput) => void = () => undefined;
    const model: HarnessModelAdapter = {
      nextStep: () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    };
    const trace = memoryTraceSink();
    const turn = start(harnessFor(model, { trace, limits: { maxElapsedMs: 50 } }), createTurnInput());
    await vi.advanceTimersByTimeAsync(50);
    const result = await turn.result;
    const eventCount = trace.events.length;
    answer({ type: 'final_answer', text: 'too late' });
    await vi.advanceTimersByTimeAsync(10);
    expect(result.stopReason).toBe('timeout_reached');
    expect(result.assistantMessage).toBeUndefined();
    expect(trace.events).toHaveLength(eventCount);
  });

  it('reports timeout_reached, not a runtime error, for an adapter that honours the signal', async () => {
    const model: HarnessModelAdapter = {
      nextStep: ({ signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(new DOMException('This operation was aborted', 'AbortError')));
        }),
    };
    const turn = start(harnessFor(model, { limits: { maxElapsedMs: 10 } }), createTurnInput());
    await vi.advanceTimersByTimeAsync(10);
    const result = await turn.result;
    expect(result.stopReason).toBe('timeout_reached');
    expect(result.metadata).toBeUndefined();
  });
});

describe('caller cancel during a hanging model call', () => {
  it('defers cancelled at once, aborts the model’s signal and detaches from the caller signal', async () => {
    const trace = memoryTraceSink();
    const { model, calls } = hangingModel();
    const caller = new AbortController();
    const turn = start(harnessFor(model, { trace }), createTurnInput(), { signal: caller.signal });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    caller.abort(new Error('user left'));
    const result = await turn.result;
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'cancelled' });
    expect(result.continuation?.type).toBe('deferred');
    expect(calls[0]?.signal.aborted).toBe(true);
    expect(calls[0]?.signal.reason).toMatchObject({ name: 'TurnInterrupted', reason: 'cancelled' });
    expect(trace.types()).toEqual(['turn_started', 'model_step_started', 'turn_finished']);
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('does not call the model when the caller signal is already aborted', async () => {
    const { model, calls } = hangingModel();
    const caller = new AbortController();
    caller.abort();
    const tools = createFakeToolRegistry({ lookup: () => 'x' });
    const result = await harnessFor(model, { tools }).runTurn(createTurnInput(), { signal: caller.signal });
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'cancelled' });
    expect(result.traceSummary.iterationCount).toBe(0);
    expect(result.continuation?.type).toBe('deferred');
    expect(calls).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('hanging tool calls', () => {
  function hangingTools() {
    const contexts: HarnessToolExecutionContext[] = [];
    const tools = createFakeToolRegistry({
      lookup: () => 'quick',
      stuck: (_input, context) => {
        contexts.push(context);
        return never<string>();
      },
    });
    return { tools, contexts };
  }

  it('defers timeout_reached during a tool that ignores its signal, recording it as interrupted and carrying the rest', async () => {
    const { tools, contexts } = hangingTools();
    const model = createScriptedModel([{ type: 'tool_request', calls: [call('c1'), call('c2', 'stuck'), call('c3')] }]);
    const trace = memoryTraceSink();
    const turn = start(harnessFor(model, { tools, trace, limits: { maxElapsedMs: 2_000 } }), createTurnInput());
    await vi.advanceTimersByTimeAsync(1_999);
    expect(turn.settled()).toBe(false);
    expect(contexts[0]?.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const result = await turn.result;
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'timeout_reached' });
    expect(contexts[0]?.signal.aborted).toBe(true);
    expect(result.transcript.slice(1)).toMatchObject([
      { type: 'tool_result', result: { callId: 'c1', status: 'success' } },
      {
        type: 'tool_result',
        result: { callId: 'c2', status: 'error', error: { code: 'tool_interrupted', retryable: true, message: expect.stringMatching(/time limit/) } },
      },
    ]);
    expect(loopState(result).pendingCalls).toEqual([call('c3')]);
    expect(tools.callsOf('lookup')).toHaveLength(1);
    expect(result.usage.toolCalls).toBe(2);
    expect(model.calls).toHaveLength(1);
    expect(trace.types().slice(-4)).toEqual(['tool_started', 'tool_failed', 'limit_reached', 'turn_finished']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('defers cancelled when the caller aborts during a hanging tool', async () => {
    const { tools, contexts } = hangingTools();
    const model = createScriptedModel([{ type: 'tool_request', calls: [call('c1', 'stuck'), call('c2')] }]);
    const caller = new AbortController();
    const turn = start(harnessFor(model, { tools }), createTurnInput(), { signal: caller.signal });
    await vi.advanceTimersByTimeAsync(0);
    expect(contexts).toHaveLength(1);
    caller.abort();
    const result = await turn.result;
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'cancelled' });
    expect(contexts[0]?.signal.aborted).toBe(true);
    expect(result.transcript.at(-1)).toMatchObject({
      result: { callId: 'c1', error: { code: 'tool_interrupted', message: expect.stringMatching(/cancelled/) } },
    });
    expect(loopState(result).pendingCalls).toEqual([call('c2')]);
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('keeps results that finished in the same parallel window, in call order', async () => {
    const { tools } = hangingTools();
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1', 'stuck'), call('c2'), call('c3', 'lookup', { q: 3 })] },
    ]);
    const turn = start(harnessFor(model, { tools, limits: { toolConcurrency: 2, maxElapsedMs: 100 } }), createTurnInput());
    await vi.advanceTimersByTimeAsync(100);
    const result = await turn.result;
    expect(result.stopReason).toBe('timeout_reached');
    expect(result.transcript.slice(1)).toMatchObject([
      { result: { callId: 'c1', error: { code: 'tool_interrupted' } } },
      { result: { callId: 'c2', status: 'success', output: 'quick' } },
    ]);
    expect(loopState(result).pendingCalls).toEqual([call('c3', 'lookup', { q: 3 })]);
  });

  it('carries over-limit calls along with the not-started ones', async () => {
    const { tools } = hangingTools();
    const model = createScriptedModel([{ type: 'tool_request', calls: [call('c1', 'stuck'), call('c2'), call('c3')] }]);
    const turn = start(harnessFor(model, { tools, limits: { maxToolCalls: 2, maxElapsedMs: 100 } }), createTurnInput());
    await vi.advanceTimersByTimeAsync(100);
    const result = await turn.result;
    expect(loopState(result).pendingCalls?.map((pending) => pending.id)).toEqual(['c2', 'c3']);
  });
});

describe('other waits are bounded too', () => {
  it.each([
    ['tools.listAvailable', { tools: { listAvailable: () => never<never>(), execute: vi.fn() } }, [] as const],
    [
      'hooks.onToolError',
      {
        tools: createFakeToolRegistry({ lookup: () => ({ status: 'error', error: { code: 'e', message: 'm' } }) }),
        hooks: { onToolError: () => never<void>() },
      },
      [{ type: 'tool_request', calls: [call('c1')] }] as const,
    ],
    [
      'hooks.clarifyOnToolResult',
      { tools: createFakeToolRegistry({ lookup: () => 'x' }), hooks: { clarifyOnToolResult: () => never<undefined>() } },
      [{ type: 'tool_request', calls: [call('c1')] }] as const,
    ],
    [
      'hooks.onInvalidModelOutput',
      { hooks: { onInvalidModelOutput: () => never<void>() } },
      [{ type: 'invalid', kind: 'transient', reason: 'x' }] as const,
    ],
    [
      'approvals.prepareRequest',
      { approvals: { prepareRequest: () => never<never>() } },
      [{ type: 'approval_request', request: { id: 'a', kind: 'k', summary: 's' } }] as const,
    ],
  ] as [string, Partial<HarnessModelConfig>, HarnessModelOutput[]][])('a hanging %s ends in timeout_reached', async (_name, config, steps) => {
    const turn = start(
      harnessFor(createScriptedModel([...steps]), { ...config, limits: { maxElapsedMs: 300 } }),
      createTurnInput(),
    );
    await vi.advanceTimersByTimeAsync(300);
    const result = await turn.result;
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'timeout_reached' });
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('no timer or listener outlives the turn', () => {
  const scenarios: [string, HarnessModelOutput[], Partial<HarnessModelConfig>][] = [
    ['completed', [{ type: 'final_answer', text: 'ok' }], {}],
    ['needs_clarification', [{ type: 'clarification', question: 'Which?' }], {}],
    ['awaiting_approval', [{ type: 'approval_request', request: { id: 'a', kind: 'k', summary: 's' } }], {}],
    [
      'deferred',
      [{ type: 'tool_request', calls: [call('c1')] }],
      { tools: createFakeToolRegistry({ lookup: () => 'x' }), limits: { maxIterations: 1 } },
    ],
    ['failed', [{ type: 'refusal', reason: 'no' }], {}],
    ['failed (runtime_error)', [], {}],
  ];

  it.each(scenarios)('%s', async (_name, steps, config) => {
    const caller = new AbortController();
    const result = await harnessFor(createScriptedModel(steps), config).runTurn(createTurnInput(), { signal: caller.signal });
    expect(result.outcome).toBe(_name.split(' ')[0]);
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });
});
