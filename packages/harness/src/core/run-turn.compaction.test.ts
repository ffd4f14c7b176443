import { describe, expect, it } from 'vitest';
import { createFakeExecutionAdapter } from '../testing/fake-execution-adapter.js';
import { createFakeToolRegistry } from '../testing/fake-tool-registry.js';
import { createScriptedModel } from '../testing/scripted-model.js';
import { createTurnInput } from '../testing/create-turn-input.js';
import type { HarnessHistoryMessage } from '../shared/types/turn-input.js';
import { SUMMARY_HEADING } from './compaction/compact-conversation.js';
import { createHarness } from './create-harness.js';
import { HarnessConfigError } from './errors/harness-config-error.js';
import { memoryTraceSink } from './trace/memory-trace-sink.js';
import type { HarnessModelInput, HarnessModelOutput } from './types/model.js';
import type { HarnessTranscriptItem } from './types/transcript.js';

// Issue 25, compaction: `harness.compact` on demand, and the turn's own compaction of its history
// and transcript (threshold, reasoning first, budget, failures), with a scripted model.

const isSummaryCall = (input: HarnessModelInput) => input.instructions.systemPrompt.startsWith('You compact a conversation');

/** `count` messages of about 400 characters, marked `m00`, `m01` … */
function history(count: number, pinned: readonly number[] = []): HarnessHistoryMessage[] {
  return Array.from({ length: count }, (_, index) => ({
    role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
    text: `m${String(index).padStart(2, '0')} ${'the quick brown fox jumps over the lazy dog '.repeat(9)}`.trim(),
    ...(pinned.includes(index) ? { pinned: true } : {}),
  }));
}

/** A model that summarises (with `summary`) and otherwise answers with `step(input)`. */
function modelWith(step: (input: HarnessModelInput) => HarnessModelOutput, summary: HarnessModelOutput = { type: 'final_answer', text: 'SUMMARY', usage: { inputTokens: 900, outputTokens: 30, costUnits: 0.5 } }, contextWindow?: number) {
  return createScriptedModel((input) => (isSummaryCall(input) ? summary : step(input)), { contextWindow });
}

