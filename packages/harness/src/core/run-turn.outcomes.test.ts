import { describe, expect, it, vi } from 'vitest';
import {
  createHarness,
  HARNESS_STOP_REASONS,
  HarnessConfigError,
  outcomeForStopReason,
  stopReasonToUserMessage,
  type HarnessModelAdapter,
  type HarnessModelConfig,
  type HarnessOutcome,
  type HarnessRunOptions,
  type HarnessStopReason,
  type HarnessToolCall,
  type HarnessTurnInput,
} from '../index.js';
import {
  createFakeToolRegistry,
  createManualClock,
  createScriptedModel,
  createTurnInput,
  memoryTraceSink,
  type ScriptedModelStep,
} from '../testing/index.js';

const call = (id: string, name = 'lookup', input: Record<string, unknown> = {}): HarnessToolCall => ({ id, name, input });

function harnessFor(model: HarnessModelAdapter, extra: Partial<Omit<HarnessModelConfig, 'model'>> = {}) {
  let next = 0;
  return createHarness({ model, clock: createManualClock(), generateId: () => `id-${++next}`, ...extra });
}

/** DESIGN.md §4, verbatim. */
const designTable: Record<HarnessOutcome, HarnessStopReason[]> = {
  completed: ['answer_finalized'],
  needs_clarification: ['clarification_required'],
  awaiting_approval: ['approval_required'],
  deferred: ['max_iterations_reached', 'max_tool_calls_reached', 'timeout_reached', 'budget_reached', 'cancelled'],
  failed: [
    'redundant_tool_loop',
    'tool_unavailable',
    'tool_error_unrecoverable',
    'model_refused',
    'model_invalid_response',
    'provider_error',
    'runtime_error',
    'backend_unsupported',
    'continuation_invalid',
  ],
};

interface Scenario {
  steps: ScriptedModelStep[];
  config?: Partial<Omit<HarnessModelConfig, 'model'>>;
  input?: Partial<HarnessTurnInput>;
  options?: () => HarnessRunOptions;
}

const lookupTools = () => createFakeToolRegistry({ lookup: ({ q }) => `result for ${String(q)}` });

/** One scenario per loop stop reason (the lead tests continuation_invalid and backend_unsupported). */
const scenarios: Record<Exclude<HarnessStopReason, 'continuation_invalid' | 'backend_unsupported'>, () => Scenario> = {
  answer_finalized: () => ({ steps: [{ type: 'final_answer', text: 'Done' }] }),
  clarification_required: () => ({ steps: [{ type: 'clarification', question: 'Which city?' }] }),
  approval_required: () => ({
    steps: [{ type: 'approval_request', request: { id: 'a1', kind: 'purchase', summary: 'Buy it' } }],
  }),
  max_iterations_reached: () => ({
    steps: [{ type: 'tool_request', calls: [call('c1', 'lookup', { q: 1 })] }],
    config: { tools: lookupTools(), limits: { maxIterations: 1 } },
  }),
  max_tool_calls_reached: () => ({
    steps: [{ type: 'tool_request', calls: [call('c1', 'lookup', { q: 1 }), call('c2', 'lookup', { q: 2 })] }],
    config: { tools: lookupTools(), limits: { maxToolCalls: 1 } },
  }),
  timeout_reached: () => {
    const clock = createManualClock();
    return {
      steps: [
        () => {
          clock.advance(1_000);
          return { type: 'tool_request', calls: [call('c1', 'lookup', { q: 1 })] };
        },
      ],
      config: { tools: lookupTools(), clock, limits: { maxElapsedMs: 1_000 } },
    };
  },
  budget_reached: () => ({
    steps: [{ type: 'tool_request', calls: [call('c1', 'lookup', { q: 1 })], usage: { costUnits: 5 } }],
    config: { tools: lookupTools(), limits: { budgetLimit: 5 } },
  }),
  cancelled: () => ({
    steps: [],
    options: () => {
      const controller = new AbortController();
      controller.abort();
      return { signal: controller.signal };
    },
  }),
  redundant_tool_loop: () => ({
    steps: [1, 2, 3].map((n) => ({ type: 'tool_request' as const, calls: [call(`c${n}`, 'lookup', { q: 'same' })] })),
    config: { tools: lookupTools() },
  }),
  tool_unavailable: () => ({
    steps: [
      { type: 'tool_request', calls: [call('c1', 'missing')] },
      { type: 'tool_request', calls: [call('c2', 'missing')] },
    ],
    config: { tools: lookupTools() },
  }),
  tool_error_unrecoverable: () => ({
    steps: [{ type: 'tool_request', calls: [call('c1', 'broken')] }],
    config: {
      tools: createFakeToolRegistry({
        broken: () => ({ status: 'error', error: { code: 'disk_full', message: 'No space', retryable: false } }),
      }),
    },
  }),
  model_refused: () => ({ steps: [{ type: 'refusal', reason: 'I will not do that.' }] }),
  model_invalid_response: () => ({
    steps: [{ type: 'invalid', kind: 'schema_mismatch', reason: 'no JSON', retryable: false }],
  }),
  provider_error: () => ({
    steps: [{ type: 'invalid', kind: 'provider_error', reason: 'HTTP 500', httpStatus: 500 }],
  }),
  runtime_error: () => ({
    steps: [
      () => {
        throw new Error('adapter exploded');
      },
    ],
  }),
};

