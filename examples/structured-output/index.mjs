// npm start — offline, no keys. A typed final answer: the harness asks the model for a JSON value
// matching a zod schema, validates it, and hands back `result.output` typed from the schema.
// 1. A scripted model first answers with a wrong type, is told the validation issues, corrects itself.
// 2. A per-turn schema through the real OpenAI-compatible provider against a loopback fake server,
//    streamed: the `output` event arrives right before the result.
import { z } from 'zod';
import { createHarness, createOpenAICompatibleModel } from '@agent-assistant/harness';
import { createScriptedModel } from '@agent-assistant/harness/testing';
import { createFakeOpenAICompatibleServer } from '@agent-assistant/harness/testing/node';

const Trip = z.object({
  city: z.string(),
  days: z.number().int().min(1).max(14),
  highlights: z.array(z.string()).max(3).describe('Up to three things to see'),
});

const input = (turnId, text) => ({
  assistantId: 'trip-planner',
  turnId,
  message: { id: `${turnId}-m`, text, receivedAt: new Date().toISOString() },
  instructions: { systemPrompt: 'You plan short trips in Norway.' },
});

// A real model decides these answers itself; the script shows what it receives at each step.
const model = createScriptedModel([
  (step) => {
    console.log(`The model is asked for "${step.output.name}" with this JSON Schema:`);
    console.log(JSON.stringify(step.output.jsonSchema), '\n');
    return { type: 'final_answer', text: '{"city":"Oslo","days":"three","highlights":["Opera house"]}' };
  },
  (step) => {
    const told = step.transcript.findLast((item) => item.type === 'invalid_output');
    console.log('The model is told:', told.reason, '\n');
    return { type: 'final_answer', text: '```json\n{"city":"Oslo","days":3,"highlights":["Opera house","Vigeland park"]}\n```' };
  },
]);

const harness = createHarness({ model, output: Trip });
const first = await harness.runTurn(input('turn-1', 'Plan three days in Oslo.'));
console.log(`turn 1: ${first.outcome} / ${first.stopReason} after ${first.usage.modelCalls} model calls`);
console.log(`        output: ${JSON.stringify(first.output)}`);
console.log(`        ${first.output.city} for ${first.output.days} days: ${first.output.highlights.join(', ')}\n`);

// A per-turn schema replaces the harness's; here through the real OpenAI-compatible provider.
const Packing = z.object({ items: z.array(z.object({ name: z.string(), count: z.number().int() })) });
const server = await createFakeOpenAICompatibleServer({
  replies: [{ text: '{"items":[{"name":"rain jacket","count":1},{"name":"wool socks","count":3}]}', deltaSize: 16 }],
});
try {
  const provider = createOpenAICompatibleModel({ baseUrl: server.url, model: 'fake-model' });
  const stream = createHarness({ model: provider }).streamTurn(input('turn-2', 'What should I pack for Bergen?'), { output: Packing });
  let partials = 0;
  for await (const event of stream) {
    if (event.type === 'text_delta') process.stdout.write('.');
    // The value so far, as the JSON arrives (not validated yet): e.g. to render a list while it grows.
    if (event.type === 'output_partial') partials += 1;
    if (event.type === 'output_partial' && event.output.items?.length === 2) {
      console.log(`\nturn 2: partial: ${event.output.items.map((item) => `${item.count ?? '?'} × ${item.name ?? '…'}`).join(', ')}`);
    }
    if (event.type === 'output') console.log(`turn 2: ${partials} output_partial events, then the output event: ${event.output.items.map((item) => `${item.count} × ${item.name}`).join(', ')}`);
    if (event.type === 'result') console.log(`turn 2: ${event.result.outcome} / ${event.result.stopReason}`);
  }
} finally {
  await server.close();
}
