import { describe, expect, it } from 'vitest';
import {
  createHarness,
  outcomeForStopReason,
  stopReasonToUserMessage,
  type HarnessApprovalAdapter,
  type HarnessHooks,
  type HarnessModelAdapter,
  type HarnessModelConfig,
  type HarnessResult,
  type HarnessToolRegistry,
} from '../index.js';
import { createFakeToolRegistry, createManualClock, createScriptedModel, createTurnInput } from '../testing/index.js';
import { errorWithThrowingMessage, hostileThrowables, hostileValues, inheritedNames, throwingGetter } from './__fixtures__/hostile-values.js';

function harnessFor(model: HarnessModelAdapter, extra: Partial<Omit<HarnessModelConfig, 'model'>> = {}) {
  return createHarness({ model, clock: createManualClock(), continuationSecret: 'hostile-test-secret-0123456789', ...extra });
}

function guardedTools() {
  return createFakeToolRegistry({ delete_repo: { requiresApproval: true, execute: () => 'deleted' }, lookup: () => 'found' });
}

describe('approval cannot be bypassed by call ids inherited from Object.prototype (issue 9, class 1)', () => {
  it.each(inheritedNames)('pauses for approval when the call id is %s and runs nothing', async (id) => {
    const tools = guardedTools();
    const model = createScriptedModel([{ type: 'tool_request', calls: [{ id, name: 'delete_repo', input: {} }] }]);
    const result = await harnessFor(model, { tools }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'awaiting_approval', stopReason: 'approval_required' });
    expect(result.metadata?.approvalRequests).toEqual([expect.objectContaining({ id })]);
    expect(tools.calls).toEqual([]);
  });

  it('runs a call with an inherited id only after its own approval, and rejects it when rejected', async () => {
    for (const decision of ['approved', 'rejected'] as const) {
      const tools = guardedTools();
      const model = createScriptedModel([
        { type: 'tool_request', calls: [{ id: 'constructor', name: 'delete_repo', input: {} }] },
        { type: 'final_answer', text: 'done' },
      ]);
      const harness = harnessFor(model, { tools });
      const paused = await harness.runTurn(createTurnInput());
      expect(tools.calls).toEqual([]);
      const resumed = await harness.resumeTurn(paused.continuation!, { type: 'approval', decisions: { constructor: decision } });
      expect(resumed.outcome).toBe('completed');
      expect(tools.calls.map((call) => call.id)).toEqual(decision === 'approved' ? ['constructor'] : []);
    }
  });

  it.each(inheritedNames)('finds no outcome or user message for the stop reason %s', (name) => {
    expect(outcomeForStopReason(name as never)).toBe('failed');
    expect(typeof stopReasonToUserMessage(name as never)).toBe('string');
  });

  it('never treats tool names inherited from Object.prototype as tools', async () => {
    const tools = guardedTools();
    const model = createScriptedModel([
      { type: 'tool_request', calls: inheritedNames.map((name, index) => ({ id: `c${index}`, name, input: {} })) },
      { type: 'final_answer', text: 'ok' },
    ]);
    const result = await harnessFor(model, { tools }).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(tools.calls).toEqual([]);
    const codes = result.transcript.flatMap((item) => (item.type === 'tool_result' ? [item.result.error?.code] : []));
    expect(codes).toEqual(inheritedNames.map(() => 'tool_unavailable'));
  });
});

function expectRuntimeError(result: HarnessResult, source: string) {
  expect(result).toMatchObject({ outcome: 'failed', stopReason: 'runtime_error', metadata: { error: { code: 'runtime_error', source } } });
  expect(typeof result.metadata?.error?.message).toBe('string');
  expect(() => JSON.stringify(result)).not.toThrow();
}