describe('harness.compact (on demand)', () => {
  it('folds older messages into one summary message, keeps the recent and the pinned ones, and returns the usage', async () => {
    const model = modelWith(() => ({ type: 'final_answer', text: 'unused' }));
    const input = history(12, [2]);
    const { history: after, receipt, error } = await createHarness({ model }).compact(input, { keepRecent: 3 });

    expect(error).toBeUndefined();
    expect(after.map((message) => message.text.slice(0, 3))).toEqual(['[Su', 'm02', 'm09', 'm10', 'm11']);
    expect(after[0]).toEqual({ role: 'user', text: `${SUMMARY_HEADING}SUMMARY` });
    expect(after[1]).toEqual(input[2]);
    expect(receipt).toMatchObject({ trigger: 'manual', compacted: true, messagesBefore: 12, messagesAfter: 5, summarized: 8, reasoningPartsDropped: 0, summaryUsage: { inputTokens: 900, outputTokens: 30, costUnits: 0.5 } });
    expect(receipt.bytesAfter).toBeLessThan(receipt.bytesBefore);
    expect(receipt.estimatedTokensAfter).toBeLessThan(receipt.estimatedTokensBefore);

    expect(model.calls).toHaveLength(1);
    const call = model.calls[0]!;
    expect(call).toMatchObject({ toolChoice: 'none', availableTools: [], transcript: [] });
    expect(call.history).toBeUndefined();
    expect(call.instructions.systemPrompt).toContain('Write at most 4000 characters.');
    expect(call.message.text).toContain('[user] m00');
    expect(call.message.text).toContain('[user] m08');
    expect(call.message.text).not.toContain('m02');
    expect(call.message.text).not.toContain('m09');
  });

  it('makes no call when nothing is older than the recent units', async () => {
    const model = modelWith(() => ({ type: 'final_answer', text: 'unused' }));
    const { history: after, receipt } = await createHarness({ model }).compact(history(4), { keepRecent: 4 });
    expect(model.calls).toHaveLength(0);
    expect(after).toEqual(history(4));
    expect(receipt).toMatchObject({ compacted: false, summarized: 0, messagesBefore: 4, messagesAfter: 4 });
  });

  it('cuts a long summary to maxSummaryChars, and never lets it grow the input', async () => {
    const model = modelWith(() => ({ type: 'final_answer', text: 'unused' }), { type: 'final_answer', text: 'z'.repeat(50_000) });
    const harness = createHarness({ model, compaction: { maxSummaryChars: 300 } });
    const cut = await harness.compact(history(10), { keepRecent: 2 });
    expect(cut.history[0]!.text).toHaveLength(SUMMARY_HEADING.length + 300);
    expect(cut.history[0]!.text.endsWith('…')).toBe(true);

    // Two short messages folded: the summary may not be longer than they were.
    const short: HarnessHistoryMessage[] = [{ role: 'user', text: 'hi' }, { role: 'assistant', text: 'hello' }, { role: 'user', text: 'bye' }];
    const tiny = await createHarness({ model }).compact(short, { keepRecent: 1 });
    expect(tiny.receipt.bytesAfter).toBeLessThanOrEqual(tiny.receipt.bytesBefore);
    expect(tiny.history).toEqual(short);
    expect(tiny.receipt).toMatchObject({ compacted: false, summarized: 0 });
  });

  it('compacts a transcript with the history: the summary leads the transcript, calls and results stay together', async () => {
    const model = modelWith(() => ({ type: 'final_answer', text: 'unused' }));
    const transcript: HarnessTranscriptItem[] = [];
    for (let step = 1; step <= 4; step += 1) {
      transcript.push({ type: 'assistant_step', iteration: step, outputType: 'tool_request', calls: [{ id: `c${step}`, name: 'read', input: { n: step } }], reasoning: [{ provider: 'anthropic', text: `thinking ${step}`, signature: `s${step}` }] });
      transcript.push({ type: 'tool_result', iteration: step, result: { callId: `c${step}`, toolName: 'read', status: 'success', output: `page ${step} `.repeat(200) } });
    }
    const { history: after, transcript: kept, receipt } = await createHarness({ model }).compact(history(3, [1]), { transcript, keepRecent: 2 });

    expect(after).toEqual([history(3, [1])[1]]);
    expect(kept!.map((item) => item.type)).toEqual(['compaction', 'assistant_step', 'tool_result', 'assistant_step', 'tool_result']);
    expect(kept![0]).toEqual({ type: 'compaction', iteration: 4, summary: 'SUMMARY', replacedItems: 4, replacedMessages: 2 });
    expect(kept!.filter((item) => item.type === 'assistant_step').map((item) => item.reasoning !== undefined)).toEqual([false, true]);
    expect(receipt).toMatchObject({ summarized: 6, reasoningPartsDropped: 3 });
    const rendered = model.calls[0]!.message.text;
    expect(rendered).toContain('[tool call read #c1] {"n":1}');
    expect(rendered).toContain('[tool result read #c2: success] page 2');
    expect(rendered).not.toContain('#c3');
  });

  it('a failed summary call leaves the input unchanged and says why', async () => {
    const failing = modelWith(() => ({ type: 'final_answer', text: 'unused' }), { type: 'invalid', kind: 'provider_error', reason: 'HTTP 429 from api.example.com', code: 'rate_limited', retryable: true, providerCode: 'rate_limit_exceeded' });
    const input = history(8);
    const failed = await createHarness({ model: failing }).compact(input, { keepRecent: 2 });
    expect(failed.history).toEqual(input);
    expect(failed.receipt).toMatchObject({ compacted: false, bytesAfter: failed.receipt.bytesBefore });
    expect(failed.error).toEqual({ code: 'rate_limited', message: 'The summary call of the compaction failed: HTTP 429 from api.example.com', retryable: true, source: 'compaction', providerCode: 'rate_limit_exceeded' });

    const toolCaller = modelWith(() => ({ type: 'final_answer', text: 'unused' }), { type: 'tool_request', calls: [{ id: 'x', name: 'search', input: {} }] });
    expect((await createHarness({ model: toolCaller }).compact(input, { keepRecent: 2 })).error).toMatchObject({ code: 'compaction_failed', retryable: false });

    const thrower = createScriptedModel(() => {
      throw new Error('socket hang up');
    });
    expect((await createHarness({ model: thrower }).compact(input, { keepRecent: 2 })).error).toMatchObject({ code: 'compaction_failed', message: expect.stringContaining('socket hang up') });
  });

  it('the summary call has its own time limit and follows the caller signal', async () => {
    const hanging = createScriptedModel(() => new Promise<HarnessModelOutput>(() => undefined));
    const timedOut = await createHarness({ model: hanging }).compact(history(8), { keepRecent: 2, timeoutMs: 20 });
    expect(timedOut.error).toMatchObject({ code: 'timeout_reached', retryable: true, source: 'compaction' });
    expect(timedOut.history).toEqual(history(8));

    const controller = new AbortController();
    controller.abort();
    const cancelled = await createHarness({ model: hanging }).compact(history(8), { keepRecent: 2, signal: controller.signal });
    expect(cancelled.error).toMatchObject({ code: 'cancelled', retryable: false });
  });

  it('rejects malformed input and options with HarnessConfigError, and a harness with a backend', async () => {
    const harness = createHarness({ model: modelWith(() => ({ type: 'final_answer', text: 'x' })) });
    await expect(harness.compact('not a history' as never)).rejects.toMatchObject({ code: 'HARNESS_ERR_INVALID_CONFIG', field: 'history' });
    await expect(harness.compact([{ role: 'system', text: 'x' }] as never)).rejects.toBeInstanceOf(HarnessConfigError);
    await expect(harness.compact(history(2), { keepRecent: 0 })).rejects.toMatchObject({ field: 'options.keepRecent' });
    await expect(harness.compact(history(2), { transcript: [{ type: 'nope' }] as never })).rejects.toMatchObject({ field: 'options.transcript' });
    await expect(harness.compact(history(2), { timeoutMs: -1 })).rejects.toMatchObject({ field: 'options.timeoutMs' });
    const hostile = [{ role: 'user', get text(): string { throw new Error('boom'); } }];
    await expect(harness.compact(hostile as never)).rejects.toMatchObject({ field: 'history' });
    const backend = createHarness({ backend: createFakeExecutionAdapter({ steps: [] }) });
    await expect(backend.compact(history(2))).rejects.toMatchObject({ field: 'model' });
  });
});

