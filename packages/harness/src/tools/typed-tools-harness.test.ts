import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHarness } from '../core/create-harness.js';
import { createScriptedModel, createTurnInput, memoryTraceSink } from '../testing/index.js';
import { composeToolRegistries } from './compose-tool-registries.js';
import { createToolRegistry } from './create-tool-registry.js';
import { defineTool } from './define-tool.js';

const executed: Array<{ city: string; days: number }> = [];
const forecast = defineTool({
  name: 'get_forecast',
  description: 'Forecast for a city.',
  input: z.object({ city: z.string().min(1), days: z.number().int().min(1).max(7) }),
  execute: ({ city, days }) => {
    executed.push({ city, days });
    return `${city}: sunny for ${days} days`;
  },
});

describe('typed tools in a harness turn', () => {
  it('lets the model correct invalid input after a retryable invalid_input error', async () => {
    executed.length = 0;
    const model = createScriptedModel([
      { type: 'tool_request', calls: [{ id: 'c1', name: 'get_forecast', input: { city: 'Oslo', days: 'three' } }] },
      (modelInput) => {
        const last = modelInput.transcript.at(-1);
        expect(last).toMatchObject({
          type: 'tool_result',
          result: { status: 'error', error: { code: 'invalid_input', retryable: true, metadata: { fields: ['days'] } } },
        });
        return { type: 'tool_request', calls: [{ id: 'c2', name: 'get_forecast', input: { city: 'Oslo', days: 3 } }] };
      },
      { type: 'final_answer', text: 'Oslo will be sunny for three days.' },
    ]);
    const trace = memoryTraceSink();
    const result = await createHarness({ model, tools: createToolRegistry([forecast]), trace }).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(executed).toEqual([{ city: 'Oslo', days: 3 }]);
    expect(model.calls[0]?.availableTools[0]).toMatchObject({
      name: 'get_forecast',
      inputSchema: { type: 'object', required: ['city', 'days'] },
    });
    expect(model.calls[2]?.transcript.at(-1)).toMatchObject({
      type: 'tool_result',
      result: { output: 'Oslo: sunny for 3 days' },
    });
    expect(trace.types().filter((type) => type.startsWith('tool_'))).toEqual([
      'tool_requested',
      'tool_started',
      'tool_failed',
      'tool_requested',
      'tool_started',
      'tool_finished',
    ]);
  });

  it('pauses for approval when a typed tool requires it for the parsed input', async () => {
    const pay = defineTool({
      name: 'pay',
      description: 'Pays an invoice.',
      input: z.object({ amount: z.number() }),
      requiresApproval: ({ amount }) => amount >= 1000,
      execute: ({ amount }) => `paid ${amount}`,
    });
    const model = createScriptedModel([{ type: 'tool_request', calls: [{ id: 'p1', name: 'pay', input: { amount: 5000 } }] }]);
    const harness = createHarness({
      model,
      tools: composeToolRegistries(createToolRegistry([pay]), createToolRegistry([forecast])),
    });
    const result = await harness.runTurn(createTurnInput());
    expect(result.outcome).toBe('awaiting_approval');
    expect(result.transcript.some((item) => item.type === 'tool_result')).toBe(false);
  });
});
