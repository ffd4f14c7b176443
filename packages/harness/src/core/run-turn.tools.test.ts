import { describe, expect, it, vi } from 'vitest';
import {
  createHarness,
  type HarnessLoopContinuationState,
  type HarnessModelAdapter,
  type HarnessModelConfig,
  type HarnessResult,
  type HarnessToolCall,
  type HarnessToolExecutionContext,
  type HarnessToolRegistry,
  type HarnessToolResult,
} from '../index.js';
import {
  createFakeToolRegistry,
  createManualClock,
  createScriptedModel,
  createTurnInput,
  memoryTraceSink,
  type FakeTool,
} from '../testing/index.js';

const call = (id: string, name = 'lookup', input: Record<string, unknown> = {}): HarnessToolCall => ({ id, name, input });

function harnessFor(model: HarnessModelAdapter, extra: Partial<Omit<HarnessModelConfig, 'model'>> = {}) {
  return createHarness({ model, clock: createManualClock(), ...extra });
}

const toolResults = (result: HarnessResult): HarnessToolResult[] =>
  result.transcript.flatMap((item) => (item.type === 'tool_result' ? [item.result] : []));
const loopState = (result: HarnessResult) => result.continuation?.state as HarnessLoopContinuationState;

/** Resolves once `parties` callers are waiting; a sequential runner would wait forever. */
function createBarrier(parties: number) {
  let arrived = 0;
  let release: () => void = () => undefined;
  const open = new Promise<void>((resolve) => {
    release = resolve;
  });
  return async () => {
    arrived += 1;
    if (arrived === parties) release();
    await open;
  };
}

describe('unknown tools', () => {
  it('first reports an unknown tool to the model as a retryable error, without calling the registry', async () => {
    const tools = createFakeToolRegistry({ lookup: () => 'ok', search: () => 'ok' });
    const execute = vi.spyOn(tools, 'execute');
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1', 'lookup_weather')] },
      { type: 'final_answer', text: 'I cannot check the weather.' },
    ]);
    const result = await harnessFor(model, { tools }).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(execute).not.toHaveBeenCalled();
    expect(result.usage.toolCalls).toBe(0);
    expect(result.traceSummary.toolCallCount).toBe(0);
    const seen = model.calls[1]?.transcript.at(-1);
    expect(seen).toMatchObject({
      type: 'tool_result',
      result: {
        callId: 'c1',
        toolName: 'lookup_weather',
        status: 'error',
        error: { code: 'tool_unavailable', retryable: true, message: expect.stringContaining('lookup, search') },
      },
    });
  });

  it('fails tool_unavailable when the model asks again for the same unknown tool', async () => {
    const tools = createFakeToolRegistry({ lookup: () => 'ok' });
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1', 'missing')] },
      { type: 'tool_request', calls: [call('c2', 'lookup'), call('c3', 'missing')] },
    ]);
    const result = await harnessFor(model, { tools }).runTurn(createTurnInput());
    expect(result).toMatchObject({
      outcome: 'failed',
      stopReason: 'tool_unavailable',
      metadata: { toolName: 'missing', error: { code: 'tool_unavailable' } },
    });
    expect(tools.calls).toHaveLength(0);
    expect(result.continuation).toBeUndefined();
  });

  it('tolerates two different unknown tools once each', async () => {
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1', 'one')] },
      { type: 'tool_request', calls: [call('c2', 'two')] },
      { type: 'final_answer', text: 'ok' },
    ]);
    const result = await harnessFor(model, { tools: createFakeToolRegistry({}) }).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
  });

  it('treats every tool as unknown when the harness has no registry', async () => {
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1', 'lookup')] },
      { type: 'final_answer', text: 'ok' },
    ]);
    const result = await harnessFor(model).runTurn(createTurnInput());
    expect(model.calls[0]?.availableTools).toEqual([]);
    expect(toolResults(result)[0]?.error).toMatchObject({ code: 'tool_unavailable', message: expect.stringContaining('none') });
  });
});