const continuationTypeOf: Partial<Record<HarnessOutcome, string>> = {
  needs_clarification: 'clarification',
  awaiting_approval: 'approval',
  deferred: 'deferred',
};

describe('stop reasons and outcomes (DESIGN.md §4)', () => {
  it('lists exactly the stop reasons of the design table, each mapped to its outcome', () => {
    const fromTable = Object.values(designTable).flat();
    expect([...HARNESS_STOP_REASONS].sort()).toEqual([...fromTable].sort());
    for (const [outcome, reasons] of Object.entries(designTable)) {
      for (const reason of reasons) expect(outcomeForStopReason(reason)).toBe(outcome);
    }
  });

  it.each(Object.keys(scenarios) as (keyof typeof scenarios)[])('resolves (never rejects) with %s', async (stopReason) => {
    const scenario = scenarios[stopReason]();
    const trace = memoryTraceSink();
    const harness = harnessFor(createScriptedModel(scenario.steps), { trace, ...scenario.config });
    const result = await harness.runTurn(createTurnInput(scenario.input), scenario.options?.());
    expect(result.stopReason).toBe(stopReason);
    const outcome = outcomeForStopReason(stopReason);
    expect(result.outcome).toBe(outcome);
    expect(result.turnId).toBe('turn-test');
    const expectedType = continuationTypeOf[outcome];
    if (expectedType === undefined) {
      expect(result.continuation).toBeUndefined();
      expect(result.traceSummary.hadContinuation).toBe(false);
    } else {
      expect(result.continuation).toMatchObject({ version: 1, type: expectedType, turnId: 'turn-test' });
      expect(result.continuation?.state).toMatchObject({ mode: 'loop', stopReason });
      expect(result.traceSummary.hadContinuation).toBe(true);
      expect(JSON.parse(JSON.stringify(result.continuation))).toEqual(result.continuation);
    }
    expect(trace.events.at(-1)).toMatchObject({ type: 'turn_finished', outcome, stopReason });
    if (outcome === 'failed') {
      expect(result.error).toMatchObject({ code: expect.any(String), message: expect.any(String), retryable: expect.any(Boolean), source: expect.any(String) });
      // A failure nobody can fix by retrying does not invite a retry.
      const message = stopReasonToUserMessage(result);
      if (result.error?.retryable === false) expect(message).not.toMatch(/try again/i);
      expect(stopReasonToUserMessage(stopReason).startsWith(message.replace(/\.$/, ''))).toBe(true);
    } else {
      expect(result.error).toBeUndefined();
      expect(stopReasonToUserMessage(result)).toBe(stopReasonToUserMessage(stopReason));
    }
  });
});

