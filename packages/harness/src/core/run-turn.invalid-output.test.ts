import { describe, expect, it } from 'vitest';
import {
  createHarness,
  type HarnessInvalidOutputKind,
  type HarnessModelAdapter,
  type HarnessModelConfig,
  type HarnessModelOutput,
  type HarnessResult,
  type HarnessToolCall,
} from '../index.js';
import {
  createFakeToolRegistry,
  createManualClock,
  createScriptedModel,
  createTurnInput,
  memoryTraceSink,
  type ScriptedModelStep,
} from '../testing/index.js';

const call = (id: string, name = 'lookup', input: Record<string, unknown> = { q: id }): HarnessToolCall => ({ id, name, input });
const invalid = (kind: HarnessInvalidOutputKind, extra: Partial<HarnessModelOutput> = {}): HarnessModelOutput =>
  ({ type: 'invalid', kind, reason: `bad: ${kind}`, ...extra }) as HarnessModelOutput;
const answer: HarnessModelOutput = { type: 'final_answer', text: 'Finally.' };

function harnessFor(model: HarnessModelAdapter, extra: Partial<Omit<HarnessModelConfig, 'model'>> = {}) {
  return createHarness({ model, clock: createManualClock(), tools: createFakeToolRegistry({ lookup: () => 'x' }), ...extra });
}

const kinds = (result: HarnessResult) => result.transcript.map((item) => (item.type === 'invalid_output' ? item.kind : item.type));

describe('consecutive invalid outputs', () => {
  it('tolerates two in a row by default', async () => {
    const model = createScriptedModel([invalid('transient'), invalid('empty_response'), answer]);
    const result = await harnessFor(model).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(kinds(result)).toEqual(['transient', 'empty_response', 'assistant_step']);
    expect(result.transcript[0]).toEqual({ type: 'invalid_output', iteration: 1, kind: 'transient', reason: 'bad: transient' });
    expect(model.calls[1]?.transcript).toEqual([result.transcript[0]]);
  });

  it('fails model_invalid_response on the third in a row by default', async () => {
    const model = createScriptedModel([invalid('transient'), invalid('transient'), invalid('missing_message'), answer]);
    const result = await harnessFor(model).runTurn(createTurnInput());
    expect(result).toMatchObject({
      outcome: 'failed',
      stopReason: 'model_invalid_response',
      metadata: {
        error: { code: 'missing_message', message: 'bad: missing_message', source: 'model', retryable: true },
        consecutiveInvalidOutputs: 3,
      },
    });
    expect(result.assistantMessage).toBeUndefined();
    expect(result.continuation).toBeUndefined();
    expect(model.remaining()).toBe(1);
  });

  it.each([0, 1, 3])('tolerates exactly maxConsecutiveInvalidModelOutputs = %i', async (max) => {
    const tolerated = createScriptedModel([...Array.from({ length: max }, () => invalid('transient')), answer]);
    expect((await harnessFor(tolerated, { limits: { maxConsecutiveInvalidModelOutputs: max } }).runTurn(createTurnInput())).outcome).toBe(
      'completed',
    );
    const tooMany = createScriptedModel([...Array.from({ length: max + 1 }, () => invalid('transient')), answer]);
    const result = await harnessFor(tooMany, { limits: { maxConsecutiveInvalidModelOutputs: max } }).runTurn(createTurnInput());
    expect(result.stopReason).toBe('model_invalid_response');
    expect(result.traceSummary.iterationCount).toBe(max + 1);
  });

  it('starts counting again after a usable output', async () => {
    const model = createScriptedModel([
      invalid('transient'),
      invalid('transient'),
      { type: 'tool_request', calls: [call('c1')] },
      invalid('transient'),
      invalid('transient'),
      answer,
    ]);
    const result = await harnessFor(model).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
  });
});

describe('non-retryable invalid outputs', () => {
  it('fails a provider_error at once as provider_error, with its HTTP status and the provider code', async () => {
    const model = createScriptedModel([invalid('provider_error', { httpStatus: 401, code: 'authentication_failed', providerCode: 'invalid_api_key' } as never), answer]);
    const result = await harnessFor(model).runTurn(createTurnInput());
    expect(result).toMatchObject({
      outcome: 'failed',
      stopReason: 'provider_error',
      error: { code: 'authentication_failed', providerCode: 'invalid_api_key', retryable: false, source: 'model' },
      metadata: { httpStatus: 401, error: { code: 'authentication_failed', providerCode: 'invalid_api_key', retryable: false }, consecutiveInvalidOutputs: 1 },
    });
    expect(result.transcript).toEqual([
      { type: 'invalid_output', iteration: 1, kind: 'provider_error', reason: expect.any(String), code: 'authentication_failed', providerCode: 'invalid_api_key' },
    ]);
  });

  it('never asks again after a provider_error, even a retryable one: its adapter already spent the step\'s retries', async () => {
    const model = createScriptedModel([invalid('provider_error', { retryable: true, code: 'rate_limited' } as never), answer]);
    const result = await harnessFor(model).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'provider_error', error: { code: 'rate_limited', retryable: true } });
    expect(result.usage.modelCalls).toBe(1);
  });

  it('fails a model_refused kind at once as model_refused, without an assistant message', async () => {
    const result = await harnessFor(createScriptedModel([invalid('model_refused'), answer])).runTurn(createTurnInput());
    expect(result).toMatchObject({
      outcome: 'failed',
      stopReason: 'model_refused',
      metadata: { error: { code: 'model_refused', retryable: false } },
    });
    expect(result.assistantMessage).toBeUndefined();
  });

  it('lets the adapter override the default with retryable', async () => {
    const retried = await harnessFor(createScriptedModel([invalid('input_too_large', { retryable: true } as never), answer])).runTurn(
      createTurnInput(),
    );
    expect(retried.outcome).toBe('completed');
    const final = await harnessFor(createScriptedModel([invalid('transient', { retryable: false } as never), answer])).runTurn(
      createTurnInput(),
    );
    expect(final).toMatchObject({ stopReason: 'model_invalid_response', metadata: { error: { retryable: false } } });
  });
});