describe('runTurn and streamTurn never reject, whatever is thrown (issue 9, class 3)', () => {
  describe.each(hostileThrowables())('when the thrown value is %s', (_label, make) => {
    const fail = (): never => {
      throw make();
    };

    it('from the model (nextStep and streamStep)', async () => {
      const model: HarnessModelAdapter = { nextStep: fail, streamStep: fail };
      expectRuntimeError(await harnessFor(model).runTurn(createTurnInput()), 'model');
      const stream = harnessFor(model).streamTurn(createTurnInput());
      const events: string[] = [];
      for await (const event of stream) events.push(event.type);
      expect(events.at(-1)).toBe('result');
      expectRuntimeError(await stream.result, 'model');
    });

    it('as a rejection from the model', async () => {
      const model: HarnessModelAdapter = { nextStep: () => Promise.reject(make()) };
      expectRuntimeError(await harnessFor(model).runTurn(createTurnInput()), 'model');
    });

    it('from listAvailable', async () => {
      const tools: HarnessToolRegistry = { listAvailable: fail, execute: fail };
      expectRuntimeError(await harnessFor(createScriptedModel([]), { tools }).runTurn(createTurnInput()), 'tools.listAvailable');
    });

    it('from approvals.prepareRequest', async () => {
      const approvals: HarnessApprovalAdapter = { prepareRequest: fail };
      const model = createScriptedModel([{ type: 'tool_request', calls: [{ id: 'c1', name: 'delete_repo', input: {} }] }]);
      const tools = guardedTools();
      expectRuntimeError(await harnessFor(model, { tools, approvals }).runTurn(createTurnInput()), 'approvals.prepareRequest');
      expect(tools.calls).toEqual([]);
    });

    it.each(['onInvalidModelOutput', 'onToolError', 'clarifyOnToolResult'] as const)('from the %s hook', async (name) => {
      const model = createScriptedModel([
        name === 'onInvalidModelOutput'
          ? { type: 'invalid', kind: 'schema_mismatch', reason: 'bad' }
          : { type: 'tool_request', calls: [{ id: 'c1', name: name === 'onToolError' ? 'missing_tool' : 'lookup', input: {} }] },
      ]);
      const hooks: HarnessHooks = { [name]: fail };
      expectRuntimeError(await harnessFor(model, { tools: guardedTools(), hooks }).runTurn(createTurnInput()), `hooks.${name}`);
    });

    it('from a tool, which becomes a tool_exception result', async () => {
      const tools = createFakeToolRegistry({ lookup: fail });
      const model = createScriptedModel([{ type: 'tool_request', calls: [{ id: 'c1', name: 'lookup', input: {} }] }]);
      const result = await harnessFor(model, { tools }).runTurn(createTurnInput());
      expect(result).toMatchObject({ outcome: 'failed', stopReason: 'tool_error_unrecoverable' });
      const last = result.transcript.at(-1);
      expect(last).toMatchObject({ type: 'tool_result', result: { status: 'error', error: { code: 'tool_exception' } } });
      expect(() => JSON.stringify(result)).not.toThrow();
    });
  });

  it('describes a thrown Error whose message getter throws without the message', async () => {
    const error = errorWithThrowingMessage();
    const result = await harnessFor({ nextStep: () => Promise.reject(error) }).runTurn(createTurnInput());
    expect(result.metadata?.error?.message).toBe('Unknown error (the thrown value could not be read)');
  });
});

