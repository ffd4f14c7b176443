import { describe, expect, it } from 'vitest';
import { createHarness, type HarnessLoopContinuationState, type HarnessToolCall } from '../index.js';
import { createFakeToolRegistry, createManualClock, createScriptedModel, createTurnInput } from '../testing/index.js';

const call = (id: string, name = 'lookup', input: Record<string, unknown> = { q: id }): HarnessToolCall => ({ id, name, input });

describe('usage aggregation', () => {
  it('sums tokens, cost units, latency, model calls and tool calls over the turn', async () => {
    const clock = createManualClock();
    const tools = createFakeToolRegistry({
      lookup: ({ q }) => {
        clock.advance(30);
        return { status: 'success', output: String(q), usage: { costUnits: 0.25, inputTokens: 1 } };
      },
      timed: () => {
        clock.advance(999);
        return { status: 'success', output: 'timed', usage: { latencyMs: 5 } };
      },
    });
    const model = createScriptedModel([
      () => {
        clock.advance(100);
        return {
          type: 'tool_request',
          calls: [call('c1'), call('c2', 'timed'), call('c3', 'missing')],
          usage: { inputTokens: 10, outputTokens: 5, costUnits: 0.5 },
        };
      },
      () => {
        clock.advance(50);
        return { type: 'invalid', kind: 'transient', reason: 'hiccup', usage: { inputTokens: 3, costUnits: 0.125 } };
      },
      () => {
        clock.advance(70);
        return { type: 'final_answer', text: 'ok', usage: { inputTokens: 20, outputTokens: 7, costUnits: 1, latencyMs: 400 } };
      },
    ]);
    const result = await createHarness({ model, tools, clock }).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(result.usage).toEqual({
      totalInputTokens: 10 + 1 + 3 + 20,
      totalOutputTokens: 5 + 7,
      totalCostUnits: 0.5 + 0.25 + 0.125 + 1,
      // measured 100 + 30 + 50, reported 5 (tool) and 400 (model) win over the measured 999 and 70.
      totalLatencyMs: 100 + 30 + 5 + 50 + 400,
      modelCalls: 3,
      toolCalls: 2,
    });
  });

  it('starts at zero for a turn that never reached the model', async () => {
    const caller = new AbortController();
    caller.abort();
    const result = await createHarness({ model: createScriptedModel([]) }).runTurn(createTurnInput(), { signal: caller.signal });
    expect(result.usage).toEqual({
      totalInputTokens: 0,
      totalOutputTokens: 0,
      totalCostUnits: 0,
      totalLatencyMs: 0,
      modelCalls: 0,
      toolCalls: 0,
    });
  });

  it('is reported on failed turns and carried in continuations', async () => {
    const refused = await createHarness({
      model: createScriptedModel([{ type: 'refusal', reason: 'no', usage: { inputTokens: 4, costUnits: 0.1 } }]),
    }).runTurn(createTurnInput());
    expect(refused.usage).toMatchObject({ totalInputTokens: 4, totalCostUnits: 0.1, modelCalls: 1 });

    const deferred = await createHarness({
      model: createScriptedModel([{ type: 'tool_request', calls: [call('c1'), call('c2')], usage: { outputTokens: 9 } }]),
      tools: createFakeToolRegistry({ lookup: () => 'x' }),
      limits: { maxToolCalls: 1 },
    }).runTurn(createTurnInput());
    expect(deferred.usage).toMatchObject({ totalOutputTokens: 9, modelCalls: 1, toolCalls: 1 });
    expect((deferred.continuation?.state as HarnessLoopContinuationState).usage).toEqual(deferred.usage);
  });

  it('returns a copy that later turns do not change', async () => {
    const harness = createHarness({ model: createScriptedModel(() => ({ type: 'final_answer', text: 'ok', usage: { inputTokens: 1 } })) });
    const first = await harness.runTurn(createTurnInput());
    await harness.runTurn(createTurnInput({ turnId: 'turn-2' }));
    expect(first.usage.totalInputTokens).toBe(1);
  });
});