describe('allowedToolNames', () => {
  it('offers only allowed tools, tells the registry, and never runs a listed but disallowed tool', async () => {
    const tools = createFakeToolRegistry({ lookup: () => 'ok', delete_everything: () => 'gone' });
    const listAvailable = vi.spyOn(tools, 'listAvailable');
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1', 'delete_everything')] },
      { type: 'tool_request', calls: [call('c2', 'delete_everything')] },
    ]);
    const result = await harnessFor(model, { tools }).runTurn(createTurnInput({ allowedToolNames: ['lookup'] }));
    expect(listAvailable).toHaveBeenCalledWith(expect.objectContaining({ allowedToolNames: ['lookup'], turnId: 'turn-test' }));
    expect(model.calls[0]?.availableTools.map((tool) => tool.name)).toEqual(['lookup']);
    expect(tools.callsOf('delete_everything')).toHaveLength(0);
    expect(toolResults(result)[0]?.error?.code).toBe('tool_unavailable');
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'tool_unavailable' });
  });

  it('offers no tools for an empty list', async () => {
    const tools = createFakeToolRegistry({ lookup: () => 'ok' });
    const model = createScriptedModel([{ type: 'final_answer', text: 'ok' }]);
    await harnessFor(model, { tools }).runTurn(createTurnInput({ allowedToolNames: [] }));
    expect(model.calls[0]?.availableTools).toEqual([]);
  });

  it('drops malformed definitions from the registry list', async () => {
    const tools: HarnessToolRegistry = {
      listAvailable: () => [null, {}, { name: 42 }, { name: 'lookup' }] as never,
      execute: vi.fn(),
    };
    const model = createScriptedModel([{ type: 'final_answer', text: 'ok' }]);
    await harnessFor(model, { tools }).runTurn(createTurnInput());
    expect(model.calls[0]?.availableTools).toEqual([{ name: 'lookup' }]);
  });
});

describe('tool errors', () => {
  const erroring = (error: Record<string, unknown>): FakeTool => () => ({ status: 'error', error } as never);

  it.each([
    ['retryable', { code: 'busy', message: 'Try later', retryable: true }],
    ['undefined retryable', { code: 'busy', message: 'Try later' }],
  ])('hands a %s error back to the model', async (_name, error) => {
    const trace = memoryTraceSink();
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1')] },
      { type: 'final_answer', text: 'The service is busy.' },
    ]);
    const result = await harnessFor(model, { tools: createFakeToolRegistry({ lookup: erroring(error) }), trace }).runTurn(
      createTurnInput(),
    );
    expect(result.outcome).toBe('completed');
    expect(model.calls[1]?.transcript.at(-1)).toMatchObject({ result: { status: 'error', error } });
    expect(trace.types()).toContain('tool_failed');
    expect(trace.types()).not.toContain('tool_finished');
  });

  it('fails tool_error_unrecoverable for retryable: false, keeping the error in the transcript', async () => {
    const model = createScriptedModel([{ type: 'tool_request', calls: [call('c1'), call('c2')] }]);
    const tools = createFakeToolRegistry({ lookup: erroring({ code: 'forbidden', message: 'No access', retryable: false }) });
    const result = await harnessFor(model, { tools }).runTurn(createTurnInput());
    expect(result).toMatchObject({
      outcome: 'failed',
      stopReason: 'tool_error_unrecoverable',
      metadata: {
        toolName: 'lookup',
        error: { code: 'forbidden', message: 'No access', source: 'tool:lookup', retryable: false },
      },
    });
    expect(tools.calls.map((executed) => executed.id)).toEqual(['c1']);
    expect(toolResults(result).map((item) => item.callId)).toEqual(['c1']);
  });

  it('fills in an error for an error result that has none (retryable by default)', async () => {
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1')] },
      { type: 'final_answer', text: 'ok' },
    ]);
    const tools = createFakeToolRegistry({ lookup: () => ({ status: 'error' }) });
    const result = await harnessFor(model, { tools }).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(toolResults(result)[0]?.error).toEqual({ code: 'tool_error', message: 'lookup failed without details.' });
  });

  it.each([
    ['null', null],
    ['a string', 'plain text'],
    ['an unknown status', { callId: 'c1', toolName: 'lookup', status: 'ok' }],
    ['a non-string output', { callId: 'c1', toolName: 'lookup', status: 'success', output: 42 }],
  ])('turns an invalid registry result (%s) into invalid_tool_result, which is unrecoverable', async (_name, value) => {
    const tools: HarnessToolRegistry = { listAvailable: () => [{ name: 'lookup' }], execute: async () => value as never };
    const model = createScriptedModel([{ type: 'tool_request', calls: [call('c1')] }]);
    const result = await harnessFor(model, { tools }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'tool_error_unrecoverable' });
    expect(toolResults(result)[0]).toMatchObject({
      callId: 'c1',
      toolName: 'lookup',
      status: 'error',
      error: { code: 'invalid_tool_result', retryable: false, message: expect.stringContaining('lookup') },
    });
  });

  it('pins a result to the call it answers, whatever ids the registry wrote', async () => {
    const tools: HarnessToolRegistry = {
      listAvailable: () => [{ name: 'lookup' }],
      execute: async () => ({ callId: 'wrong', toolName: 'other', status: 'success', output: 'fine' }),
    };
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1')] },
      { type: 'final_answer', text: 'ok' },
    ]);
    const result = await harnessFor(model, { tools }).runTurn(createTurnInput());
    expect(toolResults(result)[0]).toEqual({ callId: 'c1', toolName: 'lookup', status: 'success', output: 'fine' });
  });
});

