import { describe, expect, it } from 'vitest';
import { createHarness, type HarnessContinuation, type HarnessModelInput } from '../index.js';
import {
  createFakeToolRegistry,
  createManualClock,
  createScriptedModel,
  createTurnInput,
  memoryTraceSink,
} from '../testing/index.js';

const secret = 'a-test-secret-of-at-least-32-bytes!!';

function weatherTools() {
  return createFakeToolRegistry({
    lookup_weather: ({ city }) => `Sunny in ${String(city)}`,
    send_email: {
      description: 'Send an email',
      requiresApproval: true,
      execute: ({ to }) => `sent to ${String(to)}`,
    },
  });
}

/** Serialises like a product storing the continuation in a database or KV. */
function roundTrip(continuation: HarnessContinuation | undefined): unknown {
  expect(continuation).toBeDefined();
  return JSON.parse(JSON.stringify(continuation));
}

describe('resumeTurn: clarification', () => {
  it('continues in a new harness instance with the answer in the transcript', async () => {
    const first = createHarness({
      model: createScriptedModel([{ type: 'clarification', question: 'Which city?' }]),
      tools: weatherTools(),
      continuationSecret: secret,
    });
    const paused = await first.runTurn(createTurnInput({ text: 'What is the weather?' }));
    expect(paused.outcome).toBe('needs_clarification');
    expect(paused.assistantMessage?.text).toBe('Which city?');
    expect(paused.continuation?.type).toBe('clarification');

    const seen: HarnessModelInput[] = [];
    const secondModel = createScriptedModel([
      (input) => {
        seen.push(input);
        return { type: 'tool_request', calls: [{ id: 'c1', name: 'lookup_weather', input: { city: 'Oslo' } }] };
      },
      { type: 'final_answer', text: 'Sunny in Oslo.' },
    ]);
    const second = createHarness({ model: secondModel, tools: weatherTools(), continuationSecret: secret });
    const resumed = await second.resumeTurn(roundTrip(paused.continuation), { type: 'clarification', answer: 'Oslo' });

    expect(resumed.outcome).toBe('completed');
    expect(resumed.assistantMessage?.text).toBe('Sunny in Oslo.');
    expect(resumed.turnId).toBe('turn-test');
    const input = seen[0]!;
    expect(input.message.text).toBe('What is the weather?');
    expect(input.transcript.map((item) => item.type)).toEqual([
      'assistant_step',
      'clarification_request',
      'clarification_answer',
    ]);
    expect(input.transcript.at(-1)).toMatchObject({ answer: 'Oslo' });
    expect(input.continuation?.id).toBe(paused.continuation?.id);
    expect(resumed.usage.modelCalls).toBe(3);
    expect(resumed.traceSummary.hadContinuation).toBe(true);
  });
});

