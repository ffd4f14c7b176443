import { turnIdentity } from '../../shared/turn-identity.js';
import { compactConversation, type SummaryOutcome } from '../compaction/compact-conversation.js';
import { estimateStepTokens } from '../compaction/estimate-tokens.js';
import { compactionBudgets } from '../compaction/resolve-compaction.js';
import { readSummary, summaryModelInput } from '../compaction/summarize-with-model.js';
import { outputFormat } from '../output/resolve-output.js';
import type { HarnessCompactionReceipt } from '../types/compaction.js';
import type { HarnessInvalidOutput, HarnessModelAdapter, HarnessModelOutput } from '../types/model.js';
import type { HarnessTranscriptItem } from '../types/transcript.js';
import type { RunEnding } from './finish-run.js';
import { readModelOutput } from './read-model-output.js';
import { addUsage, elapsedMs, transcriptIteration, type RunContext } from './run-context.js';
import { raceSignal } from './turn-signal.js';

/** An output that says the request was larger than the model takes: the provider's context overflow, or `maxInputBytes`. */
export function isContextOverflow(output: HarnessModelOutput): output is HarnessInvalidOutput {
  return output.type === 'invalid' && (output.code === 'context_overflow' || output.kind === 'input_too_large');
}

/**
 * Before a model step: when automatic compaction is on and the step's estimated input passes
 * `threshold` of the model's context window, compacts the turn's history and transcript. Returns
 * the ending when the compaction's summary call failed (or the budget is spent).
 */
export async function compactBeforeStep(run: RunContext): Promise<RunEnding | undefined> {
  const auto = run.services.compaction.auto;
  if (auto === undefined) return undefined;
  run.phase = 'compaction';
  const limit = auto.threshold * auto.window;
  if (estimateRunStep(run, run.transcript) <= limit) return undefined;
  const outcome = await compactRun(run, 'threshold', (transcript) => estimateRunStep(run, transcript) <= limit);
  return outcome === 'compacted' || outcome === 'unchanged' ? undefined : outcome;
}

/**
 * After the provider answered a step with its context-overflow error: compacts once and returns
 * `'retry'`; or the ending when the summary failed; or the overflow to end the turn with, its reason
 * saying why nothing was compacted (compaction is off, or nothing was old enough).
 */
export async function compactAfterOverflow(run: RunContext, output: HarnessInvalidOutput): Promise<'retry' | RunEnding | HarnessInvalidOutput> {
  if (run.services.compaction.auto === undefined) {
    return { ...output, reason: `${output.reason} (Automatic compaction is off: give the model its contextWindow, or shorten the history with harness.compact, and run the turn again.)` };
  }
  run.phase = 'compaction';
  const outcome = await compactRun(run, 'overflow', undefined, summaryInputCap(output));
  if (outcome === 'compacted') return 'retry';
  if (outcome === 'unchanged') return { ...output, reason: `${output.reason} (Nothing in the conversation was old enough to compact.)` };
  return outcome;
}

/**
 * The most characters the summary call may read after an overflow: half of what the refused
 * request was allowed (`maxInputBytes`) or was (`requestBytes`), so the summary call fits where
 * the step did not.
 */
function summaryInputCap(output: HarnessInvalidOutput): number | undefined {
  const { maxInputBytes, requestBytes } = output.metadata ?? {};
  const size = typeof maxInputBytes === 'number' ? maxInputBytes : typeof requestBytes === 'number' && requestBytes > 0 ? requestBytes : undefined;
  return size === undefined ? undefined : Math.floor(size / 2);
}

