import { describe, expect, it } from 'vitest';
import {
  createHarness,
  DEFAULT_TURN_LIMITS,
  HarnessConfigError,
  resolveLimits,
  type HarnessLimits,
  type HarnessLoopContinuationState,
  type HarnessModelAdapter,
  type HarnessModelConfig,
  type HarnessResult,
  type HarnessToolCall,
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
const lookupTools = () => createFakeToolRegistry({ lookup: ({ q }) => `result ${String(q)}` });

function harnessFor(model: HarnessModelAdapter, extra: Partial<Omit<HarnessModelConfig, 'model'>> = {}) {
  return createHarness({ model, clock: createManualClock(), tools: lookupTools(), ...extra });
}

/** A model that asks for one fresh lookup on every step. */
function alwaysToolModel(callsPerStep = 1, extra: Partial<{ costUnits: number }> = {}) {
  let counter = 0;
  return createScriptedModel(() => ({
    type: 'tool_request',
    calls: Array.from({ length: callsPerStep }, () => call(`c${++counter}`)),
    ...(extra.costUnits === undefined ? {} : { usage: { costUnits: extra.costUnits } }),
  }));
}

const loopState = (result: HarnessResult) => result.continuation?.state as HarnessLoopContinuationState;
const toolResultIds = (result: HarnessResult) =>
  result.transcript.flatMap((item) => (item.type === 'tool_result' ? [item.result.callId] : []));

describe('DEFAULT_TURN_LIMITS', () => {
  it('holds the documented defaults and is frozen', () => {
    expect(DEFAULT_TURN_LIMITS).toEqual({
      maxIterations: 6,
      maxToolCalls: 8,
      maxElapsedMs: 30_000,
      maxConsecutiveInvalidModelOutputs: 2,
      budgetLimit: undefined,
      toolConcurrency: 1,
      maxContinuationBytes: 262_144,
      maxAttachments: 16,
      maxAttachmentBytes: 20_971_520,
      maxHistoryMessages: 200,
    });
    expect(Object.isFrozen(DEFAULT_TURN_LIMITS)).toBe(true);
    expect(resolveLimits(undefined)).toEqual(DEFAULT_TURN_LIMITS);
    expect(resolveLimits({ maxIterations: undefined, maxToolCalls: 3 })).toEqual({ ...DEFAULT_TURN_LIMITS, maxToolCalls: 3 });
  });

  it('stops after 6 model steps by default', async () => {
    const model = alwaysToolModel();
    const result = await harnessFor(model).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'max_iterations_reached' });
    expect(result.traceSummary).toMatchObject({ iterationCount: 6, toolCallCount: 6 });
    expect(model.calls).toHaveLength(6);
  });

  it('runs at most 8 tool calls by default', async () => {
    const model = alwaysToolModel(10);
    const tools = lookupTools();
    const result = await harnessFor(model, { tools }).runTurn(createTurnInput());
    expect(result.stopReason).toBe('max_tool_calls_reached');
    expect(tools.calls.map((executed) => executed.id)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8']);
    expect(loopState(result).pendingCalls?.map((pending) => pending.id)).toEqual(['c9', 'c10']);
  });

  it('allows 30 000 ms by default (measured with the injected clock)', async () => {
    const clock = createManualClock();
    let step = 0;
    const model = createScriptedModel(() => {
      step += 1;
      clock.advance(step === 1 ? 29_999 : 1);
      return { type: 'tool_request', calls: [call(`c${step}`)] };
    });
    const result = await harnessFor(model, { clock }).runTurn(createTurnInput());
    expect(result.stopReason).toBe('timeout_reached');
    expect(model.calls).toHaveLength(2);
    expect(result.traceSummary.elapsedMs).toBe(30_000);
  });

  it('has no budget by default', async () => {
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1')], usage: { costUnits: 1e9 } },
      { type: 'final_answer', text: 'ok', usage: { costUnits: 1e9 } },
    ]);
    const result = await harnessFor(model).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(model.calls[0]?.remainingBudget).toBeUndefined();
  });

  it('runs one tool at a time by default', async () => {
    let running = 0;
    let maxRunning = 0;
    const tools = createFakeToolRegistry({
      lookup: async () => {
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        await Promise.resolve();
        running -= 1;
        return 'ok';
      },
    });
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1'), call('c2'), call('c3')] },
      { type: 'final_answer', text: 'done' },
    ]);
    await harnessFor(model, { tools }).runTurn(createTurnInput());
    expect(maxRunning).toBe(1);
  });
});

