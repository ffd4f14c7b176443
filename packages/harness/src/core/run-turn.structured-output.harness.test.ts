import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHarness } from './create-harness.js';
import { createOpenAICompatibleModel } from '../providers/openai-compatible/create-openai-compatible-model.js';
import { createTurnInput } from '../testing/index.js';
import { createFakeOpenAICompatibleServer, type FakeModelServer } from '../testing/node/index.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('structured output through the OpenAI-compatible provider', () => {
  it('parses the answer into result.output, after telling the model what did not match', async () => {
    server = await createFakeOpenAICompatibleServer({
      replies: [
        { text: '{"city":"Oslo","days":"three"}' },
        (request) => ({
          // The second request replays the first answer's validation issues to the model.
          text: JSON.stringify(request.body).includes('does not match the output schema: days') ? '```json\n{"city":"Oslo","days":3}\n```' : 'no',
        }),
      ],
    });
    const model = createOpenAICompatibleModel({ baseUrl: server.url, model: 'fake-model', retry: { initialDelayMs: 1, maxDelayMs: 2 } });
    const harness = createHarness({ model, output: z.object({ city: z.string(), days: z.number().int() }) });
    const stream = harness.streamTurn(createTurnInput({ text: 'Plan three days in Oslo.' }));
    const outputs: unknown[] = [];
    for await (const event of stream) if (event.type === 'output') outputs.push(event.output);
    const result = await stream.result;
    expect(result).toMatchObject({ outcome: 'completed', output: { city: 'Oslo', days: 3 }, usage: { modelCalls: 2 } });
    expect(result.assistantMessage?.text).toBe('{"city":"Oslo","days":3}');
    expect(outputs).toEqual([{ city: 'Oslo', days: 3 }]);
    expect(server.requests).toHaveLength(2);
  });

  it('streams output_partial events from the SSE text deltas as the JSON grows', async () => {
    server = await createFakeOpenAICompatibleServer({ replies: [{ text: '{"city":"Oslo","sights":["Opera","Vigeland park"],"days":3}', deltaSize: 4 }] });
    const model = createOpenAICompatibleModel({ baseUrl: server.url, model: 'fake-model' });
    const harness = createHarness({ model, output: z.object({ city: z.string(), sights: z.array(z.string()), days: z.number() }) });
    const partials: unknown[] = [];
    const stream = harness.streamTurn(createTurnInput({ text: 'Plan Oslo.' }));
    for await (const event of stream) if (event.type === 'output_partial') partials.push(event.output);
    expect((await stream.result).output).toEqual({ city: 'Oslo', sights: ['Opera', 'Vigeland park'], days: 3 });
    expect(partials[0]).toEqual({});
    expect(partials).toContainEqual({ city: 'Oslo', sights: ['Opera'] });
    expect(partials.at(-1)).toEqual({ city: 'Oslo', sights: ['Opera', 'Vigeland park'], days: 3 });
    expect(partials.length).toBeGreaterThan(5);
  });
});