/** Compacts the run's conversation in place, recording the receipt; the ending when it failed. */
async function compactRun(
  run: RunContext,
  trigger: HarnessCompactionReceipt['trigger'],
  enoughWithoutSummary?: (transcript: readonly HarnessTranscriptItem[]) => boolean,
  maxSummaryInputChars = Infinity,
): Promise<'compacted' | 'unchanged' | RunEnding> {
  const { settings, auto } = run.services.compaction;
  const iteration = transcriptIteration(run);
  const startedAt = run.services.clock.now();
  const budgets = compactionBudgets(auto?.window, auto?.threshold ?? 1, settings);
  const outcome = await compactConversation(run.input.history ?? [], run.transcript, {
    trigger,
    settings,
    iteration,
    maxKeptTokens: budgets.maxKeptTokens,
    maxSummaryInputChars: Math.min(budgets.maxSummaryInputChars, maxSummaryInputChars),
    enoughWithoutSummary,
    summarize: (text) => summarizeInRun(run, text),
  });
  const receipt: HarnessCompactionReceipt = { ...outcome.receipt, iteration };
  if (!outcome.ok) {
    record(run, receipt, startedAt);
    if (outcome.stopReason === 'budget_reached') return { stopReason: 'budget_reached' };
    const { code, message, source, retryable, providerCode } = outcome.error;
    return {
      stopReason: outcome.stopReason,
      metadata: { error: { code, message, source, retryable, ...(providerCode === undefined ? {} : { providerCode }) } },
    };
  }
  if (!receipt.compacted) return 'unchanged';
  run.input = { ...run.input, history: outcome.history };
  run.transcript = outcome.transcript;
  record(run, receipt, startedAt);
  return 'compacted';
}

function record(run: RunContext, receipt: HarnessCompactionReceipt, startedAt: number): void {
  run.compactions.push(receipt);
  const { iteration: _iteration, ...fields } = receipt;
  run.trace.emit({
    type: 'history_compacted',
    ...fields,
    latencyMs: run.services.clock.now() - startedAt,
    ...(run.services.compaction.auto === undefined ? {} : { contextWindow: run.services.compaction.auto.window }),
  });
}

/**
 * The summary call, inside the turn: it counts as a model call in the turn's usage and budget
 * (a spent budget ends the turn `budget_reached` before it), runs within the turn's deadline, and
 * is never streamed.
 */
async function summarizeInRun(run: RunContext, text: string): Promise<SummaryOutcome> {
  const { limits, clock, compaction } = run.services;
  const spent = run.usage.totalCostUnits - run.costAtStart;
  if (limits.budgetLimit !== undefined && spent >= limits.budgetLimit) {
    return { ok: false, stopReason: 'budget_reached', error: { code: 'budget_reached', message: 'The budget was spent before the compaction.', retryable: false, source: 'compaction' } };
  }
  const model = run.services.model as HarnessModelAdapter;
  const input = summaryModelInput(compaction.settings, text, {
    identity: turnIdentity(run.input),
    signal: run.turnSignal.signal,
    deadline: run.turnSignal.deadline,
    iteration: run.counters.iteration,
    toolCallCount: run.counters.toolCallCount,
    elapsedMs: elapsedMs(run),
    remainingBudget: limits.budgetLimit === undefined ? undefined : Math.max(0, limits.budgetLimit - spent),
    now: new Date(clock.now()).toISOString(),
  });
  run.usage.modelCalls += 1;
  const startedAt = clock.now();
  const raw = await raceSignal(() => model.nextStep(input), run.turnSignal.signal);
  const output = readModelOutput(raw, { maxCalls: 0, maxToolCalls: 0 });
  addUsage(run.usage, output.usage, clock.now() - startedAt);
  const receipt = output.metadata?.receipt;
  if (typeof receipt === 'object' && receipt !== null && !Array.isArray(receipt)) run.modelReceipts.push(receipt as Record<string, unknown>);
  return readSummary(output);
}

/** The estimated input tokens of the run's next step with `transcript`. */
function estimateRunStep(run: RunContext, transcript: readonly HarnessTranscriptItem[]): number {
  const { input } = run;
  return estimateStepTokens(
    {
      instructions: input.instructions,
      context: input.context,
      history: input.history,
      message: input.message,
      transcript,
      availableTools: run.availableTools,
      output: run.output === undefined ? undefined : outputFormat(run.output),
    },
    run.services.compaction.settings.estimateTokens,
  );
}
