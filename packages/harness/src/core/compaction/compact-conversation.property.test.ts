import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../__fixtures__/property-runs.js';
import type { HarnessHistoryMessage } from '../../shared/types/turn-input.js';
import { createScriptedModel } from '../../testing/scripted-model.js';
import { createHarness } from '../create-harness.js';
import type { HarnessModelOutput } from '../types/model.js';
import type { HarnessTranscriptItem } from '../types/transcript.js';
import { historyAndTranscriptBytes } from './estimate-tokens.js';

// Issue 25: whatever the conversation (pinned messages, steps with parallel calls, results in any
// order, calls without results, reasoning, questions, decisions, earlier summaries) and whatever
// the summary call returns (empty, short, far longer than what it replaces, a tool call, a failure),
// compaction never separates a tool call from its result, never grows the input, keeps every pinned
// message word for word and in order, and keeps the newest step.

const textArb = fc.oneof({ weight: 4, arbitrary: fc.string({ maxLength: 40 }) }, fc.string({ unit: 'grapheme', maxLength: 300 }), fc.constant('x'.repeat(3_000)));
const historyArb = fc.array(
  fc.record({ role: fc.constantFrom('user' as const, 'assistant' as const), text: textArb, pinned: fc.option(fc.boolean(), { nil: undefined }) }),
  { maxLength: 14 },
);
const reasoningArb = fc.option(fc.array(fc.record({ provider: fc.constantFrom('anthropic', 'gemini'), text: textArb, signature: fc.string({ maxLength: 20 }) }), { minLength: 1, maxLength: 2 }), { nil: undefined });

/** One model step: its assistant item and what follows it (results in shuffled order, some missing, notes). */
const stepArb = fc
  .record({
    text: fc.option(textArb, { nil: undefined }),
    calls: fc.array(fc.record({ name: fc.constantFrom('search', 'read', '__proto__'), input: fc.dictionary(fc.string({ maxLength: 4 }), textArb, { maxKeys: 2 }) }), { maxLength: 3 }),
    reasoning: reasoningArb,
    resultOrder: fc.array(fc.nat(), { maxLength: 3 }),
    dropResult: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    extra: fc.constantFrom('none', 'question', 'answer', 'decision', 'invalid', 'summary'),
    /** Its first result comes only after the next step (the loop never writes that; a continuation may carry it). */
    late: fc.boolean(),
    output: textArb,
  });

const turnArb = fc.array(stepArb, { maxLength: 6 });

/** The transcript of a turn of these steps, call ids unique. */
function buildFrom(steps: readonly (typeof stepArb extends fc.Arbitrary<infer T> ? T : never)[]): HarnessTranscriptItem[] {
  const transcript: HarnessTranscriptItem[] = [];
  let callNumber = 0;
  let late: HarnessTranscriptItem[] = [];
  steps.forEach((step, index) => {
    const iteration = index + 1;
    const lateBefore = late;
    late = [];
    const calls = step.calls.map((call) => ({ id: `call_${String((callNumber += 1))}`, name: call.name, input: call.input }));
    transcript.push({
      type: 'assistant_step',
      iteration,
      outputType: calls.length > 0 ? 'tool_request' : 'final_answer',
      ...(step.text === undefined ? {} : { text: step.text }),
      ...(calls.length > 0 ? { calls } : {}),
      ...(step.reasoning === undefined ? {} : { reasoning: step.reasoning }),
    });
    const order = calls.map((_, callIndex) => callIndex).sort((a, b) => (step.resultOrder[a] ?? 0) - (step.resultOrder[b] ?? 0));
    for (const callIndex of order) {
      if (step.dropResult[callIndex] === true) continue;
      const call = calls[callIndex]!;
      const result: HarnessTranscriptItem = { type: 'tool_result', iteration, result: { callId: call.id, toolName: call.name, status: 'success', output: step.output } };
      if (step.late && callIndex === order[0]) late.push(result);
      else transcript.push(result);
    }
    transcript.push(...lateBefore);
    if (step.extra === 'question') transcript.push({ type: 'clarification_request', iteration, question: step.output });
    if (step.extra === 'answer') transcript.push({ type: 'clarification_answer', iteration, answer: step.output });
    if (step.extra === 'decision') transcript.push({ type: 'approval_decision', iteration, requestId: 'r1', decision: 'approved' });
    if (step.extra === 'invalid') transcript.push({ type: 'invalid_output', iteration, kind: 'schema_mismatch', reason: step.output });
    if (step.extra === 'summary') transcript.push({ type: 'compaction', iteration, summary: step.output, replacedItems: 2, replacedMessages: 1 });
  });
  transcript.push(...late);
  return transcript;
}

