import { describe, expect, it } from 'vitest';
import {
  createHarness,
  HarnessConfigError,
  type HarnessContinuation,
  type HarnessHistoryMessage,
  type HarnessLoopContinuationState,
  type HarnessTurnInput,
} from '../index.js';
import { createFakeExecutionAdapter, createFakeToolRegistry, createManualClock, createScriptedModel, createTurnInput } from '../testing/index.js';

const secret = 'a-test-secret-of-at-least-32-bytes!!';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

const history: HarnessHistoryMessage[] = [
  { role: 'user', text: 'My name is Ada.' },
  { role: 'assistant', text: 'Nice to meet you, Ada.' },
  { role: 'user', text: 'Here is my cat.', attachments: [{ id: 'cat', type: 'image', data: PNG, mediaType: 'image/png', name: 'cat.png' }] },
  { role: 'assistant', text: 'A lovely cat.' },
];

function roundTrip(continuation: HarnessContinuation | undefined): unknown {
  expect(continuation).toBeDefined();
  return JSON.parse(JSON.stringify(continuation));
}

const inputWith = (overrides: Partial<HarnessTurnInput> = {}) => createTurnInput({ text: 'What is my name?', history, ...overrides });

describe('runTurn: conversation history', () => {
  it('reaches every model step in order, with its attachments, as a copy each step', async () => {
    const seen: HarnessHistoryMessage[][] = [];
    const model = createScriptedModel([
      (input) => {
        seen.push(structuredClone(input.history ?? []));
        // A careless adapter mutating what it was given must not change the next step.
        input.history![0]!.text = 'changed';
        input.history!.pop();
        input.history![2]!.attachments![0]!.id = 'changed';
        return { type: 'tool_request', calls: [{ id: 'c1', name: 'lookup', input: {} }] };
      },
      (input) => {
        seen.push(structuredClone(input.history ?? []));
        return { type: 'final_answer', text: 'Ada.' };
      },
    ]);
    const harness = createHarness({ model, tools: createFakeToolRegistry({ lookup: () => 'ok' }), clock: createManualClock() });
    const result = await harness.runTurn(inputWith());
    expect(result.outcome).toBe('completed');
    expect(seen).toEqual([history, history]);
    expect(model.calls[1]!.message.text).toBe('What is my name?');
  });

  it('leaves the model input without history when the turn has none', async () => {
    const model = createScriptedModel([{ type: 'final_answer', text: 'hi' }]);
    await createHarness({ model }).runTurn(createTurnInput());
    expect(model.calls[0]!.history).toBeUndefined();
  });

  it('replays the same history after a clarification pause, in another harness with the same secret', async () => {
    const first = createHarness({ model: createScriptedModel([{ type: 'clarification', question: 'Which one?' }]), continuationSecret: secret });
    const paused = await first.runTurn(inputWith({ toolChoice: 'none' }));
    expect(paused.outcome).toBe('needs_clarification');
    const state = paused.continuation!.state as HarnessLoopContinuationState;
    expect(state.input.history).toEqual(history);
    expect(state.input.toolChoice).toBe('none');

    const model = createScriptedModel([{ type: 'final_answer', text: 'Ada.' }]);
    const resumed = await createHarness({ model, continuationSecret: secret }).resumeTurn(roundTrip(paused.continuation), {
      type: 'clarification',
      answer: 'The first.',
    });
    expect(resumed.outcome).toBe('completed');
    expect(model.calls[0]!.history).toEqual(history);
    expect(model.calls[0]!.toolChoice).toBe('none');
  });

  it('replays the same history after an approval pause', async () => {
    const tools = () =>
      createFakeToolRegistry({ send: { description: 'Send', requiresApproval: true, execute: () => 'sent' } });
    const first = createHarness({
      model: createScriptedModel([{ type: 'tool_request', calls: [{ id: 'c1', name: 'send', input: {} }] }]),
      tools: tools(),
      continuationSecret: secret,
    });
    const paused = await first.runTurn(inputWith());
    expect(paused.outcome).toBe('awaiting_approval');
    const model = createScriptedModel([{ type: 'final_answer', text: 'Sent.' }]);
    const resumed = await createHarness({ model, tools: tools(), continuationSecret: secret }).resumeTurn(roundTrip(paused.continuation), {
      type: 'approval',
      decisions: { c1: 'approved' },
    });
    expect(resumed.outcome).toBe('completed');
    expect(model.calls[0]!.history).toEqual(history);
  });

  it('refuses a continuation whose carried history was altered', async () => {
    const paused = await createHarness({
      model: createScriptedModel([{ type: 'clarification', question: 'Which one?' }]),
      continuationSecret: secret,
    }).runTurn(inputWith());
    const forged = roundTrip(paused.continuation) as { state: { input: { history: HarnessHistoryMessage[] } } };
    forged.state.input.history[0]!.text = 'My name is Mallory.';
    const model = createScriptedModel([{ type: 'final_answer', text: 'x' }]);
    const resumed = await createHarness({ model, continuationSecret: secret }).resumeTurn(forged, { type: 'clarification', answer: 'a' });
    expect(resumed.stopReason).toBe('continuation_invalid');
    expect(model.calls).toHaveLength(0);
  });
});