describe('redundant tool loop', () => {
  it('fails after the same tool, input and output three times in a row', async () => {
    const trace = memoryTraceSink();
    const tools = createFakeToolRegistry({ lookup: () => 'same' });
    const model = createScriptedModel(
      [1, 2, 3, 4].map((n) => ({ type: 'tool_request' as const, calls: [call(`c${n}`, 'lookup', { q: 'x', page: 1 })] })),
    );
    const result = await harnessFor(model, { tools, trace }).runTurn(createTurnInput());
    expect(result).toMatchObject({
      outcome: 'failed',
      stopReason: 'redundant_tool_loop',
      metadata: { toolName: 'lookup', error: { code: 'redundant_tool_loop' } },
    });
    expect(tools.calls).toHaveLength(3);
    expect(model.calls).toHaveLength(3);
    expect(trace.events.at(-2)).toMatchObject({ type: 'limit_reached', stopReason: 'redundant_tool_loop' });
  });

  it('treats inputs with the same keys in another order as the same input', async () => {
    const tools = createFakeToolRegistry({ lookup: () => 'same' });
    const inputs = [{ a: 1, b: 2 }, { b: 2, a: 1 }, { a: 1, b: 2 }];
    const model = createScriptedModel(inputs.map((input, n) => ({ type: 'tool_request' as const, calls: [call(`c${n}`, 'lookup', input)] })));
    expect((await harnessFor(model, { tools }).runTurn(createTurnInput())).stopReason).toBe('redundant_tool_loop');
  });

  it('runs three identical calls inside one step: repeats in one step are not a loop', async () => {
    const tools = createFakeToolRegistry({ lookup: () => ({ hits: 0 }) });
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1'), call('c2'), call('c3')] },
      { type: 'final_answer', text: 'No hits.' },
    ]);
    const result = await harnessFor(model, { tools }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'completed', stopReason: 'answer_finalized' });
    expect(tools.calls.map((entry) => entry.id)).toEqual(['c1', 'c2', 'c3']);
  });

  it('counts a step of identical calls once: the loop still needs three steps in a row', async () => {
    const tools = createFakeToolRegistry({ lookup: () => 'same' });
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('a1'), call('a2'), call('a3')] },
      { type: 'tool_request', calls: [call('b1'), call('b2')] },
      { type: 'tool_request', calls: [call('c1')] },
    ]);
    const result = await harnessFor(model, { tools }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'redundant_tool_loop' });
    expect(tools.calls).toHaveLength(6);
    expect(model.calls).toHaveLength(3);
  });

  it.each([
    ['the output changes', (n: number) => call(`c${n}`, 'lookup', { q: 'x' }), (n: number) => (n === 3 ? 'new' : 'same')],
    ['the input changes', (n: number) => call(`c${n}`, 'lookup', { q: n === 2 ? 'y' : 'x' }), () => 'same'],
    ['another tool runs in between', (n: number) => call(`c${n}`, n === 2 ? 'other' : 'lookup', { q: 'x' }), () => 'same'],
    ['an error comes in between', (n: number) => call(`c${n}`, 'lookup', { q: 'x', n: n === 2 ? 1 : 0 }), () => 'same'],
  ])('does not fire when %s', async (name, makeCall, output) => {
    let n = 0;
    const handler: FakeTool = (input) =>
      name.startsWith('an error') && input.n === 1 ? { status: 'error', error: { code: 'e', message: 'm' } } : output(n);
    const tools = createFakeToolRegistry({ lookup: handler, other: () => 'same' });
    const model = createScriptedModel(() => {
      n += 1;
      return n <= 4 ? { type: 'tool_request', calls: [makeCall(n)] } : { type: 'final_answer', text: 'done' };
    });
    const result = await harnessFor(model, { tools, limits: { maxIterations: 10 } }).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
  });
});

