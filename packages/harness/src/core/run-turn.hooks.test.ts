import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createHarness,
  type HarnessExecutionState,
  type HarnessHooks,
  type HarnessLoopContinuationState,
  type HarnessModelAdapter,
  type HarnessModelConfig,
  type HarnessResult,
  type HarnessToolCall,
  type HarnessToolResult,
} from '../index.js';
import { createFakeToolRegistry, createManualClock, createScriptedModel, createTurnInput, memoryTraceSink } from '../testing/index.js';

const call = (id: string, name = 'lookup', input: Record<string, unknown> = { q: id }): HarnessToolCall => ({ id, name, input });

function harnessFor(model: HarnessModelAdapter, hooks: HarnessHooks, extra: Partial<Omit<HarnessModelConfig, 'model'>> = {}) {
  return createHarness({
    model,
    hooks,
    clock: createManualClock(),
    tools: createFakeToolRegistry({
      lookup: ({ q }) => `found ${String(q)}`,
      fragile: () => ({ status: 'error', error: { code: 'busy', message: 'Busy', retryable: true } }),
      fatal: () => ({ status: 'error', error: { code: 'denied', message: 'Denied', retryable: false } }),
    }),
    ...extra,
  });
}

const toolResultIds = (result: HarnessResult) =>
  result.transcript.flatMap((item) => (item.type === 'tool_result' ? [`${item.result.callId}:${item.result.error?.code ?? 'ok'}`] : []));

afterEach(() => {
  vi.useRealTimers();
});

describe('onInvalidModelOutput', () => {
  it('is awaited for every invalid output with the output and the run state', async () => {
    const order: string[] = [];
    const onInvalidModelOutput = vi.fn(async (output: { kind: string }, state: HarnessExecutionState) => {
      await Promise.resolve();
      order.push(`hook ${output.kind} @${state.iteration}`);
    });
    const model = createScriptedModel([
      { type: 'invalid', kind: 'empty_response', reason: 'nothing' },
      () => {
        order.push('model 2');
        return { type: 'wrong' } as never;
      },
      () => {
        order.push('model 3');
        return { type: 'final_answer', text: 'ok' };
      },
    ]);
    const result = await harnessFor(model, { onInvalidModelOutput }).runTurn(createTurnInput({ sessionId: 's1' }));
    expect(result.outcome).toBe('completed');
    expect(order).toEqual(['hook empty_response @1', 'model 2', 'hook schema_mismatch @2', 'model 3']);
    const [output, state] = onInvalidModelOutput.mock.calls[0]!;
    expect(output).toEqual({ type: 'invalid', kind: 'empty_response', reason: 'nothing' });
    expect(state).toMatchObject({
      assistantId: 'assistant-test',
      turnId: 'turn-test',
      sessionId: 's1',
      iteration: 1,
      toolCallCount: 0,
      elapsedMs: 0,
      input: { message: { text: 'Hello' }, instructions: { systemPrompt: 'You are a helpful assistant.' } },
      transcript: [{ type: 'invalid_output', iteration: 1, kind: 'empty_response', reason: 'nothing' }],
    });
  });

  it('fails runtime_error naming the hook when it throws', async () => {
    const model = createScriptedModel([{ type: 'invalid', kind: 'transient', reason: 'x' }]);
    const result = await harnessFor(model, {
      onInvalidModelOutput() {
        throw new Error('hook broke');
      },
    }).runTurn(createTurnInput());
    expect(result).toMatchObject({
      outcome: 'failed',
      stopReason: 'runtime_error',
      metadata: { error: { message: 'hook broke', source: 'hooks.onInvalidModelOutput' } },
    });
  });
});