describe('model output types', () => {
  it('final_answer completes with the answer and no continuation', async () => {
    const model = createScriptedModel([{ type: 'final_answer', text: 'Hello there.' }]);
    const result = await harnessFor(model).runTurn(createTurnInput({ sessionId: 'session-1' }));
    expect(result).toMatchObject({
      outcome: 'completed',
      stopReason: 'answer_finalized',
      turnId: 'turn-test',
      sessionId: 'session-1',
      assistantMessage: { text: 'Hello there.' },
      transcript: [{ type: 'assistant_step', iteration: 1, outputType: 'final_answer', text: 'Hello there.' }],
      traceSummary: { iterationCount: 1, toolCallCount: 0, hadContinuation: false, traceSinkErrors: 0 },
    });
    expect(result.continuation).toBeUndefined();
    expect(result.metadata).toBeUndefined();
  });

  it('omits sessionId when the input has none', async () => {
    const result = await harnessFor(createScriptedModel([{ type: 'final_answer', text: 'x' }])).runTurn(createTurnInput());
    expect('sessionId' in result).toBe(false);
  });

  it('clarification pauses with the question as message and in the continuation', async () => {
    const trace = memoryTraceSink();
    const model = createScriptedModel([{ type: 'clarification', question: 'Which city?' }]);
    const result = await harnessFor(model, { trace }).runTurn(createTurnInput({ sessionId: 's1' }));
    expect(result.outcome).toBe('needs_clarification');
    expect(result.assistantMessage).toEqual({ text: 'Which city?' });
    expect(result.transcript).toEqual([
      { type: 'assistant_step', iteration: 1, outputType: 'clarification', text: 'Which city?' },
      { type: 'clarification_request', iteration: 1, question: 'Which city?' },
    ]);
    expect(result.continuation).toMatchObject({
      type: 'clarification',
      sessionId: 's1',
      state: { question: 'Which city?', iteration: 1 },
    });
    expect(trace.events.find((event) => event.type === 'clarification_requested')).toMatchObject({ question: 'Which city?' });
  });

  it('approval_request pauses for approval, lets the approvals adapter enrich the request but keeps its id', async () => {
    const trace = memoryTraceSink();
    const prepareRequest = vi.fn(({ request }) => ({ ...request, id: 'other-id', metadata: { ticket: 'T-1' } }));
    const model = createScriptedModel([
      { type: 'approval_request', request: { id: 'a1', kind: 'purchase', summary: 'Buy 2 tickets' } },
    ]);
    const result = await harnessFor(model, { trace, approvals: { prepareRequest } }).runTurn(createTurnInput());
    const request = { id: 'a1', kind: 'purchase', summary: 'Buy 2 tickets', metadata: { ticket: 'T-1' } };
    expect(result.outcome).toBe('awaiting_approval');
    expect(result.metadata).toEqual({ approvalRequests: [request] });
    expect(result.continuation).toMatchObject({ type: 'approval', state: { approvals: [request] } });
    expect(result.transcript).toEqual([
      { type: 'assistant_step', iteration: 1, outputType: 'approval_request', text: 'Buy 2 tickets' },
      { type: 'approval_request', iteration: 1, request },
    ]);
    expect(prepareRequest).toHaveBeenCalledWith(
      expect.objectContaining({ assistantId: 'assistant-test', turnId: 'turn-test', request: expect.objectContaining({ id: 'a1' }) }),
    );
    expect(trace.events.find((event) => event.type === 'approval_requested')).toMatchObject({ requests: [request] });
  });

  it('refusal fails model_refused and passes the reason on as the message', async () => {
    const result = await harnessFor(createScriptedModel([{ type: 'refusal', reason: 'Not allowed.' }])).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'model_refused', assistantMessage: { text: 'Not allowed.' } });
    expect(result.transcript).toEqual([{ type: 'assistant_step', iteration: 1, outputType: 'refusal', text: 'Not allowed.' }]);
    expect(result.continuation).toBeUndefined();
  });

  it('tool_request runs the tools, keeps the model’s words and calls in the transcript, and asks again', async () => {
    const tools = lookupTools();
    const model = createScriptedModel([
      { type: 'tool_request', text: 'Let me check.', calls: [call('c1', 'lookup', { q: 'a' })] },
      { type: 'final_answer', text: 'It is a.' },
    ]);
    const result = await harnessFor(model, { tools }).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(result.transcript).toEqual([
      { type: 'assistant_step', iteration: 1, outputType: 'tool_request', text: 'Let me check.', calls: [call('c1', 'lookup', { q: 'a' })] },
      { type: 'tool_result', iteration: 1, result: { callId: 'c1', toolName: 'lookup', status: 'success', output: 'result for a' } },
      { type: 'assistant_step', iteration: 2, outputType: 'final_answer', text: 'It is a.' },
    ]);
    expect(tools.calls).toEqual([call('c1', 'lookup', { q: 'a' })]);
  });
});