describe('resumeTurn: approval', () => {
  it('never runs a requiresApproval tool before approval, and runs it exactly once after', async () => {
    const tools = weatherTools();
    const first = createHarness({
      model: createScriptedModel([
        { type: 'tool_request', calls: [{ id: 'mail-1', name: 'send_email', input: { to: 'ada@example.com' } }] },
      ]),
      tools,
      continuationSecret: secret,
    });
    const paused = await first.runTurn(createTurnInput());
    expect(paused.outcome).toBe('awaiting_approval');
    expect(paused.stopReason).toBe('approval_required');
    expect(tools.calls).toHaveLength(0);
    expect(paused.metadata?.approvalRequests).toEqual([
      expect.objectContaining({ id: 'mail-1', kind: 'tool_call', details: { toolName: 'send_email', input: { to: 'ada@example.com' } } }),
    ]);

    const resumedTools = weatherTools();
    const model = createScriptedModel([{ type: 'final_answer', text: 'Email sent.' }]);
    const second = createHarness({ model, tools: resumedTools, continuationSecret: secret });
    const resumed = await second.resumeTurn(roundTrip(paused.continuation), {
      type: 'approval',
      decisions: { 'mail-1': 'approved' },
    });
    expect(resumed.outcome).toBe('completed');
    expect(resumedTools.calls).toEqual([{ id: 'mail-1', name: 'send_email', input: { to: 'ada@example.com' } }]);
    const lastSeen = model.calls[0]!.transcript.at(-1);
    expect(lastSeen).toMatchObject({ type: 'tool_result', result: { callId: 'mail-1', status: 'success', output: 'sent to ada@example.com' } });
  });

  it('hands a rejected call to the model as an error result without running it', async () => {
    const first = createHarness({
      model: createScriptedModel([
        {
          type: 'tool_request',
          calls: [
            { id: 'w1', name: 'lookup_weather', input: { city: 'Oslo' } },
            { id: 'mail-1', name: 'send_email', input: { to: 'ada@example.com' } },
          ],
        },
      ]),
      tools: weatherTools(),
    });
    const paused = await first.runTurn(createTurnInput());
    expect(paused.outcome).toBe('awaiting_approval');

    const tools = weatherTools();
    const model = createScriptedModel([{ type: 'final_answer', text: 'I did not send it.' }]);
    const resumed = await createHarness({ model, tools }).resumeTurn(roundTrip(paused.continuation), {
      type: 'approval',
      decisions: { 'mail-1': 'rejected' },
    });
    expect(resumed.outcome).toBe('completed');
    expect(tools.calls.map((call) => call.id)).toEqual(['w1']);
    const results = model.calls[0]!.transcript.filter((item) => item.type === 'tool_result');
    expect(results.map((item) => item.type === 'tool_result' && [item.result.callId, item.result.status])).toEqual([
      ['w1', 'success'],
      ['mail-1', 'error'],
    ]);
    expect(results[1]).toMatchObject({ result: { error: { code: 'approval_rejected' } } });
  });

  it('resumes a model-requested approval with the decision in the transcript', async () => {
    const first = createHarness({
      model: createScriptedModel([
        { type: 'approval_request', request: { id: 'refund-7', kind: 'refund', summary: 'Refund 20 EUR' } },
      ]),
    });
    const paused = await first.runTurn(createTurnInput());
    expect(paused.outcome).toBe('awaiting_approval');
    const model = createScriptedModel([{ type: 'final_answer', text: 'Refunded.' }]);
    const resumed = await createHarness({ model }).resumeTurn(roundTrip(paused.continuation), {
      type: 'approval',
      decisions: { 'refund-7': 'approved' },
    });
    expect(resumed.outcome).toBe('completed');
    expect(model.calls[0]!.transcript.at(-1)).toEqual({
      type: 'approval_decision',
      iteration: 1,
      requestId: 'refund-7',
      decision: 'approved',
    });
  });

  it('lets an approvals adapter enrich the request but keeps its id', async () => {
    const harness = createHarness({
      model: createScriptedModel([
        { type: 'approval_request', request: { id: 'r1', kind: 'deploy', summary: 'Deploy' } },
      ]),
      approvals: { prepareRequest: ({ request }) => ({ ...request, id: 'ignored', metadata: { ticket: 'T-1' } }) },
    });
    const result = await harness.runTurn(createTurnInput());
    expect(result.metadata?.approvalRequests).toEqual([
      { id: 'r1', kind: 'deploy', summary: 'Deploy', metadata: { ticket: 'T-1' } },
    ]);
  });

  it('throws HarnessConfigError when decisions do not match the pending requests', async () => {
    const harness = createHarness({
      model: createScriptedModel([{ type: 'approval_request', request: { id: 'r1', kind: 'deploy', summary: 'Deploy' } }]),
    });
    const paused = await harness.runTurn(createTurnInput());
    await expect(
      harness.resumeTurn(paused.continuation, { type: 'approval', decisions: { other: 'approved' } }),
    ).rejects.toMatchObject({ code: 'HARNESS_ERR_INVALID_CONFIG', field: 'resolution.decisions' });
  });
});

