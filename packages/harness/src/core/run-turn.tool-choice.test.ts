import { describe, expect, it } from 'vitest';
import {
  createHarness,
  HarnessConfigError,
  type HarnessExecutionState,
  type HarnessHooks,
  type HarnessModelAdapter,
  type HarnessToolChoice,
  type HarnessTurnInput,
} from '../index.js';
import { createFakeToolRegistry, createScriptedModel, createTurnInput } from '../testing/index.js';

const tools = () => createFakeToolRegistry({ search: () => 'found', lookup: () => 'looked up' });
const harnessFor = (model: HarnessModelAdapter, hooks: HarnessHooks = {}) => createHarness({ model, tools: tools(), hooks });

const searchThenAnswer = () =>
  createScriptedModel([
    { type: 'tool_request', calls: [{ id: 'c1', name: 'search', input: {} }] },
    { type: 'final_answer', text: 'done' },
  ]);

describe('toolChoice of the turn', () => {
  it.each<HarnessToolChoice>(['auto', 'none', 'required', { name: 'lookup' }])('reaches every model step: %j', async (toolChoice) => {
    const model = searchThenAnswer();
    const result = await harnessFor(model).runTurn(createTurnInput({ toolChoice }));
    expect(result.outcome).toBe('completed');
    expect(model.calls.map((call) => call.toolChoice)).toEqual([toolChoice, toolChoice]);
    // 'none' still offers the definitions: the provider maps the choice, the harness does not hide tools.
    expect(model.calls[0]!.availableTools.map((tool) => tool.name)).toEqual(['search', 'lookup']);
  });

  it('is absent from the model input when the turn has none', async () => {
    const model = searchThenAnswer();
    await harnessFor(model).runTurn(createTurnInput());
    expect(model.calls.map((call) => call.toolChoice)).toEqual([undefined, undefined]);
  });

  it('is a copy per step: an adapter changing it does not change the next step', async () => {
    const model = createScriptedModel([
      (input) => {
        (input.toolChoice as { name: string }).name = 'search';
        return { type: 'tool_request', calls: [{ id: 'c1', name: 'lookup', input: {} }] };
      },
      { type: 'final_answer', text: 'done' },
    ]);
    await harnessFor(model).runTurn(createTurnInput({ toolChoice: { name: 'lookup' } }));
    expect(model.calls[1]!.toolChoice).toEqual({ name: 'lookup' });
  });

  it.each([
    ['an unknown string', 'always'],
    ['a name that is not a string', { name: 42 }],
    ['an empty name', { name: '' }],
    ['an array', ['auto']],
  ])('rejects %s with HarnessConfigError', async (_name, toolChoice) => {
    const model = createScriptedModel([]);
    const input = createTurnInput({ toolChoice: toolChoice as HarnessToolChoice });
    await expect(harnessFor(model).runTurn(input)).rejects.toSatisfy(
      (error: unknown) => HarnessConfigError.isInstance(error) && /input\.toolChoice/.test((error as Error).message),
    );
  });

  it('fails the turn tool_unavailable, before any model call, when it names a tool that is not available', async () => {
    const model = createScriptedModel([]);
    const result = await harnessFor(model).runTurn(createTurnInput({ toolChoice: { name: 'delete_everything' } }));
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'tool_unavailable', metadata: { toolName: 'delete_everything' } });
    expect(result.error).toEqual({
      code: 'tool_unavailable',
      message: 'toolChoice names the tool "delete_everything", which is not available: the available tools are "search", "lookup".',
      source: 'input.toolChoice',
      retryable: false,
    });
    expect(model.calls).toHaveLength(0);
  });

  it('counts allowedToolNames: a named tool the turn does not allow is not available', async () => {
    const model = createScriptedModel([]);
    const input: HarnessTurnInput = createTurnInput({ toolChoice: { name: 'search' }, allowedToolNames: ['lookup'] });
    const result = await harnessFor(model).runTurn(input);
    expect(result.stopReason).toBe('tool_unavailable');
    expect(result.error!.message).toContain('the available tools are "lookup"');
  });

  it("fails 'required' when no tools are available, and accepts 'none' and 'auto' without tools", async () => {
    const required = await createHarness({ model: createScriptedModel([]) }).runTurn(createTurnInput({ toolChoice: 'required' }));
    expect(required.stopReason).toBe('tool_unavailable');
    expect(required.error!.message).toBe("toolChoice 'required' asks the model to call a tool, but no tools are available.");
    for (const toolChoice of ['none', 'auto'] as const) {
      const result = await createHarness({ model: createScriptedModel([{ type: 'final_answer', text: 'ok' }]) }).runTurn(createTurnInput({ toolChoice }));
      expect(result.outcome).toBe('completed');
    }
  });

  it('names a hostile tool name as data, bounded', async () => {
    const name = `__proto__${'x'.repeat(5_000)}`;
    const result = await harnessFor(createScriptedModel([])).runTurn(createTurnInput({ toolChoice: { name } }));
    expect(result.stopReason).toBe('tool_unavailable');
    expect(result.error!.message.length).toBeLessThan(300);
    expect(result.metadata?.toolName).toBe(`${name.slice(0, 100)}…`);
  });
});