describe('model input', () => {
  it('carries the turn input, tools, counters, elapsed time and a live signal', async () => {
    const clock = createManualClock();
    const tools = lookupTools();
    const model = createScriptedModel([
      () => {
        clock.advance(250);
        return { type: 'tool_request', calls: [call('c1', 'lookup', { q: 'x' })] };
      },
      { type: 'final_answer', text: 'ok' },
    ]);
    const input = createTurnInput({
      sessionId: 'session-1',
      workspaceId: 'ws-1',
      userId: 'user-1',
      threadId: 'thread-1',
      context: { blocks: [{ id: 'b1', label: 'Memory', content: 'Likes tea' }] },
      metadata: { channel: 'slack' },
    });
    await harnessFor(model, { tools, clock }).runTurn(input);
    const [first, second] = model.calls;
    expect(first).toMatchObject({
      assistantId: 'assistant-test',
      turnId: 'turn-test',
      sessionId: 'session-1',
      workspaceId: 'ws-1',
      userId: 'user-1',
      threadId: 'thread-1',
      message: input.message,
      instructions: input.instructions,
      context: input.context,
      metadata: { channel: 'slack' },
      transcript: [],
      iteration: 1,
      toolCallCount: 0,
      elapsedMs: 0,
    });
    expect(first?.availableTools.map((tool) => tool.name)).toEqual(['lookup']);
    expect(first?.remainingBudget).toBeUndefined();
    expect(first?.continuation).toBeUndefined();
    expect(first?.signal).toBeInstanceOf(AbortSignal);
    expect(first?.signal.aborted).toBe(false);
    expect(second).toMatchObject({ iteration: 2, toolCallCount: 1, elapsedMs: 250 });
    expect(second?.transcript.map((item) => item.type)).toEqual(['assistant_step', 'tool_result']);
  });

  it('gives the model a copy of the transcript', async () => {
    const model = createScriptedModel([
      (input) => {
        input.transcript.push({ type: 'clarification_answer', iteration: 0, answer: 'injected' });
        return { type: 'final_answer', text: 'ok' };
      },
    ]);
    const result = await harnessFor(model).runTurn(createTurnInput());
    expect(result.transcript.map((item) => item.type)).toEqual(['assistant_step']);
  });

  it('reports the remaining budget when a budget is set', async () => {
    const tools = lookupTools();
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1', 'lookup', { q: 1 })], usage: { costUnits: 3 } },
      { type: 'final_answer', text: 'ok' },
    ]);
    await harnessFor(model, { tools, limits: { budgetLimit: 10 } }).runTurn(createTurnInput());
    expect(model.calls.map((input) => input.remainingBudget)).toEqual([10, 7]);
  });
});

describe('runTurn never rejects for faults', () => {
  it('turns a model that throws synchronously into failed/runtime_error naming the model', async () => {
    const model: HarnessModelAdapter = {
      nextStep() {
        throw new Error('sync boom');
      },
    };
    const result = await harnessFor(model).runTurn(createTurnInput());
    expect(result).toMatchObject({
      outcome: 'failed',
      stopReason: 'runtime_error',
      metadata: { error: { code: 'runtime_error', message: 'sync boom', source: 'model' } },
    });
    expect(result.continuation).toBeUndefined();
  });

  it('turns a rejection with a non-Error value into runtime_error', async () => {
    const model: HarnessModelAdapter = { nextStep: () => Promise.reject('plain string') };
    const result = await harnessFor(model).runTurn(createTurnInput());
    expect(result.metadata?.error).toMatchObject({ message: 'plain string', source: 'model' });
    const odd: HarnessModelAdapter = { nextStep: () => Promise.reject({ weird: true }) };
    expect((await harnessFor(odd).runTurn(createTurnInput())).metadata?.error?.message).toBe('Unknown error');
  });

  it('accepts an adapter that returns its output synchronously', async () => {
    const model = { nextStep: () => ({ type: 'final_answer', text: 'sync' }) } as unknown as HarnessModelAdapter;
    expect((await harnessFor(model).runTurn(createTurnInput())).assistantMessage?.text).toBe('sync');
  });

  it('turns a throwing registry into a tool_exception result, which fails the turn as unrecoverable', async () => {
    const tools = createFakeToolRegistry({
      lookup: () => {
        throw new Error('db down');
      },
    });
    const model = createScriptedModel([{ type: 'tool_request', calls: [call('c1')] }]);
    const result = await harnessFor(model, { tools }).runTurn(createTurnInput());
    expect(result).toMatchObject({
      outcome: 'failed',
      stopReason: 'tool_error_unrecoverable',
      metadata: { toolName: 'lookup', error: { code: 'tool_exception', source: 'tool:lookup', retryable: false } },
    });
    expect(result.transcript.at(-1)).toMatchObject({
      type: 'tool_result',
      result: { status: 'error', error: { code: 'tool_exception', message: 'lookup threw: db down', retryable: false } },
    });
  });

  it('reports a failing listAvailable as runtime_error from tools.listAvailable', async () => {
    const model = createScriptedModel([{ type: 'final_answer', text: 'never' }]);
    const throwing = { listAvailable: () => Promise.reject(new Error('registry offline')), execute: vi.fn() };
    const result = await harnessFor(model, { tools: throwing }).runTurn(createTurnInput());
    expect(result).toMatchObject({
      stopReason: 'runtime_error',
      metadata: { error: { message: 'registry offline', source: 'tools.listAvailable' } },
    });
    expect(model.calls).toHaveLength(0);
    const notArray = { listAvailable: () => ({ lookup: {} }) as never, execute: vi.fn() };
    const second = await harnessFor(model, { tools: notArray }).runTurn(createTurnInput());
    expect(second.metadata?.error).toMatchObject({ source: 'tools.listAvailable' });
  });

  it('reports a failing approvals adapter as runtime_error from approvals.prepareRequest', async () => {
    const approvals = { prepareRequest: () => Promise.reject(new Error('approvals offline')) };
    const model = createScriptedModel([{ type: 'approval_request', request: { id: 'a1', kind: 'k', summary: 's' } }]);
    const result = await harnessFor(model, { approvals }).runTurn(createTurnInput());
    expect(result).toMatchObject({
      stopReason: 'runtime_error',
      metadata: { error: { message: 'approvals offline', source: 'approvals.prepareRequest' } },
    });
  });

  it('reports a failing approvals adapter for a requiresApproval tool the same way', async () => {
    const approvals = { prepareRequest: () => Promise.reject(new Error('approvals offline')) };
    const tools = createFakeToolRegistry({ pay: { requiresApproval: true, execute: () => 'paid' } });
    const model = createScriptedModel([{ type: 'tool_request', calls: [call('c1', 'pay')] }]);
    const result = await harnessFor(model, { approvals, tools }).runTurn(createTurnInput());
    expect(result.metadata?.error).toMatchObject({ message: 'approvals offline', source: 'approvals.prepareRequest' });
    expect(tools.calls).toHaveLength(0);
  });
});

