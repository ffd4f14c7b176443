import * as v from '../../shared/validation/index.js';
import { describeError } from '../../shared/describe-error.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import { turnInputPartSchemas } from '../../shared/schemas/turn-input-part-schemas.js';
import type { HarnessHistoryMessage } from '../../shared/types/turn-input.js';
import { toPlainJson } from '../continuation/to-plain-json.js';
import { HarnessConfigError } from '../errors/harness-config-error.js';
import { readModelOutput } from '../internal/read-model-output.js';
import { createTurnSignal, isTurnInterrupted, raceSignal } from '../internal/turn-signal.js';
import type { HarnessServices } from '../internal/run-context.js';
import { continuationSchemas } from '../schemas/continuation-schema.js';
import type { HarnessCompactOptions, HarnessCompactResult } from '../types/compaction.js';
import type { HarnessTranscriptItem } from '../types/transcript.js';
import { compactConversation, type SummaryOutcome } from './compact-conversation.js';
import { compactionBudgets, resolveCompactionSettings } from './resolve-compaction.js';
import { readSummary, summaryModelInput } from './summarize-with-model.js';

/** The default time limit of a standalone summary call. */
const DEFAULT_COMPACT_TIMEOUT_MS = 60_000;
/** The largest history (and transcript) `compact` reads, as compact JSON. */
const MAX_COMPACT_INPUT_CHARS = 64 * 1024 * 1024;
const MAX_COMPACT_DEPTH = 56;

/**
 * `harness.compact(history, options)`: one summary call with its own time limit, outside any
 * turn. Resolves whatever the model does (a failed summary leaves the input unchanged and says why
 * in `error`); rejects only with `HarnessConfigError` for malformed input or options, or a harness
 * without a model.
 */
export async function compactStandalone(services: HarnessServices, rawHistory: unknown, rawOptions: unknown): Promise<HarnessCompactResult> {
  const model = services.model;
  if (model === undefined) throw new HarnessConfigError('harness.compact needs a harness with a model; a backend compacts its own context.', { field: 'model' });
  const options = readOptions(rawOptions);
  const history = readPlain(rawHistory, 'history', v.array(turnInputPartSchemas().historyMessageSchema)) as HarnessHistoryMessage[];
  const transcript =
    options.transcript === undefined
      ? undefined
      : (readPlain(options.transcript, 'options.transcript', v.array(continuationSchemas().transcriptItemSchema)) as HarnessTranscriptItem[]);
  const settings = resolveCompactionSettings(options, 'options', services.compaction.settings);
  const timeoutMs = options.timeoutMs ?? DEFAULT_COMPACT_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new HarnessConfigError('options.timeoutMs must be a positive number of milliseconds.', { field: 'options.timeoutMs' });
  }
  const { window, threshold } = services.compaction;
  const turnSignal = createTurnSignal(options.signal, timeoutMs);
  const startedAt = services.clock.now();
  const summarize = async (text: string): Promise<SummaryOutcome> => {
    const input = summaryModelInput(settings, text, {
      identity: { assistantId: 'compaction', turnId: 'compaction' },
      signal: turnSignal.signal,
      deadline: turnSignal.deadline,
      iteration: 1,
      toolCallCount: 0,
      elapsedMs: Math.max(0, services.clock.now() - startedAt),
      now: new Date(services.clock.now()).toISOString(),
    });
    try {
      const raw = await raceSignal(() => model.nextStep(input), turnSignal.signal);
      return readSummary(readModelOutput(raw, { maxCalls: 0, maxToolCalls: 0 }));
    } catch (error) {
      const interrupted = isTurnInterrupted(error) ? error.reason : undefined;
      const code = interrupted === undefined ? 'compaction_failed' : interrupted === 'timeout' ? 'timeout_reached' : 'cancelled';
      const message = interrupted === undefined ? `The summary call of the compaction threw: ${describeError(error)}` : `The summary call of the compaction was ${interrupted === 'timeout' ? 'timed out' : 'cancelled'}.`;
      return { ok: false, stopReason: 'runtime_error', error: { code, message, retryable: interrupted === 'timeout', source: 'compaction' } };
    }
  };
  try {
    const outcome = await compactConversation(history, transcript ?? [], {
      trigger: 'manual',
      settings,
      iteration: transcript?.reduce((last, item) => Math.max(last, item.iteration), 0) ?? 0,
      ...compactionBudgets(window, threshold, settings),
      summarize,
    });
    if (!outcome.ok) return { history, ...(transcript === undefined ? {} : { transcript }), receipt: outcome.receipt, error: outcome.error };
    return { history: outcome.history, ...(transcript === undefined ? {} : { transcript: outcome.transcript }), receipt: outcome.receipt };
  } finally {
    turnSignal.dispose();
  }
}

function readOptions(raw: unknown): HarnessCompactOptions {
  if (raw === undefined) return {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new HarnessConfigError('compact options must be an object.', { field: 'options' });
  const options = raw as HarnessCompactOptions;
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    throw new HarnessConfigError('options.signal must be an AbortSignal.', { field: 'options.signal' });
  }
  return options;
}

/** A plain, checked copy of caller input. @throws HarnessConfigError naming `field`. */
function readPlain<T>(raw: unknown, field: string, schema: v.Schema<T>): T {
  const copied = toPlainJson(raw, { maxBytes: MAX_COMPACT_INPUT_CHARS, maxDepth: MAX_COMPACT_DEPTH });
  if (!copied.ok) throw new HarnessConfigError(`Invalid ${field}: ${copied.reason}.`, { field });
  const parsed = schema.safeParse(copied.value);
  if (!parsed.success) throw new HarnessConfigError(`Invalid ${field}: ${formatIssues(parsed.error.issues, field)}.`, { field });
  return parsed.data;
}
