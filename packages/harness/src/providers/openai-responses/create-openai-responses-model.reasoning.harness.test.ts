import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import { createFakeToolRegistry, createTurnInput, memoryTraceSink } from '../../testing/index.js';
import { createFakeOpenAIResponsesServer, type FakeModelServer, type FakeServerScript } from '../../testing/node/index.js';
import { createOpenAIResponsesModel } from './create-openai-responses-model.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const secret = 'reasoning-resume-secret-0123456789';
type Body = { include?: unknown; store?: unknown; input: { type: string; id?: string; encrypted_content?: string }[] };
const body = (index: number) => server!.requests[index]!.body as Body;
const reasoningSent = (index: number) => body(index).input.filter((item) => item.type === 'reasoning');

async function start(replies: FakeServerScript[]) {
  server = await createFakeOpenAIResponsesServer({ replies });
  return server;
}

// With default options (no reasoningEffort, no includeEncryptedReasoning) a reasoning model's
// reasoning must reach the next step. The fake server, like the API, refuses a reasoning item it
// cannot find: with `store: false` one sent without the encrypted content it issued (which it only
// issues when `include` asked for it), with `store: true` one it never issued.
describe.each([
  { store: false, carried: { id: 'rs_fake_1', encrypted_content: 'gAAAAB_fake_1' } },
  { store: true, carried: { id: 'rs_fake_1' } },
])('Responses reasoning across tool steps with default options (store: $store)', ({ store, carried }) => {
  const model = (url: string) => createOpenAIResponsesModel({ baseUrl: url, apiKey: 'sk-test-abcdef', model: 'gpt-5-mini', ...(store ? { store } : {}) });

  it('sends the reasoning of step 1 with step 2', async () => {
    const server = await start([
      { reasoning: 'The weather tool answers this.', toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }] },
      { text: 'Sunny in Oslo.' },
    ]);
    const tools = createFakeToolRegistry({ lookup_weather: ({ city }) => `Sunny in ${String(city)}` });
    const result = await createHarness({ model: model(server.url), tools }).runTurn(createTurnInput({ text: 'Weather in Oslo?' }));
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Sunny in Oslo.' } });
    expect(body(0).include).toEqual(store ? undefined : ['reasoning.encrypted_content']);
    expect(reasoningSent(1)).toEqual([expect.objectContaining(carried)]);
    if (store) expect(reasoningSent(1)[0]).not.toHaveProperty('encrypted_content');
    expect(server.requests).toHaveLength(2);
  });

  it('sends it after a resume in another process (an approval pause, a fresh adapter)', async () => {
    const server = await start([
      { reasoning: 'Deleting needs approval first.', toolCalls: [{ name: 'delete_repo', arguments: { repo: 'prod' } }] },
      { text: 'Deleted.' },
    ]);
    const tools = createFakeToolRegistry({ delete_repo: { requiresApproval: true, execute: () => 'deleted' } });
    const paused = await createHarness({ model: model(server.url), tools, continuationSecret: secret }).runTurn(createTurnInput());
    expect(paused).toMatchObject({ outcome: 'awaiting_approval' });
    const callId = (paused.metadata?.approvalRequests as { id: string }[])[0]!.id;
    const elsewhere = createHarness({ model: model(server.url), tools, continuationSecret: secret });
    const resumed = await elsewhere.resumeTurn(paused.continuation!, { type: 'approval', decisions: { [callId]: 'approved' } });
    expect(resumed).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Deleted.' } });
    expect(reasoningSent(1)).toEqual([expect.objectContaining(carried)]);
  });
});

describe('Responses encrypted reasoning with a model that does not reason', () => {
  // The API's answer to `include: ['reasoning.encrypted_content']` for gpt-4o / gpt-4.1 (as recorded in public bug reports).
  const refusal = { error: { message: 'Encrypted content is not supported with this model.', type: 'invalid_request_error', param: 'include', code: null } };

  it('sends a refused step once more without include, notes it, and stops asking', async () => {
    const server = await start([
      { type: 'http', status: 400, body: refusal },
      { toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }] },
      { text: 'Sunny in Oslo.', deltaSize: 5 },
    ]);
    const trace = memoryTraceSink();
    const tools = createFakeToolRegistry({ lookup_weather: ({ city }) => `Sunny in ${String(city)}` });
    const model = createOpenAIResponsesModel({ baseUrl: server.url, apiKey: 'sk-test-abcdef', model: 'my-azure-deployment' });
    const stream = createHarness({ model, tools, trace }).streamTurn(createTurnInput());
    for await (const event of stream) void event;
    expect(await stream.result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Sunny in Oslo.' } });
    expect(server.requests.map((request) => (request.body as Body).include)).toEqual([['reasoning.encrypted_content'], undefined, undefined]);
    const finished = trace.events.filter((event) => event.type === 'model_step_finished');
    expect(finished[0]).toMatchObject({ outputType: 'tool_request', notes: [expect.stringContaining("refused include: ['reasoning.encrypted_content']")] });
  });

  it('does not take another 400 about encrypted content for that refusal: the step fails once, and the adapter keeps asking', async () => {
    const unverified = { error: { message: "The encrypted content for item rs_1 could not be verified.", type: 'invalid_request_error', param: null, code: null } };
    const server = await start([{ type: 'http', status: 400, body: unverified }, { text: 'ok' }]);
    const model = createOpenAIResponsesModel({ baseUrl: server.url, apiKey: 'sk-test-abcdef', model: 'gpt-5-mini' });
    expect(await createHarness({ model }).runTurn(createTurnInput())).toMatchObject({ outcome: 'failed' });
    expect(await createHarness({ model }).runTurn(createTurnInput())).toMatchObject({ outcome: 'completed' });
    expect(server.requests.map((request) => (request.body as Body).include)).toEqual([['reasoning.encrypted_content'], ['reasoning.encrypted_content']]);
  });

  it('does not ask for it with a model known not to reason, nor when the option is off, and never falls back when it was asked for explicitly', async () => {
    const server = await start([{ text: 'a' }, { text: 'b' }, { type: 'http', status: 400, body: refusal }]);
    const options = { baseUrl: server.url, apiKey: 'sk-test-abcdef' };
    const input = createTurnInput();
    await createHarness({ model: createOpenAIResponsesModel({ ...options, model: 'gpt-4o-mini' }) }).runTurn(input);
    await createHarness({ model: createOpenAIResponsesModel({ ...options, model: 'gpt-5-mini', includeEncryptedReasoning: false }) }).runTurn(input);
    const explicit = await createHarness({ model: createOpenAIResponsesModel({ ...options, model: 'gpt-4o', includeEncryptedReasoning: true }) }).runTurn(input);
    expect(explicit).toMatchObject({ outcome: 'failed', metadata: { error: { retryable: false } } });
    expect(server.requests.map((request) => (request.body as Body).include)).toEqual([undefined, undefined, ['reasoning.encrypted_content']]);
  });
});