describe('tools that require approval', () => {
  it('never runs them: the turn waits for approval with the whole step pending', async () => {
    const trace = memoryTraceSink();
    const tools = createFakeToolRegistry({
      lookup: () => 'ok',
      pay: { requiresApproval: true, execute: () => 'paid' },
    });
    const calls = [call('c1', 'lookup'), call('c2', 'pay', { amount: 5 })];
    const model = createScriptedModel([{ type: 'tool_request', calls }]);
    const result = await harnessFor(model, { tools, trace }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'awaiting_approval', stopReason: 'approval_required' });
    expect(tools.calls).toHaveLength(0);
    const request = {
      id: 'c2',
      kind: 'tool_call',
      summary: expect.stringContaining('pay'),
      details: { toolName: 'pay', input: { amount: 5 } },
    };
    expect(result.metadata).toEqual({ approvalRequests: [request] });
    expect(result.continuation?.type).toBe('approval');
    expect(loopState(result)).toMatchObject({ approvals: [request], pendingCalls: calls });
    expect(result.transcript.at(-1)).toEqual({ type: 'approval_request', iteration: 1, request });
    expect(trace.types()).toContain('approval_requested');
    expect(trace.types()).not.toContain('tool_started');
  });

  it('decides per call when requiresApproval is a function, and asks when it throws', async () => {
    const requiresApproval = (input: Record<string, unknown>) => {
      if (input.amount === undefined) throw new Error('no amount');
      return Number(input.amount) > 100;
    };
    const tools = createFakeToolRegistry({ pay: { requiresApproval, execute: ({ amount }) => `paid ${String(amount)}` } });
    const small = createScriptedModel([
      { type: 'tool_request', calls: [call('c1', 'pay', { amount: 5 })] },
      { type: 'final_answer', text: 'ok' },
    ]);
    expect((await harnessFor(small, { tools }).runTurn(createTurnInput())).outcome).toBe('completed');
    const large = createScriptedModel([{ type: 'tool_request', calls: [call('c2', 'pay', { amount: 500 })] }]);
    expect((await harnessFor(large, { tools }).runTurn(createTurnInput())).outcome).toBe('awaiting_approval');
    const broken = createScriptedModel([{ type: 'tool_request', calls: [call('c3', 'pay', {})] }]);
    expect((await harnessFor(broken, { tools }).runTurn(createTurnInput())).outcome).toBe('awaiting_approval');
    expect(tools.calls.map((executed) => executed.id)).toEqual(['c1']);
  });
});

