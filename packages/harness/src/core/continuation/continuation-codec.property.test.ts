import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../__fixtures__/property-runs.js';
import { createManualClock, createTurnInput } from '../../testing/index.js';
import type { HarnessLoopContinuationState } from '../types/continuation.js';
import type { HarnessTranscriptItem } from '../types/transcript.js';
import { createContinuationCodec } from './continuation-codec.js';

const encoder = new TextEncoder();
/** Cheap to generate: a run of one (possibly multi-byte or escaped) character, or a short random string. */
const text = fc.oneof(
  fc.tuple(fc.constantFrom('a', 'é', '€', '😀', '"', '\n', '\u0001'), fc.nat(500)).map(([char, count]) => char.repeat(count)),
  fc.string({ maxLength: 16 }),
);
const record = fc.oneof(
  fc.dictionary(fc.string({ maxLength: 6 }), text, { maxKeys: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
) as fc.Arbitrary<Record<string, unknown>>;
const id = fc.string({ minLength: 1, maxLength: 12 });
const call = fc.record({ id, name: id, input: record });
const approval = fc.record({ id, kind: id, summary: text, details: fc.option(record, { nil: undefined }) }, { requiredKeys: ['id', 'kind', 'summary'] });

const transcriptItem: fc.Arbitrary<HarnessTranscriptItem> = fc.oneof(
  fc.record({
    type: fc.constant('assistant_step' as const),
    iteration: fc.nat(9),
    outputType: fc.constantFrom('final_answer', 'tool_request', 'clarification', 'approval_request', 'refusal'),
    text,
    calls: fc.array(call, { maxLength: 3 }),
  }),
  fc.record({
    type: fc.constant('tool_result' as const),
    iteration: fc.nat(9),
    result: fc.record(
      {
        callId: id,
        toolName: id,
        status: fc.constantFrom('success', 'error'),
        output: text,
        structuredOutput: record,
        error: fc.record({ code: id, message: text }),
      },
      { requiredKeys: ['callId', 'toolName', 'status'] },
    ),
  }),
  fc.record({ type: fc.constant('invalid_output' as const), iteration: fc.nat(9), kind: fc.constantFrom('transient', 'schema_mismatch'), reason: text }),
  fc.record({ type: fc.constant('clarification_request' as const), iteration: fc.nat(9), question: text }),
  fc.record({ type: fc.constant('clarification_answer' as const), iteration: fc.nat(9), answer: text }),
  fc.record({ type: fc.constant('approval_request' as const), iteration: fc.nat(9), request: approval }),
);

const { turnId: _turnId, ...baseInput } = createTurnInput();

const loopState: fc.Arbitrary<HarnessLoopContinuationState> = fc.record({
  mode: fc.constant('loop' as const),
  stopReason: fc.constant('approval_required' as const),
  input: text.map((message) => ({ ...baseInput, message: { ...baseInput.message, text: message } })),
  transcript: fc.array(transcriptItem, { maxLength: 5 }),
  usage: fc.constant({ totalInputTokens: 0, totalOutputTokens: 0, totalCostUnits: 0, totalLatencyMs: 0, modelCalls: 1, toolCalls: 0 }),
  question: text,
  approvals: fc.array(approval, { maxLength: 3 }),
  pendingCalls: fc.array(call, { maxLength: 4 }),
  iteration: fc.nat(9),
});

/** A few limits, each with one codec per signing mode, so a run costs a seal and not a key import. */
const LIMITS = [300, 700, 1_500, 3_000, 5_000] as const;
const codecs = new Map<string, ReturnType<typeof createContinuationCodec>>();
let nextId = 0;
function codecFor(maxBytes: number, signed: boolean) {
  const key = `${maxBytes}:${signed}`;
  let codec = codecs.get(key);
  if (codec === undefined) {
    codec = createContinuationCodec({
      ...(signed ? { secrets: ['property-secret-0123456789abcdef'] } : { unsigned: 'allow' as const }),
      maxBytes,
      clock: createManualClock(),
      generateId: () => `id-${(nextId += 1)}`,
    });
    codecs.set(key, codec);
  }
  return codec;
}

describe('sealing a continuation (property, issue 9 class 4)', () => {
  it('never exceeds maxContinuationBytes; what a resume acts on survives intact, or sealing fails honestly', async () => {
    await fc.assert(
      fc.asyncProperty(loopState, fc.constantFrom(...LIMITS), fc.boolean(), async (state, maxBytes, signed) => {
        const codec = codecFor(maxBytes, signed);
        const sealed = await codec.seal({ type: 'approval', turnId: 'turn-1', state });
        if (!sealed.ok) {
          expect(sealed.code).toBe('continuation_too_large');
          expect(sealed.reason).toContain(`limits.maxContinuationBytes (${maxBytes})`);
          return;
        }
        const json = JSON.stringify(sealed.continuation);
        expect(encoder.encode(json).length).toBeLessThanOrEqual(maxBytes);
        const opened = await codec.open(JSON.parse(json));
        expect(opened.ok).toBe(true);
        const carried = sealed.continuation.state as HarnessLoopContinuationState;
        const expected = JSON.parse(JSON.stringify(state)) as HarnessLoopContinuationState;
        expect(carried.input).toEqual(expected.input);
        expect(carried.pendingCalls).toEqual(expected.pendingCalls);
        expect(carried.approvals).toEqual(expected.approvals);
        expect(carried.transcript.map((item) => item.type)).toEqual(expected.transcript.map((item) => item.type));
      }),
      { numRuns: propertyRuns() },
    );
  }, 120_000);
});