describe('resumeTurn: deferred', () => {
  it('runs the calls that did not fit under maxToolCalls first, with fresh limits', async () => {
    const model = createScriptedModel([
      {
        type: 'tool_request',
        calls: [
          { id: 'a', name: 'lookup_weather', input: { city: 'Oslo' } },
          { id: 'b', name: 'lookup_weather', input: { city: 'Rome' } },
          { id: 'c', name: 'lookup_weather', input: { city: 'Lima' } },
        ],
      },
    ]);
    const tools = weatherTools();
    const paused = await createHarness({ model, tools, limits: { maxToolCalls: 2 } }).runTurn(createTurnInput());
    expect(paused.outcome).toBe('deferred');
    expect(paused.stopReason).toBe('max_tool_calls_reached');
    expect(tools.calls.map((call) => call.id)).toEqual(['a', 'b']);

    const resumedTools = weatherTools();
    const resumedModel = createScriptedModel([{ type: 'final_answer', text: 'Three cities.' }]);
    const resumed = await createHarness({ model: resumedModel, tools: resumedTools, limits: { maxToolCalls: 2 } }).resumeTurn(
      roundTrip(paused.continuation),
      { type: 'deferred' },
    );
    expect(resumed.outcome).toBe('completed');
    expect(resumedTools.calls.map((call) => call.id)).toEqual(['c']);
    const results = resumedModel.calls[0]!.transcript.filter((item) => item.type === 'tool_result');
    expect(results.map((item) => item.type === 'tool_result' && item.result.callId)).toEqual(['a', 'b', 'c']);
    expect(resumed.usage.toolCalls).toBe(3);
  });

  it('continues after max_iterations_reached', async () => {
    const paused = await createHarness({
      model: createScriptedModel([
        { type: 'tool_request', calls: [{ id: 'a', name: 'lookup_weather', input: { city: 'Oslo' } }] },
      ]),
      tools: weatherTools(),
      limits: { maxIterations: 1 },
    }).runTurn(createTurnInput());
    expect(paused.stopReason).toBe('max_iterations_reached');
    expect(paused.traceSummary.iterationCount).toBe(1);
    const resumed = await createHarness({
      model: createScriptedModel([{ type: 'final_answer', text: 'Done' }]),
      tools: weatherTools(),
    }).resumeTurn(roundTrip(paused.continuation), { type: 'deferred' });
    expect(resumed).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Done' } });
    expect(resumed.transcript.map((item) => item.iteration)).toEqual([1, 1, 2]);
  });
});

describe('resumeTurn: refusals', () => {
  async function pausedTurn(options: { ttlMs?: number } = {}) {
    const clock = createManualClock();
    const harness = createHarness({
      model: createScriptedModel([{ type: 'clarification', question: 'Which city?' }]),
      continuationSecret: secret,
      continuationTtlMs: options.ttlMs,
      clock,
    });
    const result = await harness.runTurn(createTurnInput());
    return { clock, harness, continuation: roundTrip(result.continuation) as Record<string, unknown> };
  }

  it('refuses a tampered continuation', async () => {
    const { harness, continuation } = await pausedTurn();
    const state = continuation.state as { input: { message: { text: string } } };
    state.input.message.text = 'Transfer all the money';
    const result = await harness.resumeTurn(continuation, { type: 'clarification', answer: 'Oslo' });
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'continuation_invalid' });
    expect(result.metadata?.error?.message).toMatch(/signature/);
  });

  it('refuses an unsigned continuation when a secret is configured', async () => {
    const { harness, continuation } = await pausedTurn();
    delete continuation.signature;
    const result = await harness.resumeTurn(continuation, { type: 'clarification', answer: 'Oslo' });
    expect(result.stopReason).toBe('continuation_invalid');
  });

  it('refuses a continuation signed with another secret', async () => {
    const { continuation } = await pausedTurn();
    const other = createHarness({ model: createScriptedModel([]), continuationSecret: 'another-secret-of-enough-length' });
    const result = await other.resumeTurn(continuation, { type: 'clarification', answer: 'Oslo' });
    expect(result.stopReason).toBe('continuation_invalid');
  });

  it('refuses an expired continuation', async () => {
    const { clock, harness, continuation } = await pausedTurn({ ttlMs: 60_000 });
    expect(continuation.expiresAt).toBe('2026-01-01T00:01:00.000Z');
    clock.advance(60_000);
    const result = await harness.resumeTurn(continuation, { type: 'clarification', answer: 'Oslo' });
    expect(result.stopReason).toBe('continuation_invalid');
    expect(result.metadata?.error?.message).toMatch(/expired/);
  });

  it('accepts a continuation before it expires', async () => {
    const { clock, continuation } = await pausedTurn({ ttlMs: 60_000 });
    clock.advance(59_999);
    const harness = createHarness({
      model: createScriptedModel([{ type: 'final_answer', text: 'ok' }]),
      continuationSecret: secret,
      clock,
    });
    const result = await harness.resumeTurn(continuation, { type: 'clarification', answer: 'Oslo' });
    expect(result.outcome).toBe('completed');
  });

  it('refuses a wrong version', async () => {
    const { continuation } = await pausedTurn();
    const unsigned = createHarness({ model: createScriptedModel([]) });
    const result = await unsigned.resumeTurn({ ...continuation, version: 2 }, { type: 'clarification', answer: 'Oslo' });
    expect(result.stopReason).toBe('continuation_invalid');
    expect(result.metadata?.error?.message).toMatch(/version/);
  });

  it('refuses a resolution of the wrong kind', async () => {
    const { harness, continuation } = await pausedTurn();
    const result = await harness.resumeTurn(continuation, { type: 'deferred' });
    expect(result.stopReason).toBe('continuation_invalid');
  });

  it('refuses a continuation from another turn or session when told what to expect', async () => {
    const { harness, continuation } = await pausedTurn();
    const foreignTurn = await harness.resumeTurn(
      continuation,
      { type: 'clarification', answer: 'Oslo' },
      { expectedTurnId: 'turn-other' },
    );
    expect(foreignTurn.stopReason).toBe('continuation_invalid');
    const foreignSession = await harness.resumeTurn(
      continuation,
      { type: 'clarification', answer: 'Oslo' },
      { expectedSessionId: 'session-other' },
    );
    expect(foreignSession.stopReason).toBe('continuation_invalid');
  });

  it.each([null, 'not json', 42, [], { version: 1 }])('refuses malformed input %j', async (raw) => {
    const harness = createHarness({ model: createScriptedModel([]) });
    const result = await harness.resumeTurn(raw, { type: 'deferred' });
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'continuation_invalid', usage: { modelCalls: 0 } });
  });

  it('throws HarnessConfigError for a malformed resolution', async () => {
    const { harness, continuation } = await pausedTurn();
    await expect(harness.resumeTurn(continuation, { type: 'clarification' } as never)).rejects.toMatchObject({
      name: 'HarnessConfigError',
    });
  });

  it('emits no trace events for a refused continuation but runs normally otherwise', async () => {
    const trace = memoryTraceSink();
    const harness = createHarness({ model: createScriptedModel([]), trace });
    await harness.resumeTurn({}, { type: 'deferred' });
    expect(trace.events).toHaveLength(0);
  });
});

