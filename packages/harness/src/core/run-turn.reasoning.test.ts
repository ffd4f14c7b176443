import { describe, expect, it } from 'vitest';
import {
  createHarness,
  type HarnessContinuation,
  type HarnessLoopContinuationState,
  type HarnessModelAdapter,
  type HarnessModelOutput,
  type HarnessModelStreamPart,
  type HarnessReasoningPart,
  type HarnessStreamEvent,
  type HarnessTranscriptItem,
} from '../index.js';
import { createFakeToolRegistry, createScriptedModel, createTurnInput } from '../testing/index.js';

const secret = 'a-test-secret-of-at-least-32-bytes!!';

const thinking = (text: string, signature = `sig-${text.length}`): HarnessReasoningPart => ({ provider: 'anthropic', text, signature });
const redacted: HarnessReasoningPart = { provider: 'anthropic', data: 'opaque-redacted-bytes' };
const responsesItem: HarnessReasoningPart = { provider: 'openai-responses', id: 'rs_1', text: 'summary', data: 'encrypted==' };

const tools = () =>
  createFakeToolRegistry({
    lookup: () => 'x'.repeat(5_000),
    send: { description: 'Send', requiresApproval: true, execute: () => 'sent' },
  });

const steps = (transcript: HarnessTranscriptItem[]) =>
  transcript.flatMap((item) => (item.type === 'assistant_step' ? [{ outputType: item.outputType, reasoning: item.reasoning }] : []));

function roundTrip(continuation: HarnessContinuation | undefined): unknown {
  expect(continuation).toBeDefined();
  return JSON.parse(JSON.stringify(continuation));
}

describe('reasoning in the transcript', () => {
  it('copies every output’s reasoning onto its assistant_step, in order, and shows it to the next step', async () => {
    const model = createScriptedModel([
      { type: 'tool_request', calls: [{ id: 'c1', name: 'lookup', input: {} }], reasoning: [thinking('I should look it up'), redacted] },
      { type: 'final_answer', text: 'Done.', reasoning: [responsesItem] },
    ]);
    const result = await createHarness({ model, tools: tools() }).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(steps(result.transcript)).toEqual([
      { outputType: 'tool_request', reasoning: [thinking('I should look it up'), redacted] },
      { outputType: 'final_answer', reasoning: [responsesItem] },
    ]);
    expect(steps(model.calls[1]!.transcript)).toEqual([{ outputType: 'tool_request', reasoning: [thinking('I should look it up'), redacted] }]);
  });

  it('keeps it on clarification, approval and refusal steps, and leaves steps without reasoning unchanged', async () => {
    for (const output of [
      { type: 'clarification', question: 'Which?', reasoning: [thinking('unclear')] },
      { type: 'approval_request', request: { id: 'r1', kind: 'custom', summary: 'May I?' }, reasoning: [thinking('ask first')] },
      { type: 'refusal', reason: 'No.', reasoning: [thinking('not allowed')] },
    ] satisfies HarnessModelOutput[]) {
      const result = await createHarness({ model: createScriptedModel([output]) }).runTurn(createTurnInput());
      expect(steps(result.transcript)).toEqual([{ outputType: output.type, reasoning: output.reasoning }]);
    }
    const plain = await createHarness({ model: createScriptedModel([{ type: 'final_answer', text: 'ok', reasoning: [] }]) }).runTurn(createTurnInput());
    expect(plain.transcript[0]).toEqual({ type: 'assistant_step', iteration: 1, outputType: 'final_answer', text: 'ok' });
  });

  it.each([
    ['a part without provider', [{ text: 'x' }]],
    ['a text over 1 MiB', [{ provider: 'anthropic', text: 'x'.repeat(1_048_577) }]],
    ['more than 1024 parts', Array.from({ length: 1_025 }, () => ({ provider: 'anthropic', text: 'x' }))],
    ['a signature that is not a string', [{ provider: 'anthropic', signature: 42 }]],
  ])('treats an output with %s as an invalid schema_mismatch output', async (_name, reasoning) => {
    const model = createScriptedModel([
      { type: 'final_answer', text: 'bad', reasoning } as unknown as HarnessModelOutput,
      { type: 'final_answer', text: 'good' },
    ]);
    const result = await createHarness({ model }).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(result.transcript[0]).toMatchObject({ type: 'invalid_output', kind: 'schema_mismatch' });
    expect(result.transcript[0]).not.toHaveProperty('reasoning');
  });
});

