import type { TurnIdentity } from '../../shared/turn-identity.js';
import type { HarnessModelInput, HarnessModelOutput } from '../types/model.js';
import type { SummaryOutcome } from './compact-conversation.js';
import type { ResolvedCompactionSettings } from './resolve-compaction.js';

/** Where the summary call runs: the turn's identity, signal and counters (or a standalone call's). */
export interface SummaryCallContext {
  identity: TurnIdentity;
  signal: AbortSignal;
  deadline?: number | undefined;
  iteration: number;
  toolCallCount: number;
  elapsedMs: number;
  remainingBudget?: number | undefined;
  /** ISO-8601 time stamped on the summary request's message. */
  now: string;
}

/** The input of the summary call: the rendered conversation as the only message, no tools, no history. */
export function summaryModelInput(settings: ResolvedCompactionSettings, text: string, context: SummaryCallContext): HarnessModelInput {
  return {
    ...context.identity,
    message: { id: 'compaction', text, receivedAt: context.now },
    instructions: { systemPrompt: `${settings.instructions} Write at most ${settings.maxSummaryChars} characters.` },
    toolChoice: 'none',
    transcript: [],
    availableTools: [],
    iteration: context.iteration,
    toolCallCount: context.toolCallCount,
    elapsedMs: context.elapsedMs,
    remainingBudget: context.remainingBudget,
    signal: context.signal,
    deadline: context.deadline,
  };
}

/**
 * The summary a model output gives: the text of a non-empty `final_answer`. A failed call keeps
 * its code (`rate_limited`, `context_overflow` …) and ends as a `provider_error`; any other output
 * is `compaction_failed`.
 */
export function readSummary(output: HarnessModelOutput): SummaryOutcome {
  const usage = output.usage === undefined ? {} : { usage: output.usage };
  if (output.type === 'final_answer' && output.text.trim() !== '') return { ok: true, text: output.text, ...usage };
  if (output.type === 'invalid') {
    const provider = output.kind === 'provider_error';
    return {
      ok: false,
      stopReason: provider ? 'provider_error' : 'model_invalid_response',
      error: {
        code: provider ? (output.code ?? 'provider_error') : 'compaction_failed',
        message: `The summary call of the compaction failed: ${output.reason}`,
        retryable: provider ? output.retryable === true : false,
        source: 'compaction',
        ...(output.providerCode === undefined ? {} : { providerCode: output.providerCode }),
      },
      ...usage,
    };
  }
  const answered = output.type === 'final_answer' ? 'an empty answer' : `a ${output.type} output`;
  return {
    ok: false,
    stopReason: 'model_invalid_response',
    error: { code: 'compaction_failed', message: `The summary call of the compaction gave ${answered} instead of a summary.`, retryable: false, source: 'compaction' },
    ...usage,
  };
}