describe('malformed adapter outputs become schema_mismatch', () => {
  const malformed: [string, unknown][] = [
    ['null', null],
    ['undefined', undefined],
    ['a string', 'Sunny in Oslo'],
    ['an empty object', {}],
    ['an unknown type', { type: 'answer', text: 'x' }],
    ['a final answer without text', { type: 'final_answer' }],
    ['tool calls that are not an array', { type: 'tool_request', calls: { id: 'c1' } }],
    ['a call without an id', { type: 'tool_request', calls: [{ name: 'lookup', input: {} }] }],
    ['a call whose input is not an object', { type: 'tool_request', calls: [{ id: 'c1', name: 'lookup', input: 'Oslo' }] }],
    ['an empty clarification', { type: 'clarification', question: '' }],
    ['a blank clarification', { type: 'clarification', question: '   ' }],
    ['an approval request without an id', { type: 'approval_request', request: { kind: 'k', summary: 's' } }],
    ['an invalid output of unknown kind', { type: 'invalid', kind: 'oops', reason: 'x' }],
    ['negative usage', { type: 'final_answer', text: 'x', usage: { inputTokens: -1 } }],
  ];

  it.each(malformed)('%s', async (_name, value) => {
    const trace = memoryTraceSink();
    // A raw adapter: createScriptedModel cannot return null or a string from a step.
    let step = 0;
    const model: HarnessModelAdapter = { nextStep: async () => (++step === 1 ? (value as HarnessModelOutput) : answer) };
    const result = await harnessFor(model, { trace }).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(result.transcript[0]).toMatchObject({
      type: 'invalid_output',
      iteration: 1,
      kind: 'schema_mismatch',
      reason: expect.stringContaining('unusable output'),
    });
    expect(trace.events[2]).toMatchObject({ type: 'model_step_finished', outputType: 'invalid', invalidKind: 'schema_mismatch' });
    expect(result.usage.modelCalls).toBe(2);
  });

  it('fails after too many malformed outputs in a row', async () => {
    const model = createScriptedModel(() => ({ nonsense: true }) as unknown as HarnessModelOutput);
    const result = await harnessFor(model).runTurn(createTurnInput());
    expect(result).toMatchObject({ stopReason: 'model_invalid_response', metadata: { error: { code: 'schema_mismatch' } } });
  });
});

describe('unusable tool requests become schema_mismatch', () => {
  it('refuses a tool request without calls', async () => {
    const tools = createFakeToolRegistry({ lookup: () => 'x' });
    const result = await harnessFor(createScriptedModel([{ type: 'tool_request', calls: [] }, answer]), { tools }).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(result.transcript[0]).toMatchObject({ kind: 'schema_mismatch', reason: expect.stringContaining('no calls') });
    expect(tools.calls).toHaveLength(0);
  });

  it('re-keys duplicate call ids within one step and runs every call', async () => {
    const tools = createFakeToolRegistry({ lookup: () => 'x' });
    const steps: ScriptedModelStep[] = [{ type: 'tool_request', calls: [call('c1'), call('c1', 'lookup', { q: 2 })] }, answer];
    const result = await harnessFor(createScriptedModel(steps), { tools }).runTurn(createTurnInput());
    expect(kinds(result)).toEqual(['assistant_step', 'tool_result', 'tool_result', 'assistant_step']);
    const ids = tools.calls.map((executed) => executed.id);
    expect(ids[0]).toBe('c1');
    expect(ids[1]).toMatch(/^call_[0-9a-f]{24}$/);
  });

  it('re-keys a call id already used earlier in the turn', async () => {
    const tools = createFakeToolRegistry({ lookup: () => 'x' });
    const steps: ScriptedModelStep[] = [
      { type: 'tool_request', calls: [call('c1')] },
      { type: 'tool_request', calls: [call('c1', 'lookup', { q: 'other' })] },
      answer,
    ];
    const result = await harnessFor(createScriptedModel(steps), { tools }).runTurn(createTurnInput());
    expect(kinds(result)).toEqual(['assistant_step', 'tool_result', 'assistant_step', 'tool_result', 'assistant_step']);
    expect(tools.calls).toHaveLength(2);
    expect(tools.calls[1]!.id).not.toBe('c1');
  });

  it('counts unusable tool requests toward the consecutive limit', async () => {
    const model = createScriptedModel(() => ({ type: 'tool_request', calls: [] }));
    const result = await harnessFor(model, { limits: { maxConsecutiveInvalidModelOutputs: 1 } }).runTurn(createTurnInput());
    expect(result).toMatchObject({ stopReason: 'model_invalid_response', metadata: { consecutiveInvalidOutputs: 2 } });
  });
});
