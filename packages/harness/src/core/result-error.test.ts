import { afterEach, describe, expect, it } from 'vitest';
import {
  createHarness,
  createOpenAICompatibleModel,
  stopReasonToUserMessage,
  type HarnessResult,
  type HarnessTurnInput,
} from '../index.js';
import { createFakeExecutionAdapter, createFakeToolRegistry, createScriptedModel, createTurnInput } from '../testing/index.js';
import { createFakeOpenAICompatibleServer, type FakeModelServer } from '../testing/node/index.js';

const input: HarnessTurnInput = createTurnInput();
let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function expectFailedWithError(result: HarnessResult, error: Partial<NonNullable<HarnessResult['error']>>): void {
  expect(result.outcome).toBe('failed');
  expect(result.error).toMatchObject(error);
  expect(typeof result.error?.message).toBe('string');
  expect(result.error?.message).not.toBe('');
  expect(typeof result.error?.retryable).toBe('boolean');
}

describe('result.error on failed results', () => {
  it('names a missing API key as missing_api_key, not retryable, and the user message does not invite a retry', async () => {
    server = await createFakeOpenAICompatibleServer({ replies: [{ text: 'never' }] });
    const model = createOpenAICompatibleModel({ baseUrl: server.url, model: 'm', apiKey: { env: 'AA_TEST_KEY_THAT_IS_NOT_SET' }, env: {} });
    const result = await createHarness({ model }).runTurn(input);
    expect(result.stopReason).toBe('provider_error');
    expectFailedWithError(result, { code: 'missing_api_key', retryable: false, source: 'model' });
    expect(result.error?.message).toContain('AA_TEST_KEY_THAT_IS_NOT_SET');
    expect(server.requests).toHaveLength(0);
    const message = stopReasonToUserMessage(result);
    expect(message).toContain('not set up correctly');
    expect(message).not.toMatch(/try again\./i);
  });

  it.each([
    [401, 'authentication_failed'],
    [403, 'permission_denied'],
    [404, 'not_found'],
    [400, 'bad_request'],
  ])('names an HTTP %i from the provider as %s', async (status, code) => {
    server = await createFakeOpenAICompatibleServer({ replies: [{ type: 'error', status, message: 'no' }] });
    const model = createOpenAICompatibleModel({ baseUrl: server.url, model: 'm', apiKey: 'sk-test-key-1234567890' });
    const result = await createHarness({ model }).runTurn(input);
    expectFailedWithError(result, { code, retryable: false, source: 'model' });
    expect(stopReasonToUserMessage(result)).toContain('not set up correctly');
  });

  it('names rate limiting that outlasted the retries as rate_limited and suggests trying later', async () => {
    server = await createFakeOpenAICompatibleServer({ replies: [{ type: 'error', status: 429, message: 'slow', retryAfter: 0 }] });
    const model = createOpenAICompatibleModel({ baseUrl: server.url, model: 'm', apiKey: 'sk-test-key-1234567890', retry: { maxRetries: 0 } });
    const result = await createHarness({ model, limits: { maxConsecutiveInvalidModelOutputs: 0 } }).runTurn(input);
    expectFailedWithError(result, { code: 'rate_limited', retryable: true, source: 'model' });
    expect(stopReasonToUserMessage(result)).toMatch(/busy/);
  });

  it('carries a refusal, an unknown tool, a fatal tool error and a thrown fault', async () => {
    const refused = await createHarness({ model: createScriptedModel([{ type: 'refusal', reason: 'Not allowed.' }]) }).runTurn(input);
    expectFailedWithError(refused, { code: 'model_refused', message: 'Not allowed.', source: 'model', retryable: false });

    const unknownCall = { type: 'tool_request' as const, calls: [{ id: 'c1', name: 'nope', input: {} }] };
    const unknown = await createHarness({ model: createScriptedModel([unknownCall, { ...unknownCall, calls: [{ id: 'c2', name: 'nope', input: {} }] }]) }).runTurn(input);
    expectFailedWithError(unknown, { code: 'tool_unavailable', source: 'model' });

    const tools = createFakeToolRegistry({
      boom: () => ({ status: 'error', error: { code: 'disk_full', message: 'No space.', retryable: false } }),
    });
    const fatal = await createHarness({
      model: createScriptedModel([{ type: 'tool_request', calls: [{ id: 'c1', name: 'boom', input: {} }] }]),
      tools,
    }).runTurn(input);
    expectFailedWithError(fatal, { code: 'disk_full', message: 'No space.', source: 'tool:boom', retryable: false });

    const hookFault = await createHarness({
      model: {
        nextStep: () => {
          throw new Error('hook broke');
        },
      },
    }).runTurn(input);
    expectFailedWithError(hookFault, { code: 'runtime_error', message: 'hook broke' });
  });

  it('carries a backend failure with the backend as source, and an invalid continuation', async () => {
    const backend = createFakeExecutionAdapter({
      steps: [{ status: 'failed', error: { code: 'backend_execution_error', message: 'CLI crashed.', retryable: false } }],
    });
    const failed = await createHarness({ backend }).runTurn(input);
    expectFailedWithError(failed, { code: 'backend_execution_error', message: 'CLI crashed.', source: `backend:${backend.backendId}` });

    const harness = createHarness({ model: createScriptedModel([]), continuationSecret: 'a-secret-of-sixteen-plus' });
    const resumed = await harness.resumeTurn({ not: 'a continuation' } as never, { type: 'deferred' });
    expectFailedWithError(resumed, { code: 'continuation_invalid', source: 'continuation', retryable: false });
  });

  it('is absent on every outcome but failed', async () => {
    const completed = await createHarness({ model: createScriptedModel([{ type: 'final_answer', text: 'hi' }]) }).runTurn(input);
    expect(completed.outcome).toBe('completed');
    expect(completed.error).toBeUndefined();
    const clarify = await createHarness({ model: createScriptedModel([{ type: 'clarification', question: 'Which?' }]) }).runTurn(input);
    expect(clarify.outcome).toBe('needs_clarification');
    expect(clarify.error).toBeUndefined();
  });
});
