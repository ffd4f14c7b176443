import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import { createFakeToolRegistry, createTurnInput } from '../testing/index.js';
import { createFakeGeminiServer, type FakeModelServer } from '../testing/node/index.js';
import { createGeminiModel } from './gemini/create-gemini-model.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// Issue 23, item 13: a real Gemini step asks for the same tool three times in parallel with `{}`.
describe('Gemini: the same tool three times in one step', () => {
  it.each([false, true])('runs every call and answers each; the turn completes (streamed: %s)', async (streamed) => {
    const sameCall = { name: 'get_current_time', arguments: {} };
    server = await createFakeGeminiServer({ replies: [{ toolCalls: [sameCall, sameCall, sameCall] }, { text: 'It is noon.' }] });
    const tools = createFakeToolRegistry({ get_current_time: () => '12:00' });
    const harness = createHarness({ model: createGeminiModel({ baseUrl: server.url, apiKey: 'test-key-abcdef', model: 'gemini-2.5-flash' }), tools });
    let result;
    if (streamed) {
      const stream = harness.streamTurn(createTurnInput());
      for await (const _event of stream) {
        // drain
      }
      result = await stream.result;
    } else {
      result = await harness.runTurn(createTurnInput());
    }
    expect(result).toMatchObject({ outcome: 'completed', stopReason: 'answer_finalized', assistantMessage: { text: 'It is noon.' } });
    expect(tools.calls).toHaveLength(3);
    expect(new Set(tools.calls.map((call) => call.id)).size).toBe(3);
    // The second request answers each of the three calls.
    const contents = (server.requests[1]!.body as { contents: { role: string; parts: Record<string, unknown>[] }[] }).contents;
    const responses = contents.flatMap((content) => content.parts.filter((part) => part.functionResponse !== undefined));
    expect(responses).toHaveLength(3);
  });
});
