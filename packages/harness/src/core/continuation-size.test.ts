import { describe, expect, it } from 'vitest';
import { createHarness, type HarnessContinuation, type HarnessResult } from '../index.js';
import { createFakeToolRegistry, createScriptedModel, createTurnInput } from '../testing/index.js';

const encoder = new TextEncoder();
const bytesOf = (continuation: HarnessContinuation | undefined) => encoder.encode(JSON.stringify(continuation)).length;
const secret = 'size-test-secret-0123456789abcdef';

function manyCalls(count: number, name: string, input: Record<string, unknown> = {}) {
  return Array.from({ length: count }, (_, index) => ({ id: `call-${index}`, name, input: { ...input, index } }));
}

function expectTooLarge(result: HarnessResult, limit: number) {
  expect(result).toMatchObject({
    outcome: 'failed',
    stopReason: 'runtime_error',
    metadata: { error: { code: 'continuation_too_large', source: 'continuation' } },
  });
  expect(result.continuation).toBeUndefined();
  expect(result.metadata?.error?.message).toContain(`limits.maxContinuationBytes (${limit})`);
}

describe('maxContinuationBytes always holds (issue 9, class 4)', () => {
  // 2,000 calls of about 50 bytes: few enough to be read (a step of more than the calls left plus
  // maxContinuationBytes / 32 is refused unread, see run-turn.limits.test.ts), too many to carry.
  it('fails the turn instead of sealing 2,000 pending calls into a 64 KiB continuation', async () => {
    const tools = createFakeToolRegistry({ lookup: () => 'ok' });
    const result = await createHarness({
      model: createScriptedModel([{ type: 'tool_request', calls: manyCalls(2_000, 'lookup') }]),
      tools,
      continuationSecret: secret,
      limits: { maxContinuationBytes: 65_536 },
    }).runTurn(createTurnInput());
    expectTooLarge(result, 65_536);
    expect(tools.calls).toHaveLength(8);
  });

  it('fails the turn instead of sealing 2,000 approval requests, and runs none of them', async () => {
    const tools = createFakeToolRegistry({ send: { requiresApproval: true, execute: () => 'sent' } });
    const result = await createHarness({
      model: createScriptedModel([{ type: 'tool_request', calls: manyCalls(2_000, 'send') }]),
      tools,
      continuationSecret: secret,
      limits: { maxContinuationBytes: 65_536 },
    }).runTurn(createTurnInput());
    expectTooLarge(result, 65_536);
    expect(tools.calls).toEqual([]);
  });

  it('never shortens the input of a call awaiting approval: a huge one fails the turn', async () => {
    const tools = createFakeToolRegistry({ send: { requiresApproval: true, execute: () => 'sent' } });
    const result = await createHarness({
      model: createScriptedModel([{ type: 'tool_request', calls: [{ id: 'a', name: 'send', input: { body: 'x'.repeat(20_000) } }] }]),
      tools,
      limits: { maxContinuationBytes: 16_384 },
    }).runTurn(createTurnInput());
    expectTooLarge(result, 16_384);
    expect(tools.calls).toEqual([]);
  });

  it('shortens the carried history — earlier call inputs, outputs, texts — to fit, and the continuation still resumes', async () => {
    const big = 'é'.repeat(30_000);
    const tools = () =>
      createFakeToolRegistry({
        echo: ({ text }) => String(text),
        send: { requiresApproval: true, execute: () => 'sent' },
      });
    const paused = await createHarness({
      model: createScriptedModel([
        { type: 'tool_request', calls: [{ id: 'e1', name: 'echo', input: { text: big } }] },
        { type: 'tool_request', calls: [{ id: 's1', name: 'send', input: { to: 'ada@example.com' } }] },
      ]),
      tools: tools(),
      continuationSecret: secret,
      limits: { maxContinuationBytes: 8_192 },
    }).runTurn(createTurnInput());
    expect(paused.outcome).toBe('awaiting_approval');
    expect(bytesOf(paused.continuation)).toBeLessThanOrEqual(8_192);
    const text = JSON.stringify(paused.continuation);
    expect(text).toContain('…[truncated]');
    expect(paused.continuation?.state).toMatchObject({ pendingCalls: [{ id: 's1', input: { to: 'ada@example.com' } }] });
    expect(paused.transcript[0]).toMatchObject({ calls: [{ input: { text: big } }] });

    const resumedTools = tools();
    const resumed = await createHarness({
      model: createScriptedModel([{ type: 'final_answer', text: 'done' }]),
      tools: resumedTools,
      continuationSecret: secret,
      limits: { maxContinuationBytes: 8_192 },
    }).resumeTurn(JSON.parse(text), { type: 'approval', decisions: { s1: 'approved' } });
    expect(resumed.outcome).toBe('completed');
    expect(resumedTools.calls.map((call) => call.id)).toEqual(['s1']);
  });

  it('measures UTF-8 bytes with the signature included, not UTF-16 length', async () => {
    const limit = 6_000;
    const paused = await createHarness({
      model: createScriptedModel([
        { type: 'tool_request', calls: [{ id: 'a', name: 'dump', input: {} }] },
        { type: 'clarification', question: 'More?' },
      ]),
      tools: createFakeToolRegistry({ dump: () => '€'.repeat(5_000) }),
      continuationSecret: secret,
      limits: { maxContinuationBytes: limit },
    }).runTurn(createTurnInput());
    expect(paused.outcome).toBe('needs_clarification');
    expect(paused.continuation?.signature).toBeDefined();
    expect(bytesOf(paused.continuation)).toBeLessThanOrEqual(limit);
    expect(JSON.stringify(paused.continuation).length).toBeLessThan(bytesOf(paused.continuation));
  });

  it('fails the turn when a huge user message alone exceeds the limit', async () => {
    const result = await createHarness({
      model: createScriptedModel([{ type: 'clarification', question: 'Which?' }]),
      limits: { maxContinuationBytes: 4_096 },
    }).runTurn(createTurnInput({ text: 'q'.repeat(10_000) }));
    expectTooLarge(result, 4_096);
  });

  it('fails the turn (continuation_seal_failed) when the turn input nests deeper than a continuation may', async () => {
    let deep: Record<string, unknown> = {};
    for (let level = 0; level < 100; level += 1) deep = { next: deep };
    const result = await createHarness({
      model: createScriptedModel([{ type: 'clarification', question: 'More?' }]),
    }).runTurn(createTurnInput({ metadata: deep }));
    expect(result).toMatchObject({
      outcome: 'failed',
      stopReason: 'runtime_error',
      metadata: { error: { code: 'continuation_seal_failed', message: expect.stringMatching(/nested deeper than/) as unknown } },
    });
  });
});
