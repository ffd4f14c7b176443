import { describe, expect, it } from 'vitest';
import { createHarness, HarnessConfigError } from '../index.js';
import { createFakeToolRegistry, createScriptedModel, createTurnInput, memoryTraceSink } from '../testing/index.js';

describe('createHarness', () => {
  it('runs a tool turn to completion', async () => {
    const model = createScriptedModel([
      { type: 'tool_request', calls: [{ id: 'c1', name: 'lookup_weather', input: { city: 'Oslo' } }] },
      { type: 'final_answer', text: 'Sunny in Oslo.' },
    ]);
    const tools = createFakeToolRegistry({ lookup_weather: ({ city }) => `Sunny in ${String(city)}` });
    const trace = memoryTraceSink();
    const result = await createHarness({ model, tools, trace }).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(result.stopReason).toBe('answer_finalized');
    expect(result.assistantMessage?.text).toBe('Sunny in Oslo.');
    expect(trace.types()).toEqual([
      'turn_started',
      'model_step_started',
      'model_step_finished',
      'tool_requested',
      'tool_started',
      'tool_finished',
      'model_step_started',
      'model_step_finished',
      'turn_finished',
    ]);
    expect(model.calls[1]?.transcript.at(-1)).toMatchObject({ type: 'tool_result', result: { output: 'Sunny in Oslo' } });
  });

  it('adds resultMetadata to every result, a fresh copy each time, the result\'s own fields winning', async () => {
    const given = { agentProject: { agent: 'assistant', instructions: null }, steering: 'loses' };
    const harness = createHarness({
      model: createScriptedModel((input) => ({ type: 'final_answer', text: input.message.text })),
      resultMetadata: given,
    });
    given.agentProject.agent = 'changed later';
    const first = await harness.runTurn(createTurnInput({ text: 'a' }));
    expect(first.metadata).toEqual({ agentProject: { agent: 'assistant', instructions: null }, steering: 'loses' });
    (first.metadata!.agentProject as { agent: string }).agent = 'changed by a reader';
    const second = await harness.runTurn(createTurnInput({ text: 'b' }));
    expect(second.metadata?.agentProject).toEqual({ agent: 'assistant', instructions: null });
  });

  it('refuses resultMetadata that is not a plain object of JSON values', () => {
    const model = createScriptedModel([]);
    for (const resultMetadata of [[], 'text', { fn: () => 1 }, { get boom() { throw new Error('no'); } }]) {
      expect(() => createHarness({ model, resultMetadata: resultMetadata as never })).toThrow(expect.objectContaining({ field: 'resultMetadata' }) as Error);
    }
  });

  it('rejects a config without a model', () => {
    expect(() => createHarness({} as never)).toThrow(HarnessConfigError);
  });
});