describe('onToolError', () => {
  it('is called for failed calls only, with the result and state', async () => {
    const onToolError = vi.fn();
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1'), call('c2', 'fragile')] },
      { type: 'final_answer', text: 'ok' },
    ]);
    await harnessFor(model, { onToolError }).runTurn(createTurnInput());
    expect(onToolError).toHaveBeenCalledTimes(1);
    const [result, state] = onToolError.mock.calls[0]! as [HarnessToolResult, HarnessExecutionState];
    expect(result).toMatchObject({ callId: 'c2', toolName: 'fragile', status: 'error' });
    expect(state).toMatchObject({ iteration: 1, toolCallCount: 2 });
    expect(state.transcript.at(-1)).toMatchObject({ type: 'tool_result', result: { callId: 'c2' } });
  });

  it("hands a non-retryable error back to the model when it returns 'continue'", async () => {
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1', 'fatal')] },
      { type: 'final_answer', text: 'Access was denied.' },
    ]);
    const result = await harnessFor(model, { onToolError: () => 'continue' }).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(model.calls[1]?.transcript.at(-1)).toMatchObject({ result: { error: { code: 'denied' } } });
  });

  it("fails a retryable error when it returns 'fail'", async () => {
    const model = createScriptedModel([{ type: 'tool_request', calls: [call('c1', 'fragile'), call('c2')] }]);
    const result = await harnessFor(model, { onToolError: async () => 'fail' as const }).runTurn(createTurnInput());
    expect(result).toMatchObject({
      outcome: 'failed',
      stopReason: 'tool_error_unrecoverable',
      metadata: { toolName: 'fragile', error: { code: 'busy', retryable: false, source: 'tool:fragile' } },
    });
    expect(toolResultIds(result)).toEqual(['c1:busy']);
  });

  it('keeps the default when it returns nothing', async () => {
    const fatal = createScriptedModel([{ type: 'tool_request', calls: [call('c1', 'fatal')] }]);
    expect((await harnessFor(fatal, { onToolError: () => undefined }).runTurn(createTurnInput())).stopReason).toBe(
      'tool_error_unrecoverable',
    );
    const fragile = createScriptedModel([{ type: 'tool_request', calls: [call('c1', 'fragile')] }, { type: 'final_answer', text: 'ok' }]);
    expect((await harnessFor(fragile, { onToolError: () => undefined }).runTurn(createTurnInput())).outcome).toBe('completed');
  });

  it('also sees the error result of an unknown tool', async () => {
    const onToolError = vi.fn();
    const model = createScriptedModel([{ type: 'tool_request', calls: [call('c1', 'missing')] }, { type: 'final_answer', text: 'ok' }]);
    await harnessFor(model, { onToolError }).runTurn(createTurnInput());
    expect(onToolError.mock.calls[0]?.[0]).toMatchObject({ toolName: 'missing', error: { code: 'tool_unavailable' } });
  });

  it('fails runtime_error naming the hook when it throws', async () => {
    const model = createScriptedModel([{ type: 'tool_request', calls: [call('c1', 'fragile')] }]);
    const result = await harnessFor(model, {
      onToolError: () => Promise.reject(new Error('hook broke')),
    }).runTurn(createTurnInput());
    expect(result).toMatchObject({ stopReason: 'runtime_error', metadata: { error: { source: 'hooks.onToolError' } } });
  });
});