describe('tool concurrency', () => {
  it('runs calls of one step in parallel with toolConcurrency > 1 (barrier; a sequential run would time out)', async () => {
    const barrier = createBarrier(2);
    const tools = createFakeToolRegistry({
      first: async () => {
        await barrier();
        return 'first';
      },
      second: async () => {
        await barrier();
        return 'second';
      },
    });
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1', 'first'), call('c2', 'second')] },
      { type: 'final_answer', text: 'both' },
    ]);
    const result = await harnessFor(model, { tools, limits: { toolConcurrency: 2, maxElapsedMs: 2_000 } }).runTurn(
      createTurnInput(),
    );
    expect(result.stopReason).toBe('answer_finalized');
    expect(toolResults(result).map((item) => item.output)).toEqual(['first', 'second']);
  });

  it('runs windows of toolConcurrency calls; the next window starts when the previous one is done', async () => {
    const log: string[] = [];
    const gates = new Map<string, () => void>();
    const tools = createFakeToolRegistry({
      lookup: (input) =>
        new Promise<string>((resolve) => {
          const id = String(input.id);
          log.push(`start ${id}`);
          gates.set(id, () => {
            log.push(`end ${id}`);
            resolve(`out ${id}`);
          });
        }),
    });
    const calls = ['a', 'b', 'c'].map((id) => call(id, 'lookup', { id }));
    const model = createScriptedModel([{ type: 'tool_request', calls }, { type: 'final_answer', text: 'ok' }]);
    const pending = harnessFor(model, { tools, limits: { toolConcurrency: 2 } }).runTurn(createTurnInput());
    await vi.waitFor(() => expect(log).toEqual(['start a', 'start b']));
    gates.get('b')?.();
    await Promise.resolve();
    expect(log).toEqual(['start a', 'start b', 'end b']);
    gates.get('a')?.();
    await vi.waitFor(() => expect(log).toEqual(['start a', 'start b', 'end b', 'end a', 'start c']));
    gates.get('c')?.();
    const result = await pending;
    expect(toolResults(result).map((item) => item.callId)).toEqual(['a', 'b', 'c']);
  });

  it('keeps call order in the transcript, the trace and the model input when later calls finish first', async () => {
    const trace = memoryTraceSink();
    const delays: Record<string, number> = { a: 3, b: 2, c: 1 };
    const finished: string[] = [];
    const tools = createFakeToolRegistry({
      lookup: async ({ id }) => {
        for (let tick = 0; tick < delays[String(id)]!; tick += 1) await new Promise((resolve) => setTimeout(resolve, 1));
        finished.push(String(id));
        return `out ${String(id)}`;
      },
    });
    const calls = ['a', 'b', 'c'].map((id) => call(id, 'lookup', { id }));
    const model = createScriptedModel([{ type: 'tool_request', calls }, { type: 'final_answer', text: 'ok' }]);
    const result = await harnessFor(model, { tools, trace, limits: { toolConcurrency: 3 } }).runTurn(createTurnInput());
    expect(finished).toEqual(['c', 'b', 'a']);
    expect(toolResults(result).map((item) => item.callId)).toEqual(['a', 'b', 'c']);
    expect(model.calls[1]?.transcript.slice(1).map((item) => (item.type === 'tool_result' ? item.result.callId : ''))).toEqual([
      'a',
      'b',
      'c',
    ]);
    const toolEvents = trace.events.filter((event) => event.type.startsWith('tool_') && event.type !== 'tool_requested');
    expect(toolEvents.map((event) => event.type)).toEqual([
      'tool_started',
      'tool_started',
      'tool_started',
      'tool_finished',
      'tool_finished',
      'tool_finished',
    ]);
    expect(toolEvents.slice(3).map((event) => (event.type === 'tool_finished' ? event.result.callId : ''))).toEqual(['a', 'b', 'c']);
  });

  it('keeps an unknown tool’s error in its place between parallel calls', async () => {
    const tools = createFakeToolRegistry({ lookup: ({ id }) => `out ${String(id)}` });
    const calls = [call('a', 'lookup', { id: 'a' }), call('x', 'missing'), call('b', 'lookup', { id: 'b' })];
    const model = createScriptedModel([{ type: 'tool_request', calls }, { type: 'final_answer', text: 'ok' }]);
    const result = await harnessFor(model, { tools, limits: { toolConcurrency: 4 } }).runTurn(createTurnInput());
    expect(toolResults(result).map((item) => `${item.callId}:${item.status}`)).toEqual(['a:success', 'x:error', 'b:success']);
  });
});

describe('tool execution context', () => {
  it.each([1, 3])('gives each call the turn identity, iteration, its index in the step and the turn signal (concurrency %i)', async (toolConcurrency) => {
    const contexts: HarnessToolExecutionContext[] = [];
    const tools = createFakeToolRegistry({
      lookup: (_input, context) => {
        contexts.push(context);
        return 'ok';
      },
    });
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1'), call('c2', 'lookup', { n: 2 }), call('c3', 'lookup', { n: 3 })] },
      { type: 'final_answer', text: 'ok' },
    ]);
    await harnessFor(model, { tools, limits: { toolConcurrency } }).runTurn(
      createTurnInput({ sessionId: 's1', userId: 'u1', allowedToolNames: ['lookup'] }),
    );
    expect(contexts.map((context) => context.toolCallIndex)).toEqual([0, 1, 2]);
    for (const context of contexts) {
      expect(context).toMatchObject({
        assistantId: 'assistant-test',
        turnId: 'turn-test',
        sessionId: 's1',
        userId: 'u1',
        allowedToolNames: ['lookup'],
        iteration: 1,
      });
      expect(context.signal).toBe(model.calls[0]?.signal);
    }
  });

  it('counts executed calls in the usage, trace summary and next model input', async () => {
    const tools = createFakeToolRegistry({ lookup: () => 'ok' });
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1'), call('c2', 'lookup', { n: 2 })] },
      { type: 'tool_request', calls: [call('c3', 'lookup', { n: 3 })] },
      { type: 'final_answer', text: 'ok' },
    ]);
    const result = await harnessFor(model, { tools }).runTurn(createTurnInput());
    expect(model.calls.map((input) => input.toolCallCount)).toEqual([0, 2, 3]);
    expect(result.usage.toolCalls).toBe(3);
    expect(result.traceSummary.toolCallCount).toBe(3);
  });
});