describe('maxIterations', () => {
  it.each([1, 2, 3])('never takes more than %i model steps and runs the last step’s tools before deferring', async (max) => {
    const trace = memoryTraceSink();
    const model = alwaysToolModel();
    const result = await harnessFor(model, { trace, limits: { maxIterations: max } }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'max_iterations_reached' });
    expect(result.traceSummary.iterationCount).toBe(max);
    expect(result.traceSummary.toolCallCount).toBe(max);
    expect(model.calls).toHaveLength(max);
    expect(result.transcript.at(-1)).toMatchObject({ type: 'tool_result', result: { callId: `c${max}` } });
    expect(result.continuation?.type).toBe('deferred');
    expect(loopState(result).pendingCalls).toBeUndefined();
    expect(trace.types().slice(-2)).toEqual(['limit_reached', 'turn_finished']);
    expect(trace.events.at(-2)).toMatchObject({ type: 'limit_reached', stopReason: 'max_iterations_reached', iteration: max });
  });

  it('lets the last allowed step finish the turn', async () => {
    const model = createScriptedModel([{ type: 'tool_request', calls: [call('c1')] }, { type: 'final_answer', text: 'ok' }]);
    const result = await harnessFor(model, { limits: { maxIterations: 2 } }).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(result.traceSummary.iterationCount).toBe(2);
  });

  it('counts invalid outputs as steps', async () => {
    const model = createScriptedModel(() => ({ type: 'invalid', kind: 'transient', reason: 'flaky' }));
    const result = await harnessFor(model, {
      limits: { maxIterations: 2, maxConsecutiveInvalidModelOutputs: 10 },
    }).runTurn(createTurnInput());
    expect(result.stopReason).toBe('max_iterations_reached');
    expect(result.traceSummary.iterationCount).toBe(2);
  });
});

describe('maxToolCalls', () => {
  it('runs the calls that fit in order, then defers with the rest pending', async () => {
    const trace = memoryTraceSink();
    const tools = lookupTools();
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1'), call('c2')] },
      { type: 'tool_request', calls: [call('c3'), call('c4'), call('c5')] },
    ]);
    const result = await harnessFor(model, { tools, trace, limits: { maxToolCalls: 3 } }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'max_tool_calls_reached' });
    expect(tools.calls.map((executed) => executed.id)).toEqual(['c1', 'c2', 'c3']);
    expect(toolResultIds(result)).toEqual(['c1', 'c2', 'c3']);
    expect(result.traceSummary.toolCallCount).toBe(3);
    expect(result.usage.toolCalls).toBe(3);
    expect(model.calls).toHaveLength(2);
    expect(model.calls[1]?.transcript.filter((item) => item.type === 'tool_result')).toHaveLength(2);
    expect(loopState(result).pendingCalls).toEqual([call('c4'), call('c5')]);
    const requested = trace.events.filter((event) => event.type === 'tool_requested');
    expect(requested.at(-1)).toMatchObject({ calls: [call('c3'), call('c4'), call('c5')] });
    expect(trace.events.at(-2)).toMatchObject({ type: 'limit_reached', stopReason: 'max_tool_calls_reached' });
  });

  it('does not end the turn on the call that reaches the limit when the step fits', async () => {
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1'), call('c2')] },
      { type: 'final_answer', text: 'both done' },
    ]);
    const result = await harnessFor(model, { limits: { maxToolCalls: 2 } }).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(model.calls[1]?.toolCallCount).toBe(2);
    expect(model.calls[1]?.transcript.filter((item) => item.type === 'tool_result')).toHaveLength(2);
  });

  it('defers with every call pending when no call is left', async () => {
    const tools = lookupTools();
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1')] },
      { type: 'tool_request', calls: [call('c2'), call('c3')] },
    ]);
    const result = await harnessFor(model, { tools, limits: { maxToolCalls: 1 } }).runTurn(createTurnInput());
    expect(result.stopReason).toBe('max_tool_calls_reached');
    expect(tools.calls.map((executed) => executed.id)).toEqual(['c1']);
    expect(loopState(result).pendingCalls?.map((pending) => pending.id)).toEqual(['c2', 'c3']);
    expect(result.traceSummary.iterationCount).toBe(2);
  });

  it('does not spend the allowance on unknown tools, which are still answered in order', async () => {
    const tools = lookupTools();
    const model = createScriptedModel([{ type: 'tool_request', calls: [call('c1', 'missing'), call('c2'), call('c3')] }]);
    const result = await harnessFor(model, { tools, limits: { maxToolCalls: 1 } }).runTurn(createTurnInput());
    expect(result.stopReason).toBe('max_tool_calls_reached');
    expect(tools.calls.map((executed) => executed.id)).toEqual(['c2']);
    expect(toolResultIds(result)).toEqual(['c1', 'c2']);
    expect(result.transcript[1]).toMatchObject({ result: { callId: 'c1', error: { code: 'tool_unavailable' } } });
    expect(loopState(result).pendingCalls?.map((pending) => pending.id)).toEqual(['c3']);
    expect(loopState(result).reportedUnknownTools).toEqual(['missing']);
  });

  it('keeps over-limit calls pending across concurrent windows', async () => {
    const tools = lookupTools();
    const model = createScriptedModel([{ type: 'tool_request', calls: [call('c1'), call('c2'), call('c3'), call('c4')] }]);
    const result = await harnessFor(model, { tools, limits: { maxToolCalls: 3, toolConcurrency: 2 } }).runTurn(createTurnInput());
    expect(toolResultIds(result)).toEqual(['c1', 'c2', 'c3']);
    expect(loopState(result).pendingCalls?.map((pending) => pending.id)).toEqual(['c4']);
  });
});