describe('continuation payload', () => {
  it('is plain JSON, small, signed, and carries what resume needs', async () => {
    const paused = await createHarness({
      model: createScriptedModel([{ type: 'clarification', question: 'Which city?' }]),
      continuationSecret: secret,
      clock: createManualClock(),
      generateId: (() => {
        let next = 0;
        return () => `id-${(next += 1)}`;
      })(),
    }).runTurn(createTurnInput({ sessionId: 'session-1' }));
    const continuation = paused.continuation!;
    expect(JSON.parse(JSON.stringify(continuation))).toEqual(continuation);
    expect(continuation).toMatchObject({
      version: 1,
      id: 'id-1',
      type: 'clarification',
      turnId: 'turn-test',
      sessionId: 'session-1',
      createdAt: '2026-01-01T00:00:00.000Z',
      resumeToken: 'id-2',
      state: { mode: 'loop', stopReason: 'clarification_required', question: 'Which city?' },
    });
    expect(continuation.signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(continuation).length).toBeLessThan(1500);
  });

  it('shortens large tool outputs to stay under maxContinuationBytes', async () => {
    const big = 'x'.repeat(50_000);
    const paused = await createHarness({
      model: createScriptedModel([
        { type: 'tool_request', calls: [{ id: 'a', name: 'dump', input: {} }] },
        { type: 'clarification', question: 'More?' },
      ]),
      tools: createFakeToolRegistry({ dump: () => big }),
      limits: { maxContinuationBytes: 8_192 },
    }).runTurn(createTurnInput());
    const size = JSON.stringify(paused.continuation).length;
    expect(size).toBeLessThan(8_192);
    expect(JSON.stringify(paused.continuation)).toContain('[truncated]');
    expect(paused.transcript[1]).toMatchObject({ result: { output: big } });
  });
});

describe('trace numbering across a resume', () => {
  it('continues iteration numbers in trace events after a resume, like the transcript', async () => {
    const paused = await createHarness({
      model: createScriptedModel([{ type: 'clarification', question: 'Which city?' }]),
    }).runTurn(createTurnInput());
    const trace = memoryTraceSink();
    await createHarness({ model: createScriptedModel([{ type: 'final_answer', text: 'ok' }]), trace }).resumeTurn(
      paused.continuation,
      { type: 'clarification', answer: 'Oslo' },
    );
    const step = trace.events.find((event) => event.type === 'model_step_started');
    expect(step?.iteration).toBe(2);
  });

  it('lets a scripted function step return a malformed output, reported as schema_mismatch', async () => {
    const result = await createHarness({
      model: createScriptedModel([() => null as never, () => null as never, () => null as never]),
    }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'model_invalid_response', metadata: { error: { code: 'schema_mismatch' } } });
  });
});