describe('runTurn input validation', () => {
  const model = () => createScriptedModel([{ type: 'final_answer', text: 'x' }]);
  const malformed: [string, unknown][] = [
    ['not an object', 'hello'],
    ['missing message', { ...createTurnInput(), message: undefined }],
    ['empty turnId', createTurnInput({ turnId: '' })],
    ['message text not a string', { ...createTurnInput(), message: { id: 'm', text: 42, receivedAt: 'x' } }],
    ['allowedToolNames not an array', { ...createTurnInput(), allowedToolNames: 'lookup' }],
  ];

  it.each(malformed)('rejects (does not throw) with HarnessConfigError: %s', async (_name, input) => {
    const scripted = model();
    const pending = harnessFor(scripted).runTurn(input as HarnessTurnInput);
    await expect(pending).rejects.toBeInstanceOf(HarnessConfigError);
    await expect(pending).rejects.toMatchObject({ field: 'input', code: 'HARNESS_ERR_INVALID_CONFIG' });
    expect(scripted.calls).toHaveLength(0);
  });

  it('names the bad field in the message', async () => {
    await expect(harnessFor(model()).runTurn({ ...createTurnInput(), turnId: '' })).rejects.toThrow(/turnId/);
  });
});

describe('stopReasonToUserMessage', () => {
  it.each([...HARNESS_STOP_REASONS])('gives a short user-facing sentence for %s', (stopReason) => {
    const message = stopReasonToUserMessage(stopReason);
    expect(message).toBe(stopReasonToUserMessage({ stopReason }));
    expect(message.length).toBeGreaterThan(0);
    expect(message.length).toBeLessThan(120);
    expect(message).toMatch(/[.!?]$/);
    expect(message).not.toMatch(/_/);
  });

  it('gives a distinct sentence per stop reason', () => {
    const messages = HARNESS_STOP_REASONS.map((reason) => stopReasonToUserMessage(reason));
    expect(new Set(messages).size).toBe(messages.length);
  });

  it('offers to continue exactly for the resumable deferrals', () => {
    for (const reason of ['max_iterations_reached', 'max_tool_calls_reached', 'timeout_reached', 'budget_reached'] as const) {
      expect(stopReasonToUserMessage(reason)).toMatch(/continue/);
    }
    for (const reason of designTable.failed) expect(stopReasonToUserMessage(reason)).not.toMatch(/I can continue/);
  });

  it('falls back to a generic sentence for an unknown stop reason', () => {
    expect(stopReasonToUserMessage('something_new' as HarnessStopReason)).toBe(stopReasonToUserMessage('runtime_error'));
  });
});