/** What the summary call answers: a summary of any length, or something that is not one. */
const summaryArb: fc.Arbitrary<HarnessModelOutput> = fc.oneof(
  { weight: 5, arbitrary: textArb.map((text): HarnessModelOutput => ({ type: 'final_answer', text })) },
  fc.nat({ max: 200_000 }).map((length): HarnessModelOutput => ({ type: 'final_answer', text: 'y'.repeat(length) })),
  fc.constant<HarnessModelOutput>({ type: 'tool_request', calls: [{ id: 'c', name: 'search', input: {} }] }),
  fc.constant<HarnessModelOutput>({ type: 'invalid', kind: 'provider_error', reason: 'HTTP 429', code: 'rate_limited', retryable: true }),
);

/** Call id → index of the assistant step that made it, and result call ids → their indexes. */
function pairs(transcript: readonly HarnessTranscriptItem[]) {
  const calls = new Map<string, number>();
  const results = new Map<string, number>();
  transcript.forEach((item, index) => {
    if (item.type === 'assistant_step') for (const call of item.calls ?? []) calls.set(call.id, index);
    if (item.type === 'tool_result') results.set(item.result.callId, index);
  });
  return { calls, results };
}

describe('compaction (property)', () => {
  it('never separates a call from its result, never grows the input, keeps pinned messages and the newest step', async () => {
    await fc.assert(
      fc.asyncProperty(historyArb, turnArb, summaryArb, fc.integer({ min: 1, max: 5 }), async (history, steps, summary, keepRecent) => {
        const transcript = buildFrom(steps);
        const model = createScriptedModel(() => summary);
        const harness = createHarness({ model });
        const { history: after, transcript: afterTranscript, receipt, error } = await harness.compact(history as HarnessHistoryMessage[], { transcript, keepRecent });
        const kept = afterTranscript!;

        // Never grows the input.
        expect(historyAndTranscriptBytes(after, kept)).toBeLessThanOrEqual(historyAndTranscriptBytes(history as HarnessHistoryMessage[], transcript));
        expect(receipt.bytesAfter).toBeLessThanOrEqual(receipt.bytesBefore);
        if (error !== undefined) {
          expect(after).toEqual(history);
          expect(kept).toEqual(transcript);
          expect(receipt.compacted).toBe(false);
        }

        // A call and its result: both kept, or both gone — and a kept result still follows its call.
        const before = pairs(transcript);
        const now = pairs(kept);
        for (const [callId] of before.results) {
          if (!before.calls.has(callId)) continue;
          expect(now.calls.has(callId)).toBe(now.results.has(callId));
          if (now.results.has(callId) && before.calls.get(callId)! < before.results.get(callId)!) expect(now.calls.get(callId)!).toBeLessThan(now.results.get(callId)!);
        }
        for (const [callId] of now.calls) expect(before.calls.has(callId)).toBe(true);

        // Pinned messages, word for word and in order.
        const pinned = history.filter((message) => message.pinned === true);
        expect(after.filter((message) => message.pinned === true)).toEqual(pinned);

        // The newest step is always kept (its reasoning too).
        const newest = [...transcript].reverse().find((item) => item.type === 'assistant_step');
        if (newest !== undefined) expect(kept).toContainEqual(newest);

        // Old reasoning goes first: only the newest step may keep it.
        if (error === undefined) expect(kept.filter((item) => item.type === 'assistant_step' && item.reasoning !== undefined).length).toBeLessThanOrEqual(1);

        // At most one model call, and only when something was folded.
        expect(model.calls.length).toBeLessThanOrEqual(1);
      }),
      { numRuns: propertyRuns() },
    );
  }, 600_000);
});