describe('reasoning in continuations', () => {
  it('is carried, signatures and opaque data intact, and replayed to the model after resume', async () => {
    const reasoning = [thinking('Sending needs approval.', 'EqQBCkYIBxgCKkD'), redacted, responsesItem];
    const first = createHarness({
      model: createScriptedModel([{ type: 'tool_request', calls: [{ id: 'c1', name: 'send', input: {} }], reasoning }]),
      tools: tools(),
      continuationSecret: secret,
    });
    const paused = await first.runTurn(createTurnInput());
    expect(paused.outcome).toBe('awaiting_approval');
    const model = createScriptedModel([{ type: 'final_answer', text: 'Sent.' }]);
    const resumed = await createHarness({ model, tools: tools(), continuationSecret: secret }).resumeTurn(roundTrip(paused.continuation), {
      type: 'approval',
      decisions: { c1: 'approved' },
    });
    expect(resumed.outcome).toBe('completed');
    expect(steps(model.calls[0]!.transcript)).toEqual([{ outputType: 'tool_request', reasoning }]);
  });

  it('refuses a continuation whose reasoning signature was altered', async () => {
    const paused = await createHarness({
      model: createScriptedModel([{ type: 'clarification', question: 'Which?', reasoning: [thinking('hmm', 'real-signature')] }]),
      continuationSecret: secret,
    }).runTurn(createTurnInput());
    const forged = roundTrip(paused.continuation) as { state: { transcript: { reasoning?: HarnessReasoningPart[] }[] } };
    forged.state.transcript[0]!.reasoning![0]!.signature = 'forged-signature';
    const model = createScriptedModel([]);
    const resumed = await createHarness({ model, continuationSecret: secret }).resumeTurn(forged, { type: 'clarification', answer: 'a' });
    expect(resumed.stopReason).toBe('continuation_invalid');
    expect(model.calls).toHaveLength(0);
  });

  /** Pauses lookup → send with the given reasoning per step; returns the continuation state. */
  async function pauseWith(first: HarnessReasoningPart[] | undefined, second: HarnessReasoningPart[] | undefined, maxContinuationBytes?: number) {
    const model = createScriptedModel([
      { type: 'tool_request', calls: [{ id: 'c1', name: 'lookup', input: {} }], ...(first === undefined ? {} : { reasoning: first }) },
      { type: 'tool_request', calls: [{ id: 'c2', name: 'send', input: {} }], ...(second === undefined ? {} : { reasoning: second }) },
    ]);
    const harness = createHarness({ model, tools: tools(), ...(maxContinuationBytes === undefined ? {} : { limits: { maxContinuationBytes } }) });
    const result = await harness.runTurn(createTurnInput());
    return { result, size: JSON.stringify(result.continuation ?? null).length };
  }
  const stateOf = (result: { continuation?: HarnessContinuation }) => result.continuation!.state as HarnessLoopContinuationState;
  const toolOutput = (state: HarnessLoopContinuationState) =>
    state.transcript.flatMap((item) => (item.type === 'tool_result' ? [item.result.output] : []))[0];

  it('drops older steps’ reasoning first when the continuation is too big, keeping the last step’s and every text', async () => {
    const big = [thinking('a'.repeat(3_000))];
    const last = [thinking('b'.repeat(200))];
    const { size } = await pauseWith(big, last);
    const { result } = await pauseWith(big, last, size - 1_000);
    expect(result.outcome).toBe('awaiting_approval');
    const state = stateOf(result);
    expect(steps(state.transcript)).toEqual([
      { outputType: 'tool_request', reasoning: undefined },
      { outputType: 'tool_request', reasoning: last },
    ]);
    expect(toolOutput(state)).toBe('x'.repeat(5_000));
    expect(JSON.stringify(result.continuation).length).toBeLessThanOrEqual(size - 1_000);
  });

  it('then drops the last step’s reasoning too, before any text is shortened', async () => {
    const last = [thinking('b'.repeat(3_000))];
    const { size } = await pauseWith(undefined, last);
    const { result } = await pauseWith(undefined, last, size - 1_000);
    expect(result.outcome).toBe('awaiting_approval');
    const state = stateOf(result);
    expect(steps(state.transcript).map((step) => step.reasoning)).toEqual([undefined, undefined]);
    expect(toolOutput(state)).toBe('x'.repeat(5_000));
  });

  it('a resumed provider gets the steps without the dropped reasoning', async () => {
    const big = [thinking('a'.repeat(3_000))];
    const { size } = await pauseWith(big, undefined);
    const { result } = await pauseWith(big, undefined, size - 1_000);
    const model = createScriptedModel([{ type: 'final_answer', text: 'ok' }]);
    const resumed = await createHarness({ model, tools: tools(), limits: { maxContinuationBytes: size } }).resumeTurn(result.continuation, {
      type: 'approval',
      decisions: { c2: 'approved' },
    });
    expect(resumed.outcome).toBe('completed');
    expect(steps(model.calls[0]!.transcript).map((step) => step.reasoning)).toEqual([undefined, undefined]);
  });
});