describe('hostile values returned to the loop become structured results (issue 9, class 3)', () => {
  it('treats a model output with a throwing getter as an unusable output, not a crash', async () => {
    const model = createScriptedModel([
      () => Object.assign(throwingGetter('text'), { type: 'final_answer' }) as never,
      { type: 'final_answer', text: 'second try' },
    ]);
    const result = await harnessFor(model).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'second try' } });
    expect(result.transcript[0]).toMatchObject({ type: 'invalid_output', kind: 'schema_mismatch' });
  });

  it.each(hostileValues())('refuses a tool input holding %s before any tool runs', async (_label, make) => {
    const tools = guardedTools();
    const model = createScriptedModel([
      { type: 'tool_request', calls: [{ id: 'c1', name: 'lookup', input: make() as Record<string, unknown> }] },
      { type: 'final_answer', text: 'gave up' },
    ]);
    const result = await harnessFor(model, { tools }).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(result.transcript[0]).toMatchObject({ type: 'invalid_output', kind: 'schema_mismatch' });
    expect(tools.calls).toEqual([]);
  });

  it('keeps an input key named __proto__ as data, never as a prototype', async () => {
    const tools = guardedTools();
    const input = JSON.parse('{"__proto__": {"polluted": true}, "q": 1}') as Record<string, unknown>;
    const model = createScriptedModel([
      { type: 'tool_request', calls: [{ id: 'c1', name: 'lookup', input }] },
      { type: 'final_answer', text: 'ok' },
    ]);
    await harnessFor(model, { tools }).runTurn(createTurnInput());
    const received = tools.calls[0]!.input;
    expect(Object.getPrototypeOf(received)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads each tool definition once, so a getter cannot drop requiresApproval between check and run', async () => {
    let reads = 0;
    const definition = {
      name: 'delete_repo',
      get requiresApproval() {
        reads += 1;
        return reads === 1;
      },
    };
    const registry = guardedTools();
    const tools: HarnessToolRegistry = { listAvailable: () => [definition], execute: (call, context) => registry.execute(call, context) };
    const model = createScriptedModel([{ type: 'tool_request', calls: [{ id: 'c1', name: 'delete_repo', input: {} }] }]);
    const result = await harnessFor(model, { tools }).runTurn(createTurnInput());
    expect(result.outcome).toBe('awaiting_approval');
    expect(registry.calls).toEqual([]);
  });

  it.each([1, 'yes', {}])('treats a truthy requiresApproval of %j (untyped code) as true', async (flag) => {
    const registry = guardedTools();
    const tools: HarnessToolRegistry = {
      listAvailable: () => [{ name: 'lookup', requiresApproval: flag as never }],
      execute: (call, context) => registry.execute(call, context),
    };
    const model = createScriptedModel([{ type: 'tool_request', calls: [{ id: 'c1', name: 'lookup', input: {} }] }]);
    expect((await harnessFor(model, { tools }).runTurn(createTurnInput())).outcome).toBe('awaiting_approval');
    expect(registry.calls).toEqual([]);
  });

  it('fails the turn when approvals.prepareRequest returns an unusable request', async () => {
    const approvals: HarnessApprovalAdapter = { prepareRequest: () => ({ kind: 5 }) as never };
    const tools = guardedTools();
    const model = createScriptedModel([{ type: 'tool_request', calls: [{ id: 'c1', name: 'delete_repo', input: {} }] }]);
    expectRuntimeError(await harnessFor(model, { tools, approvals }).runTurn(createTurnInput()), 'approvals.prepareRequest');
    expect(tools.calls).toEqual([]);
  });

  it('turns a tool result with throwing getters into invalid_tool_result', async () => {
    const tools: HarnessToolRegistry = {
      listAvailable: () => [{ name: 'lookup' }],
      execute: async () => Object.defineProperty({ callId: 'c1', toolName: 'lookup' }, 'status', { enumerable: true, get: () => { throw 1n; } }) as never,
    };
    const model = createScriptedModel([
      { type: 'tool_request', calls: [{ id: 'c1', name: 'lookup', input: {} }] },
      { type: 'final_answer', text: 'ok' },
    ]);
    const result = await harnessFor(model, { tools }).runTurn(createTurnInput());
    expect(result.outcome).toBe('failed');
    expect(result.transcript.at(-1)).toMatchObject({ type: 'tool_result', result: { error: { code: 'invalid_tool_result' } } });
  });
});

describe('resumeTurn never rejects for a continuation whose getter throws a hostile value', () => {
  it('returns continuation_invalid when a getter throws a Proxy whose getPrototypeOf trap throws', async () => {
    const evil = new Proxy({}, { getPrototypeOf: () => { throw new Error('trap'); } });
    const raw = Object.defineProperty({}, 'id', { enumerable: true, get: () => { throw evil; } });
    const result = await harnessFor(createScriptedModel([])).resumeTurn(raw as never, { type: 'clarification', answer: 'a' });
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'continuation_invalid' });
  });
});