describe('clarifyOnToolResult', () => {
  it('is called for every tool result, and pauses the turn when it returns a question', async () => {
    const trace = memoryTraceSink();
    const clarifyOnToolResult = vi.fn((result: HarnessToolResult) =>
      result.callId === 'c2' ? { question: '  Which Springfield?  ', reason: 'ambiguous' } : undefined,
    );
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1', 'fragile')] },
      { type: 'tool_request', calls: [call('c2')] },
    ]);
    const result = await harnessFor(model, { clarifyOnToolResult }, { trace }).runTurn(createTurnInput());
    expect(clarifyOnToolResult).toHaveBeenCalledTimes(2);
    expect(result).toMatchObject({
      outcome: 'needs_clarification',
      stopReason: 'clarification_required',
      assistantMessage: { text: 'Which Springfield?' },
      metadata: { clarification: { callId: 'c2', toolName: 'lookup', reason: 'ambiguous' } },
    });
    expect(result.continuation).toMatchObject({ type: 'clarification', state: { question: 'Which Springfield?' } });
    expect(result.transcript.at(-1)).toEqual({ type: 'clarification_request', iteration: 2, question: 'Which Springfield?' });
    expect(trace.events.filter((event) => event.type === 'clarification_requested')).toMatchObject([
      { question: 'Which Springfield?' },
    ]);
  });

  it.each([
    ['undefined', undefined],
    ['an empty question', { question: '' }],
    ['a blank question', { question: '   ' }],
    ['a non-object', 'Which one?'],
  ])('keeps going when it returns %s', async (_name, value) => {
    const model = createScriptedModel([{ type: 'tool_request', calls: [call('c1')] }, { type: 'final_answer', text: 'ok' }]);
    const result = await harnessFor(model, { clarifyOnToolResult: () => value as never }).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
  });

  it('skips the calls it stops before, and ends the transcript with the question', async () => {
    const tools = createFakeToolRegistry({ lookup: () => 'x' });
    const model = createScriptedModel([{ type: 'tool_request', calls: [call('c1'), call('c2'), call('c3')] }]);
    const result = await harnessFor(
      model,
      { clarifyOnToolResult: (toolResult) => (toolResult.callId === 'c1' ? { question: 'Which one?' } : undefined) },
      { tools },
    ).runTurn(createTurnInput());
    expect(tools.calls.map((executed) => executed.id)).toEqual(['c1']);
    expect(toolResultIds(result)).toEqual(['c1:ok', 'c2:tool_skipped', 'c3:tool_skipped']);
    expect(result.transcript.at(-1)).toMatchObject({ type: 'clarification_request', question: 'Which one?' });
  });

  it('keeps call order and ends with the question when parallel calls already finished', async () => {
    const model = createScriptedModel([{ type: 'tool_request', calls: [call('c1'), call('c2'), call('c3')] }]);
    const result = await harnessFor(
      model,
      { clarifyOnToolResult: (toolResult) => (toolResult.callId === 'c1' ? { question: 'Which one?' } : undefined) },
      { limits: { toolConcurrency: 2 } },
    ).runTurn(createTurnInput());
    expect(result.outcome).toBe('needs_clarification');
    expect(result.transcript.map((item) => item.type)).toEqual([
      'assistant_step',
      'tool_result',
      'tool_result',
      'tool_result',
      'clarification_request',
    ]);
    expect(toolResultIds(result)).toEqual(['c1:ok', 'c2:ok', 'c3:tool_skipped']);
    expect((result.continuation?.state as HarnessLoopContinuationState).transcript.at(-1)).toMatchObject({
      type: 'clarification_request',
    });
  });

  it('skips calls beyond maxToolCalls too when it pauses', async () => {
    const model = createScriptedModel([{ type: 'tool_request', calls: [call('c1'), call('c2')] }]);
    const result = await harnessFor(
      model,
      { clarifyOnToolResult: () => ({ question: 'Which one?' }) },
      { limits: { maxToolCalls: 1 } },
    ).runTurn(createTurnInput());
    expect(result.stopReason).toBe('clarification_required');
    expect(toolResultIds(result)).toEqual(['c1:ok', 'c2:tool_skipped']);
    expect(result.transcript.at(-1)?.type).toBe('clarification_request');
  });

  it('fails runtime_error naming the hook when it throws', async () => {
    const model = createScriptedModel([{ type: 'tool_request', calls: [call('c1')] }]);
    const result = await harnessFor(model, {
      clarifyOnToolResult() {
        throw new Error('hook broke');
      },
    }).runTurn(createTurnInput());
    expect(result).toMatchObject({ stopReason: 'runtime_error', metadata: { error: { source: 'hooks.clarifyOnToolResult' } } });
  });
});