describe('reasoning_delta stream events', () => {
  async function collect(stream: AsyncIterable<HarnessStreamEvent>): Promise<HarnessStreamEvent[]> {
    const events: HarnessStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    return events;
  }
  const deltas = (events: HarnessStreamEvent[]) =>
    events.flatMap((event) => (event.type === 'text_delta' || event.type === 'reasoning_delta' ? [`${event.type} ${event.iteration} ${event.text}`] : []));

  it('streams reasoning_delta parts as their own events, never mixed into text_delta', async () => {
    const parts: HarnessModelStreamPart[][] = [
      [
        { type: 'reasoning_delta', text: 'Let me ' },
        { type: 'reasoning_delta', text: 'check.' },
        { type: 'output', output: { type: 'tool_request', calls: [{ id: 'c1', name: 'lookup', input: {} }], reasoning: [thinking('Let me check.')] } },
      ],
      [
        { type: 'reasoning_delta', text: 'Found it.' },
        { type: 'text_delta', text: 'The ' },
        { type: 'reasoning_delta', text: '' },
        { type: 'text_delta', text: 'answer.' },
        { type: 'output', output: { type: 'final_answer', text: 'The answer.', reasoning: [thinking('Found it.')] } },
      ],
    ];
    let call = 0;
    const model: HarnessModelAdapter = {
      nextStep: () => Promise.reject(new Error('streamTurn uses streamStep')),
      async *streamStep() {
        yield* parts[call++]!;
      },
    };
    const stream = createHarness({ model, tools: tools() }).streamTurn(createTurnInput());
    const events = await collect(stream);
    expect(deltas(events)).toEqual([
      'reasoning_delta 1 Let me ',
      'reasoning_delta 1 check.',
      'reasoning_delta 2 Found it.',
      'text_delta 2 The ',
      'text_delta 2 answer.',
    ]);
    const result = await stream.result;
    expect(result.assistantMessage?.text).toBe('The answer.');
    expect(steps(result.transcript).map((step) => step.reasoning)).toEqual([[thinking('Let me check.')], [thinking('Found it.')]]);
  });

  it('streams the reasoning texts of a non-streaming adapter as reasoning_delta before its answer', async () => {
    const scripted = createScriptedModel([
      { type: 'tool_request', calls: [{ id: 'c1', name: 'lookup', input: {} }], reasoning: [thinking('first'), redacted] },
      { type: 'final_answer', text: 'Answer.', reasoning: [thinking('second')] },
    ]);
    const model: HarnessModelAdapter = { nextStep: (input) => scripted.nextStep(input) };
    const events = await collect(createHarness({ model, tools: tools() }).streamTurn(createTurnInput()));
    expect(deltas(events)).toEqual(['reasoning_delta 1 first', 'reasoning_delta 2 second', 'text_delta 2 Answer.']);
  });

  it('runTurn emits no stream events and still keeps the reasoning', async () => {
    const result = await createHarness({ model: createScriptedModel([{ type: 'final_answer', text: 'ok', reasoning: [thinking('t')] }]) }).runTurn(
      createTurnInput(),
    );
    expect(steps(result.transcript)).toEqual([{ outputType: 'final_answer', reasoning: [thinking('t')] }]);
  });
});
