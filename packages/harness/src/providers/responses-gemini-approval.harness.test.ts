import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import type { HarnessModelAdapter } from '../core/types/model.js';
import { createFakeToolRegistry, createTurnInput } from '../testing/index.js';
import { createFakeGeminiServer, createFakeOpenAIResponsesServer, type FakeModelServer, type FakeServerScript } from '../testing/node/index.js';
import { createGeminiModel } from './gemini/create-gemini-model.js';
import { createOpenAIResponsesModel } from './openai-responses/create-openai-responses-model.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const secret = 'approval-resume-secret-0123456789';
const protocols = [
  {
    name: 'OpenAI Responses',
    start: (replies: FakeServerScript[]) => createFakeOpenAIResponsesServer({ replies }),
    model: (url: string): HarnessModelAdapter => createOpenAIResponsesModel({ baseUrl: url, apiKey: 'test-key-abcdef', model: 'gpt-5-mini', reasoningEffort: 'low' }),
    /** What the replayed step carried: the reasoning item, or nothing. */
    carried: (body: unknown) => ((body as { input: { type: string }[] }).input.some((item) => item.type === 'reasoning') ? 'provider state' : 'none'),
  },
  {
    name: 'Gemini',
    start: (replies: FakeServerScript[]) => createFakeGeminiServer({ replies }),
    model: (url: string): HarnessModelAdapter => createGeminiModel({ baseUrl: url, apiKey: 'test-key-abcdef', model: 'gemini-2.5-flash' }),
    /** What the replayed step carried: the real thought signature, or the documented placeholder. */
    carried: (body: unknown) => {
      const signature = (body as { contents: { parts: { thoughtSignature?: string }[] }[] }).contents[1]!.parts[0]!.thoughtSignature;
      return signature === 'c2lnX2Zha2Vf1' ? 'provider state' : signature === 'skip_thought_signature_validator' ? 'none' : `unexpected ${String(signature)}`;
    },
  },
];

// Ids a server may send that name something every object inherits; they must stay plain text.
describe.each(protocols)('$name: an approval pause and resume', (protocol) => {
  it.each(['__proto__', 'constructor', 'call_ok'])('id %s: waits for approval, then resumes in the same process with the step replayed as the API requires', async (id) => {
    server = await protocol.start([
      { reasoning: 'Deleting needs approval.', toolCalls: [{ id, name: 'delete_repo', arguments: { repo: 'prod' } }] },
      { text: 'Deleted.' },
    ]);
    const tools = createFakeToolRegistry({ delete_repo: { requiresApproval: true, execute: () => 'deleted' } });
    const harness = createHarness({ model: protocol.model(server.url), tools, continuationSecret: secret });
    const paused = await harness.runTurn(createTurnInput());
    expect(paused).toMatchObject({ outcome: 'awaiting_approval', stopReason: 'approval_required' });
    expect(paused.metadata?.approvalRequests).toEqual([expect.objectContaining({ id })]);
    expect(tools.calls).toEqual([]);
    const resumed = await harness.resumeTurn(paused.continuation!, { type: 'approval', decisions: { [id]: 'approved' } });
    expect(resumed).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Deleted.' } });
    expect(tools.calls).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
    expect(protocol.carried(server.requests[1]!.body)).toBe('provider state');
  });

  it('resumes with a fresh adapter (another process): the provider state travels in the continuation and the step replays with it', async () => {
    server = await protocol.start([{ reasoning: 'Needs approval.', toolCalls: [{ name: 'delete_repo', arguments: { repo: 'prod' } }] }, { text: 'Deleted.' }]);
    const tools = createFakeToolRegistry({ delete_repo: { requiresApproval: true, execute: () => 'deleted' } });
    const paused = await createHarness({ model: protocol.model(server.url), tools, continuationSecret: secret }).runTurn(createTurnInput());
    const callId = (paused.metadata?.approvalRequests as { id: string }[])[0]!.id;
    const elsewhere = createHarness({ model: protocol.model(server.url), tools, continuationSecret: secret });
    const resumed = await elsewhere.resumeTurn(paused.continuation!, { type: 'approval', decisions: { [callId]: 'approved' } });
    expect(resumed).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Deleted.' } });
    expect(protocol.carried(server.requests[1]!.body)).toBe('provider state');
  });
});