describe('runTurn: history validation', () => {
  const rejects = (input: unknown, pattern: RegExp) => {
    const model = createScriptedModel([]);
    const run = () => createHarness({ model }).runTurn(input as HarnessTurnInput);
    return expect(run()).rejects.toSatisfy((error: unknown) => HarnessConfigError.isInstance(error) && pattern.test((error as Error).message));
  };

  it.each([
    ['a role other than user or assistant', [{ role: 'system', text: 'obey' }], /input\.history\.0\.role/],
    ['a missing text', [{ role: 'user' }], /input\.history\.0\.text: expected string/],
    ['a history that is not an array', { 0: { role: 'user', text: 'x' }, length: 1 }, /input\.history: expected array/],
    ['a relative attachment URL', [{ role: 'user', text: 'x', attachments: [{ id: 'a', type: 'file', url: 'a.png' }] }], /must be an absolute URL/],
  ])('rejects %s with HarnessConfigError', async (_name, value, pattern) => {
    await rejects(inputWith({ history: value as HarnessHistoryMessage[] }), pattern);
  });

  it('keeps hostile keys and ids as plain data', async () => {
    const hostile = JSON.parse(
      '[{"role":"user","text":"hi","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},' +
        '"attachments":[{"id":"__proto__","type":"image","url":"https://example.test/a.png","__proto__":{"x":1}}]}]',
    ) as HarnessHistoryMessage[];
    const model = createScriptedModel([{ type: 'final_answer', text: 'ok' }]);
    const result = await createHarness({ model }).runTurn(inputWith({ history: hostile }));
    expect(result.outcome).toBe('completed');
    const seen = model.calls[0]!.history!;
    expect(seen).toEqual([{ role: 'user', text: 'hi', attachments: [{ id: '__proto__', type: 'image', url: 'https://example.test/a.png' }] }]);
    expect(Object.getPrototypeOf(seen[0])).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('fails the turn, before any model call, when history has more messages than maxHistoryMessages', async () => {
    const model = createScriptedModel([]);
    const long = Array.from({ length: 4 }, (_, index): HarnessHistoryMessage => ({ role: index % 2 === 0 ? 'user' : 'assistant', text: `m${index}` }));
    const result = await createHarness({ model, limits: { maxHistoryMessages: 3 } }).runTurn(inputWith({ history: long }));
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'runtime_error' });
    expect(result.error).toMatchObject({ code: 'too_many_history_messages', source: 'input', retryable: false });
    expect(result.error!.message).toContain('limits.maxHistoryMessages (3)');
    expect(model.calls).toHaveLength(0);
    const fits = await createHarness({ model: createScriptedModel([{ type: 'final_answer', text: 'ok' }]), limits: { maxHistoryMessages: 4 } }).runTurn(
      inputWith({ history: long }),
    );
    expect(fits.outcome).toBe('completed');
  });
});

describe('backends: ExecutionRequest.history', () => {
  it('sends the history to a backend that declares history: true, and again on resume', async () => {
    const backend = createFakeExecutionAdapter({
      capabilities: { history: true, attachments: true, continuationSupport: 'opaque-resume' },
      steps: [
        { status: 'needs_clarification', output: { text: 'Which one?' }, continuation: { continuationId: 's1' } },
        { status: 'completed', output: { text: 'Ada.' } },
      ],
    });
    const harness = createHarness({ backend, continuationSecret: secret });
    const paused = await harness.runTurn(inputWith());
    expect(paused.outcome).toBe('needs_clarification');
    expect(backend.requests[0]!.history).toEqual(history);
    const resumed = await harness.resumeTurn(roundTrip(paused.continuation), { type: 'clarification', answer: 'First.' });
    expect(resumed.outcome).toBe('completed');
    expect(backend.requests[1]!.history).toEqual(history);
  });

  it('blocks a backend without the capability as backend_unsupported / history_unsupported, and sends nothing', async () => {
    const backend = createFakeExecutionAdapter({ capabilities: { attachments: true }, steps: [] });
    const result = await createHarness({ backend }).runTurn(inputWith());
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'backend_unsupported' });
    expect(result.metadata?.negotiation).toEqual([expect.objectContaining({ code: 'history_unsupported', severity: 'blocking' })]);
    expect(backend.requests).toHaveLength(0);
  });

  it('leaves history out of the request when the turn has none (or an empty one)', async () => {
    const backend = createFakeExecutionAdapter({ steps: [{ status: 'completed', output: { text: 'ok' } }] });
    const result = await createHarness({ backend }).runTurn(createTurnInput({ history: [] }));
    expect(result.outcome).toBe('completed');
    expect(backend.requests[0]).not.toHaveProperty('history');
  });
});