describe('a step asking for more calls than the turn can run or carry', () => {
  /** `count` calls of unknown tools, as a Proxy that counts every call read from it. */
  function countedCalls(count: number) {
    const reads = { count: 0 };
    const calls = new Proxy(
      Array.from({ length: count }, (_, index) => call(`c${index}`, `unknown_${index}`)),
      {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) reads.count += 1;
          return Reflect.get(target, key, receiver) as unknown;
        },
      },
    );
    return { calls, reads };
  }

  it('is refused before any call is read: 20,000 calls cost no per-call work, nothing runs, usage is kept', async () => {
    const { calls, reads } = countedCalls(20_000);
    const tools = lookupTools();
    const model = createScriptedModel([{ type: 'tool_request', calls, usage: { inputTokens: 7, outputTokens: 20_000 } }]);
    const result = await harnessFor(model, { tools, limits: { maxToolCalls: 2, maxConsecutiveInvalidModelOutputs: 0 } }).runTurn(createTurnInput());
    expect(reads.count).toBe(0);
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'model_invalid_response', error: { code: 'too_many_tool_calls', source: 'model' } });
    expect(result.error?.message).toContain('asked for 20000 tool calls in one step');
    expect(tools.calls).toEqual([]);
    expect(result.transcript).toEqual([expect.objectContaining({ type: 'invalid_output', kind: 'schema_mismatch' })]);
    expect(result.usage).toMatchObject({ totalInputTokens: 7, totalOutputTokens: 20_000, modelCalls: 1 });
  });

  it('is an invalid output the model may correct: asked again, a smaller step runs', async () => {
    const { calls, reads } = countedCalls(20_000);
    const tools = lookupTools();
    const model = createScriptedModel([{ type: 'tool_request', calls }, { type: 'tool_request', calls: [call('c1')] }, { type: 'final_answer', text: 'done' }]);
    const result = await harnessFor(model, { tools, limits: { maxToolCalls: 2 } }).runTurn(createTurnInput());
    expect(reads.count).toBe(0);
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'done' } });
    expect(tools.calls.map((executed) => executed.id)).toEqual(['c1']);
    expect(model.calls[1]?.transcript).toEqual([
      expect.objectContaining({ type: 'invalid_output', reason: expect.stringContaining('so none of them ran. Ask for at most 2 calls in a step.') as unknown }),
    ]);
  });

  it('is measured against the calls left plus what a continuation could carry (32 bytes a call at least)', async () => {
    // 1 call left + 320 / 32 = 10 carried: 11 calls are read (run one, carry ten), 12 are not.
    for (const [count, read] of [
      [11, true],
      [12, false],
    ] as const) {
      const { calls, reads } = countedCalls(count);
      const model = createScriptedModel([{ type: 'tool_request', calls }]);
      await harnessFor(model, { limits: { maxToolCalls: 1, maxContinuationBytes: 320, maxConsecutiveInvalidModelOutputs: 0 } }).runTurn(createTurnInput());
      expect(reads.count > 0).toBe(read);
    }
  });
});