describe('onTurnFinished', () => {
  it.each([
    ['completed', [{ type: 'final_answer' as const, text: 'ok' }]],
    ['failed', [{ type: 'refusal' as const, reason: 'no' }]],
    ['needs_clarification', [{ type: 'clarification' as const, question: 'Which?' }]],
  ])('is called once with the %s result and the final state', async (outcome, steps) => {
    const onTurnFinished = vi.fn();
    const result = await harnessFor(createScriptedModel(steps), { onTurnFinished }).runTurn(createTurnInput());
    expect(result.outcome).toBe(outcome);
    expect(onTurnFinished).toHaveBeenCalledTimes(1);
    expect(onTurnFinished.mock.calls[0]?.[0]).toBe(result);
    expect(onTurnFinished.mock.calls[0]?.[1]).toMatchObject({ iteration: 1, transcript: result.transcript });
  });

  it('is awaited before runTurn resolves', async () => {
    const order: string[] = [];
    const onTurnFinished = async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      order.push('hook done');
    };
    const result = await harnessFor(createScriptedModel([{ type: 'final_answer', text: 'ok' }]), { onTurnFinished }).runTurn(
      createTurnInput(),
    );
    order.push('turn resolved');
    expect(order).toEqual(['hook done', 'turn resolved']);
    expect(result.outcome).toBe('completed');
  });

  it.each([
    ['throws', () => {
      throw new Error('ignored');
    }],
    ['rejects', () => Promise.reject(new Error('ignored'))],
  ])('cannot change the result when it %s', async (_name, onTurnFinished) => {
    const trace = memoryTraceSink();
    const result = await harnessFor(createScriptedModel([{ type: 'final_answer', text: 'ok' }]), { onTurnFinished }, { trace }).runTurn(
      createTurnInput(),
    );
    expect(result).toMatchObject({ outcome: 'completed', stopReason: 'answer_finalized' });
    expect(result.metadata).toBeUndefined();
    expect(trace.events.at(-1)?.type).toBe('turn_finished');
  });

  it('cannot hold the turn past its deadline when it never settles, and leaves no timer', async () => {
    vi.useFakeTimers();
    const onTurnFinished = vi.fn(() => new Promise<void>(() => undefined));
    const harness = harnessFor(createScriptedModel([{ type: 'final_answer', text: 'ok' }]), { onTurnFinished }, { limits: { maxElapsedMs: 1_000 } });
    let settled = false;
    const pending = harness.runTurn(createTurnInput()).finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(onTurnFinished).toHaveBeenCalledTimes(1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const result = await pending;
    expect(result.outcome).toBe('completed');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('is called but not awaited after the turn timed out', async () => {
    vi.useFakeTimers();
    const onTurnFinished = vi.fn(() => new Promise<void>(() => undefined));
    const model: HarnessModelAdapter = { nextStep: () => new Promise(() => undefined) };
    const pending = harnessFor(model, { onTurnFinished }, { limits: { maxElapsedMs: 500 } }).runTurn(createTurnInput());
    await vi.advanceTimersByTimeAsync(500);
    const result = await pending;
    expect(result.stopReason).toBe('timeout_reached');
    expect(onTurnFinished).toHaveBeenCalledWith(result, expect.anything());
  });

  it('does not pile up listeners across turns whose hook never settles', async () => {
    vi.useFakeTimers();
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const harness = harnessFor(
        createScriptedModel(() => ({ type: 'final_answer', text: 'ok' })),
        { onTurnFinished: () => new Promise<void>(() => undefined) },
        { limits: { maxElapsedMs: 10 } },
      );
      for (let turn = 0; turn < 12; turn += 1) {
        const pending = harness.runTurn(createTurnInput({ turnId: `turn-${turn}` }));
        await vi.advanceTimersByTimeAsync(10);
        expect((await pending).outcome).toBe('completed');
      }
      vi.useRealTimers();
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
