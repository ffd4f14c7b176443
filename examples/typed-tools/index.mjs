// npm start — offline, no keys. A zod-typed tool in a harness turn: the (scripted) model first
// sends bad input, gets a retryable `invalid_input` error naming the field, corrects itself and
// answers. Then a second turn pauses for approval because the tool's rule says so.
import { z } from 'zod';
import { createHarness, createToolRegistry, defineTool, toolOutput, ToolExecutionError } from '@agent-assistant/harness';
import { createScriptedModel } from '@agent-assistant/harness/testing';

const FORECASTS = { oslo: ['sunny', 'cloudy', 'rain'], bergen: ['rain', 'rain', 'rain'] };

const forecast = defineTool({
  name: 'get_forecast',
  description: 'Weather forecast for a Norwegian city, for 1–3 days.',
  input: z.object({
    city: z.string().min(1).describe('City name, e.g. Oslo'),
    days: z.number().int().min(1).max(3).default(1).describe('How many days'),
  }),
  timeoutMs: 2_000,
  execute: ({ city, days }) => {
    const known = FORECASTS[city.toLowerCase()];
    if (known === undefined)
      throw new ToolExecutionError(`No forecast for "${city}". Known: Oslo, Bergen.`, { reason: 'not_found', retryable: true });
    const outlook = known.slice(0, days);
    return toolOutput({ text: `${city}: ${outlook.join(', ')}`, data: { city, outlook } });
  },
});

const book = defineTool({
  name: 'book_trip',
  description: 'Books a trip. Trips over 1000 EUR need a person to approve.',
  input: z.object({ city: z.string(), budgetEur: z.number().positive() }),
  requiresApproval: ({ budgetEur }) => budgetEur > 1000,
  execute: ({ city, budgetEur }) => `Booked ${city} for ${budgetEur} EUR.`,
});

const tools = createToolRegistry([forecast, book]);
console.log('JSON Schema the model sees for get_forecast:');
console.log(
  JSON.stringify((await tools.listAvailable()).find((tool) => tool.name === 'get_forecast').inputSchema, null, 2),
  '\n'
);

const lastResult = (input) => [...input.transcript].reverse().find((item) => item.type === 'tool_result')?.result;

// A real model decides these steps itself; the script shows what it receives at each step.
const model = createScriptedModel([
  { type: 'tool_request', calls: [{ id: 'c1', name: 'get_forecast', input: { city: 'Oslo', days: 'three' } }] },
  (input) => {
    console.log('The model got back:', JSON.stringify(lastResult(input).error), '\n');
    return { type: 'tool_request', calls: [{ id: 'c2', name: 'get_forecast', input: { city: 'Oslo', days: 3 } }] };
  },
  (input) => ({ type: 'final_answer', text: `Forecast — ${lastResult(input).output}.` }),
  { type: 'tool_request', calls: [{ id: 'b1', name: 'book_trip', input: { city: 'Oslo', budgetEur: 2500 } }] },
  (input) => ({ type: 'final_answer', text: lastResult(input).output }),
]);

const harness = createHarness({ model, tools });
const turn = (turnId, text) =>
  harness.runTurn({
    assistantId: 'travel-assistant',
    turnId,
    message: { id: `${turnId}-m`, text, receivedAt: new Date().toISOString() },
    instructions: { systemPrompt: 'You plan trips in Norway.' },
  });

const first = await turn('turn-1', 'What will the weather be in Oslo for the next three days?');
console.log(`turn 1: ${first.outcome} / ${first.stopReason} — ${first.assistantMessage?.text}`);
console.log(`        tool calls: ${first.usage.toolCalls}, model calls: ${first.usage.modelCalls}`);

const second = await turn('turn-2', 'Book me a trip to Oslo, budget 2500 EUR.');
const approvals = second.continuation?.state.approvals ?? [];
console.log(
  `turn 2: ${second.outcome} / ${second.stopReason} — waiting for: ${approvals.map((request) => request.summary).join('; ')}`
);

// Someone approves; the approved call runs on resume and the model answers.
const resumed = await harness.resumeTurn(second.continuation, { type: 'approval', decisions: { b1: 'approved' } });
console.log(`resumed: ${resumed.outcome} / ${resumed.stopReason} — ${resumed.assistantMessage?.text}`);