describe('compaction in a turn', () => {
  it('compacts the transcript before a step that would pass the threshold: tool steps folded whole, the summary first', async () => {
    const tools = createFakeToolRegistry({ read: ({ page }) => `page ${String(page)}: ${'lorem ipsum dolor sit amet '.repeat(120)}` });
    let page = 0;
    const model = modelWith(
      (input) => (input.iteration < 6 ? { type: 'tool_request', calls: [{ id: `c${String((page += 1))}`, name: 'read', input: { page } }] } : { type: 'final_answer', text: 'Read them all.' }),
      undefined,
      4_000,
    );
    const trace = memoryTraceSink();
    const result = await createHarness({ model, tools, trace, compaction: { keepRecent: 2 } }).runTurn(createTurnInput());

    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Read them all.' } });
    const summaries = model.calls.filter(isSummaryCall);
    expect(summaries.length).toBeGreaterThanOrEqual(1);
    for (const call of model.calls.filter((input) => !isSummaryCall(input))) {
      const ids = new Set(call.transcript.flatMap((item) => (item.type === 'assistant_step' ? (item.calls ?? []).map((toolCall) => toolCall.id) : [])));
      for (const item of call.transcript) if (item.type === 'tool_result') expect(ids.has(item.result.callId)).toBe(true);
    }
    const afterFirst = model.calls[model.calls.indexOf(summaries[0]!) + 1]!;
    expect(afterFirst.transcript[0]).toMatchObject({ type: 'compaction', summary: 'SUMMARY' });
    expect(result.transcript[0]!.type).toBe('compaction');
    expect(result.usage.modelCalls).toBe(6 + summaries.length);
    expect(result.usage.totalInputTokens).toBe(900 * summaries.length);
    const receipts = result.metadata?.compaction?.receipts ?? [];
    expect(receipts).toHaveLength(summaries.length);
    expect(receipts.every((receipt) => receipt.trigger === 'threshold' && receipt.bytesAfter < receipt.bytesBefore)).toBe(true);
    expect(trace.events.filter((event) => event.type === 'history_compacted')).toHaveLength(summaries.length);
  });

  it('drops old reasoning first: when that is enough, no summary call is made', async () => {
    const reasoning = [{ provider: 'anthropic', text: 'deliberating '.repeat(900), signature: 'sig' }];
    let step = 0;
    const model = modelWith(
      () => ((step += 1) < 4 ? { type: 'tool_request', calls: [{ id: `c${String(step)}`, name: 'noop', input: { step } }], reasoning } : { type: 'final_answer', text: 'done' }),
      undefined,
      5_000,
    );
    const result = await createHarness({ model, tools: createFakeToolRegistry({ noop: () => 'ok' }) }).runTurn(createTurnInput());

    expect(result.outcome).toBe('completed');
    expect(model.calls.filter(isSummaryCall)).toHaveLength(0);
    const receipt = result.metadata?.compaction?.receipts[0];
    expect(receipt).toMatchObject({ trigger: 'threshold', compacted: true, summarized: 0 });
    expect(receipt!.reasoningPartsDropped).toBeGreaterThan(0);
    expect(receipt!.summaryUsage).toBeUndefined();
    const last = model.calls.at(-1)!;
    expect(last.transcript.filter((item) => item.type === 'assistant_step' && item.reasoning !== undefined)).toHaveLength(1);
  });

  it('never summarises a summary alone: an overflow right after a compaction with nothing new to fold ends the turn', async () => {
    const overflow: HarnessModelOutput = { type: 'invalid', kind: 'provider_error', reason: 'prompt is too long', code: 'context_overflow', retryable: false };
    const model = modelWith(() => overflow, undefined, 1_000);
    const result = await createHarness({ model }).runTurn(createTurnInput({ history: history(12) }));

    expect(model.calls.filter(isSummaryCall)).toHaveLength(1);
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'provider_error', error: { code: 'context_overflow', retryable: false } });
    expect(result.error?.message).toContain('Nothing in the conversation was old enough to compact.');
    expect(result.metadata?.compaction?.receipts).toMatchObject([{ trigger: 'threshold', compacted: true }]);
  });

  it('counts the summary call in the budget: a spent budget ends the turn budget_reached before it', async () => {
    const model = modelWith(() => ({ type: 'final_answer', text: 'answer', usage: { costUnits: 1 } }), undefined, 3_000);
    const spent = await createHarness({ model, limits: { budgetLimit: 0 } }).runTurn(createTurnInput({ history: history(30) }));
    expect(spent).toMatchObject({ outcome: 'deferred', stopReason: 'budget_reached' });
    expect(model.calls).toHaveLength(0);

    const paid = await createHarness({ model: modelWith(() => ({ type: 'final_answer', text: 'answer', usage: { costUnits: 1 } }), undefined, 3_000), limits: { budgetLimit: 10 } }).runTurn(
      createTurnInput({ history: history(30) }),
    );
    expect(paid).toMatchObject({ outcome: 'completed', usage: { modelCalls: 2, totalCostUnits: 1.5 } });
  });

  it('a failed summary call ends the turn failed with its cause, source compaction', async () => {
    const model = modelWith(() => ({ type: 'final_answer', text: 'never' }), { type: 'invalid', kind: 'provider_error', reason: 'HTTP 429', code: 'rate_limited', retryable: true }, 3_000);
    const trace = memoryTraceSink();
    const result = await createHarness({ model, trace }).runTurn(createTurnInput({ history: history(30) }));
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'provider_error', error: { code: 'rate_limited', retryable: true, source: 'compaction' } });
    expect(result.metadata?.compaction?.receipts).toMatchObject([{ trigger: 'threshold', compacted: false }]);
    expect(result.metadata?.compaction?.history).toEqual(history(30));
    expect(trace.events.find((event) => event.type === 'history_compacted')).toMatchObject({ compacted: false });
  });

  it('uses the tokenizer passed in; one that returns nonsense fails the turn runtime_error', async () => {
    const countCharacters = (text: string) => text.length;
    const steps = () => modelWith(() => ({ type: 'final_answer', text: 'ok' }), undefined, 10_000);
    const byBytes = steps();
    await createHarness({ model: byBytes }).runTurn(createTurnInput({ history: history(20) }));
    expect(byBytes.calls.filter(isSummaryCall)).toHaveLength(0);
    const byCharacters = steps();
    await createHarness({ model: byCharacters, compaction: { estimateTokens: countCharacters } }).runTurn(createTurnInput({ history: history(20) }));
    expect(byCharacters.calls.filter(isSummaryCall)).toHaveLength(1);

    const broken = await createHarness({ model: steps(), compaction: { estimateTokens: () => Number.NaN } }).runTurn(createTurnInput());
    expect(broken).toMatchObject({ outcome: 'failed', stopReason: 'runtime_error', error: { source: 'compaction', message: expect.stringContaining('estimateTokens returned NaN') } });
  });

  it('is off with auto: false, and off without a window', async () => {
    const off = modelWith(() => ({ type: 'final_answer', text: 'ok' }), undefined, 3_000);
    await createHarness({ model: off, compaction: { auto: false } }).runTurn(createTurnInput({ history: history(30) }));
    const unknown = modelWith(() => ({ type: 'final_answer', text: 'ok' }));
    await createHarness({ model: unknown }).runTurn(createTurnInput({ history: history(30) }));
    expect([...off.calls, ...unknown.calls].filter(isSummaryCall)).toHaveLength(0);
  });

  it('checks the compaction config and the model window', () => {
    const model = createScriptedModel([]);
    const bad: [unknown, string][] = [
      [{ threshold: 0 }, 'compaction.threshold'],
      [{ threshold: 1.5 }, 'compaction.threshold'],
      [{ keepRecent: 0 }, 'compaction.keepRecent'],
      [{ maxSummaryChars: 2.5 }, 'compaction.maxSummaryChars'],
      [{ auto: 'yes' }, 'compaction.auto'],
      [{ instructions: '' }, 'compaction.instructions'],
      [{ estimateTokens: 4 }, 'compaction.estimateTokens'],
      ['on', 'compaction'],
    ];
    for (const [compaction, field] of bad) expect(() => createHarness({ model, compaction: compaction as never })).toThrow(expect.objectContaining({ field }));
    expect(() => createHarness({ model: { ...model, contextWindow: -5 } })).toThrow(expect.objectContaining({ field: 'model.contextWindow' }));
    const throwing = { nextStep: model.nextStep, get contextWindow(): number { throw new Error('no'); } };
    expect(() => createHarness({ model: throwing })).toThrow(expect.objectContaining({ field: 'model.contextWindow' }));
  });
});