describe('hooks.prepareStep', () => {
  it('chooses the tool per step: forced on step 1 only, the turn choice afterwards', async () => {
    const states: HarnessExecutionState[] = [];
    const model = searchThenAnswer();
    const result = await harnessFor(model, {
      prepareStep: (state) => {
        states.push(state);
        return state.iteration === 1 ? { toolChoice: { name: 'search' } } : undefined;
      },
    }).runTurn(createTurnInput({ toolChoice: 'auto' }));
    expect(result.outcome).toBe('completed');
    expect(model.calls.map((call) => call.toolChoice)).toEqual([{ name: 'search' }, 'auto']);
    expect(states.map((state) => [state.iteration, state.toolCallCount, state.transcript.length])).toEqual([
      [1, 0, 0],
      [2, 1, 2],
    ]);
  });

  it('may be async and may return {} (keeps the turn choice)', async () => {
    const model = searchThenAnswer();
    await harnessFor(model, {
      prepareStep: async (state) => {
        await Promise.resolve();
        return state.iteration === 1 ? { toolChoice: 'required' } : {};
      },
    }).runTurn(createTurnInput({ toolChoice: 'none' }));
    expect(model.calls.map((call) => call.toolChoice)).toEqual(['required', 'none']);
  });

  it('fails the turn tool_unavailable when it names a tool that is not available', async () => {
    const model = searchThenAnswer();
    const result = await harnessFor(model, {
      prepareStep: (state) => (state.iteration === 2 ? { toolChoice: { name: 'nope' } } : undefined),
    }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'tool_unavailable' });
    expect(result.error).toMatchObject({ code: 'tool_unavailable', source: 'hooks.prepareStep' });
    expect(model.calls).toHaveLength(1);
  });

  it('ends the turn failed / runtime_error when it throws, like other hooks', async () => {
    const model = searchThenAnswer();
    const result = await harnessFor(model, {
      prepareStep: () => {
        throw new Error('hook broke');
      },
    }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'runtime_error' });
    expect(result.error).toMatchObject({ code: 'runtime_error', source: 'hooks.prepareStep' });
    expect(result.error!.message).toContain('hook broke');
    expect(model.calls).toHaveLength(0);
  });

  it.each([
    ['a number', 42],
    ['an unknown choice', { toolChoice: 'sometimes' }],
    ['a null', null],
    [
      'an object whose getter throws',
      Object.defineProperty({}, 'toolChoice', {
        enumerable: true,
        get() {
          throw new Error('getter');
        },
      }),
    ],
  ])('ends the turn failed / runtime_error when it returns %s', async (_name, value) => {
    const model = searchThenAnswer();
    const result = await harnessFor(model, { prepareStep: () => value as never }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'runtime_error', error: { source: 'hooks.prepareStep' } });
    expect(model.calls).toHaveLength(0);
  });

  it('must be a function (createHarness checks hooks)', () => {
    expect(() => createHarness({ model: createScriptedModel([]), hooks: { prepareStep: 'first' as never } })).toThrow(/hooks\.prepareStep must be a function/);
  });
});