describe('maxElapsedMs between steps', () => {
  it('defers before the next model call once the clock passes the limit', async () => {
    const clock = createManualClock();
    const trace = memoryTraceSink();
    const tools = createFakeToolRegistry({
      lookup: () => {
        clock.advance(600);
        return 'slow';
      },
    });
    const model = createScriptedModel([
      () => {
        clock.advance(500);
        return { type: 'tool_request', calls: [call('c1')] };
      },
      { type: 'final_answer', text: 'never' },
    ]);
    const result = await harnessFor(model, { clock, tools, trace, limits: { maxElapsedMs: 1_000 } }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'timeout_reached' });
    expect(model.calls).toHaveLength(1);
    expect(result.traceSummary.elapsedMs).toBe(1_100);
    expect(result.continuation?.type).toBe('deferred');
    expect(trace.events.at(-2)).toMatchObject({ type: 'limit_reached', stopReason: 'timeout_reached', elapsedMs: 1_100 });
  });
});

describe('budgetLimit', () => {
  it('defers before the model call that would start past the budget, counting model and tool cost', async () => {
    const tools = createFakeToolRegistry({ lookup: () => ({ status: 'success', output: 'paid', usage: { costUnits: 2 } }) });
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1')], usage: { costUnits: 1 } },
      { type: 'tool_request', calls: [call('c2')], usage: { costUnits: 1 } },
      { type: 'final_answer', text: 'never' },
    ]);
    const result = await harnessFor(model, { tools, limits: { budgetLimit: 5 } }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'budget_reached' });
    expect(model.calls.map((input) => input.remainingBudget)).toEqual([5, 2]);
    expect(result.usage.totalCostUnits).toBe(6);
    expect(result.continuation?.type).toBe('deferred');
  });

  it('keeps going while spending stays under the budget', async () => {
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1')], usage: { costUnits: 4.9 } },
      { type: 'final_answer', text: 'ok', usage: { costUnits: 4.9 } },
    ]);
    const result = await harnessFor(model, { limits: { budgetLimit: 5 } }).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(result.usage.totalCostUnits).toBeCloseTo(9.8);
  });

  it('allows no model call with a budget of 0', async () => {
    const model = createScriptedModel([{ type: 'final_answer', text: 'never' }]);
    const result = await harnessFor(model, { limits: { budgetLimit: 0 } }).runTurn(createTurnInput());
    expect(result.stopReason).toBe('budget_reached');
    expect(model.calls).toHaveLength(0);
  });
});

describe('limit validation', () => {
  const invalid: [string, HarnessLimits | string][] = [
    ['limits.maxIterations', { maxIterations: 0 }],
    ['limits.maxIterations', { maxIterations: 1.5 }],
    ['limits.maxIterations', { maxIterations: Number.NaN }],
    ['limits.maxIterations', { maxIterations: '3' as unknown as number }],
    ['limits.maxToolCalls', { maxToolCalls: -1 }],
    ['limits.maxElapsedMs', { maxElapsedMs: 0 }],
    ['limits.toolConcurrency', { toolConcurrency: 0 }],
    ['limits.maxContinuationBytes', { maxContinuationBytes: 0 }],
    ['limits.maxConsecutiveInvalidModelOutputs', { maxConsecutiveInvalidModelOutputs: -1 }],
    ['limits.budgetLimit', { budgetLimit: -1 }],
    ['limits.budgetLimit', { budgetLimit: Number.POSITIVE_INFINITY }],
    ['limits', 'fast'],
  ];

  it.each(invalid)('rejects a bad %s at createHarness', (field, limits) => {
    const model = createScriptedModel([]);
    expect(() => createHarness({ model, limits: limits as HarnessLimits })).toThrow(HarnessConfigError);
    try {
      createHarness({ model, limits: limits as HarnessLimits });
    } catch (error) {
      expect((error as HarnessConfigError).field).toBe(field);
    }
  });

  it('accepts 0 tolerated invalid outputs', () => {
    expect(() => createHarness({ model: createScriptedModel([]), limits: { maxConsecutiveInvalidModelOutputs: 0 } })).not.toThrow();
  });
});

describe('limits apply per run', () => {
  it('gives each turn of the same harness a fresh set', async () => {
    const steps: ScriptedModelStep[] = [
      { type: 'tool_request', calls: [call('a1')] },
      { type: 'final_answer', text: 'first' },
      { type: 'tool_request', calls: [call('b1')] },
      { type: 'final_answer', text: 'second' },
    ];
    const harness = harnessFor(createScriptedModel(steps), { limits: { maxIterations: 2, maxToolCalls: 1 } });
    expect((await harness.runTurn(createTurnInput())).outcome).toBe('completed');
    expect((await harness.runTurn(createTurnInput({ turnId: 'turn-2' }))).outcome).toBe('completed');
  });
});
