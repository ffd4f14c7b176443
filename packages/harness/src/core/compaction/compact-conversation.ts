import type { HarnessHistoryMessage } from '../../shared/types/turn-input.js';
import type { HarnessUsage } from '../../shared/types/usage.js';
import type { HarnessCompactionReceipt } from '../types/compaction.js';
import type { HarnessStopReason } from '../types/outcome.js';
import type { HarnessResultError } from '../types/result-error.js';
import type { HarnessTranscriptItem } from '../types/transcript.js';
import { historyUnits, transcriptUnits, type CompactionUnit } from './compaction-units.js';
import { countHistoryAndTranscript, countTokens, historyAndTranscriptBytes } from './estimate-tokens.js';
import { renderForSummary } from './render-for-summary.js';
import type { ResolvedCompactionSettings } from './resolve-compaction.js';

/** How a summary history message starts. */
export const SUMMARY_HEADING = '[Summary of the earlier conversation, compacted to fit the context window]\n';

/** What the summary call gave: the summary, or why there is none. */
export type SummaryOutcome =
  | { ok: true; text: string; usage?: HarnessUsage | undefined }
  | { ok: false; error: HarnessResultError; stopReason: HarnessStopReason; usage?: HarnessUsage | undefined };

/** Everything `compactConversation` needs besides the conversation. */
export interface CompactionRequest {
  trigger: HarnessCompactionReceipt['trigger'];
  settings: ResolvedCompactionSettings;
  /** The iteration written on a `compaction` transcript item. */
  iteration: number;
  /** The most estimated tokens the kept units may take; the newest unit is kept whatever its size. */
  maxKeptTokens: number;
  /** The most characters of the conversation the summary call is given. */
  maxSummaryInputChars: number;
  /** Whether dropping old reasoning alone is enough (then no summary call is made). */
  enoughWithoutSummary?: ((transcript: readonly HarnessTranscriptItem[]) => boolean) | undefined;
  /** Makes the summary of the rendered text. */
  summarize(text: string): Promise<SummaryOutcome>;
}

/** The compacted conversation and its receipt; or why it could not be compacted (nothing changed). */
export type CompactionOutcome =
  | { ok: true; history: HarnessHistoryMessage[]; transcript: HarnessTranscriptItem[]; receipt: HarnessCompactionReceipt }
  | { ok: false; error: HarnessResultError; stopReason: HarnessStopReason; receipt: HarnessCompactionReceipt };

/**
 * Compacts a conversation: drops the model reasoning of every step but the newest, then — unless
 * that is enough — folds everything but the most recent units and the pinned messages into one
 * summary made by `request.summarize`. A tool call and its result are always kept or folded
 * together (see `transcriptUnits`). The summary stands first in the history, or — when transcript
 * items were folded too — first in the transcript as a `compaction` item. The result is never larger
 * than the input (UTF-8 bytes of the history and transcript as JSON): a summary is cut to fit.
 */
export async function compactConversation(
  history: readonly HarnessHistoryMessage[],
  transcript: readonly HarnessTranscriptItem[],
  request: CompactionRequest,
): Promise<CompactionOutcome> {
  const { estimateTokens } = request.settings;
  const before = {
    messagesBefore: history.length + transcript.length,
    bytesBefore: historyAndTranscriptBytes(history, transcript),
    estimatedTokensBefore: countHistoryAndTranscript(history, transcript, estimateTokens),
  };
  const dropped = dropOldReasoning(transcript);
  const receiptFor = (next: { history: readonly HarnessHistoryMessage[]; transcript: readonly HarnessTranscriptItem[] }, summarized: number, usage?: HarnessUsage): HarnessCompactionReceipt => ({
    trigger: request.trigger,
    compacted: summarized > 0 || dropped.count > 0,
    ...before,
    messagesAfter: next.history.length + next.transcript.length,
    bytesAfter: historyAndTranscriptBytes(next.history, next.transcript),
    estimatedTokensAfter: countHistoryAndTranscript(next.history, next.transcript, estimateTokens),
    summarized,
    reasoningPartsDropped: dropped.count,
    ...(usage === undefined ? {} : { summaryUsage: usage }),
  });
  const unchanged = { history: [...history], transcript: dropped.transcript };
  if (dropped.count > 0 && request.enoughWithoutSummary?.(dropped.transcript) === true) {
    return { ok: true, ...unchanged, receipt: receiptFor(unchanged, 0) };
  }
  const folded = chooseFolded(history, dropped.transcript, request);
  const foldedHistory = history.filter((_, index) => folded.history.has(index));
  const foldedItems = dropped.transcript.slice(0, folded.transcriptEnd);
  // Only an earlier summary to fold: summarising it again would gain nothing.
  const onlySummaries = foldedHistory.every((message) => message.text.startsWith(SUMMARY_HEADING)) && foldedItems.every((item) => item.type === 'compaction');
  if (onlySummaries) return { ok: true, ...unchanged, receipt: receiptFor(unchanged, 0) };

  const summary = await request.summarize(renderForSummary(foldedHistory, foldedItems, request.maxSummaryInputChars));
  if (!summary.ok) {
    const kept = { history: [...history], transcript: [...transcript] };
    const receipt = { ...receiptFor(kept, 0, summary.usage), compacted: false, reasoningPartsDropped: 0 };
    return { ok: false, error: summary.error, stopReason: summary.stopReason, receipt };
  }
  const keptHistory = history.filter((_, index) => !folded.history.has(index));
  const build = (text: string) =>
    folded.transcriptEnd === 0
      ? { history: [{ role: 'user' as const, text: `${SUMMARY_HEADING}${text}` }, ...keptHistory], transcript: dropped.transcript }
      : {
          history: keptHistory,
          transcript: [
            { type: 'compaction' as const, iteration: request.iteration, summary: text, replacedItems: folded.transcriptEnd, replacedMessages: folded.history.size },
            ...dropped.transcript.slice(folded.transcriptEnd),
          ],
        };
  const fitted = fitSummary(cut(summary.text.trim(), request.settings.maxSummaryChars), build, before.bytesBefore);
  if (fitted === undefined) return { ok: true, ...unchanged, receipt: receiptFor(unchanged, 0, summary.usage) };
  return { ok: true, ...fitted, receipt: receiptFor(fitted, folded.history.size + folded.transcriptEnd, summary.usage) };
}

/** The transcript without the reasoning of its steps, except the newest step's (a provider may need it to continue). */
function dropOldReasoning(transcript: readonly HarnessTranscriptItem[]): { transcript: HarnessTranscriptItem[]; count: number } {
  let newest = -1;
  for (let index = transcript.length - 1; index >= 0 && newest < 0; index -= 1) if (transcript[index]!.type === 'assistant_step') newest = index;
  let count = 0;
  const kept = transcript.map((item, index) => {
    if (item.type !== 'assistant_step' || item.reasoning === undefined || index === newest) return item;
    count += item.reasoning.length;
    const { reasoning: _reasoning, ...rest } = item;
    return rest;
  });
  return { transcript: kept, count };
}

/**
 * What to fold: walking back from the newest unit, units are kept while fewer than `keepRecent`
 * are and they fit `maxKeptTokens` (the newest always); every earlier unit that is not pinned is
 * folded. Transcript units come after every history message, so folded transcript items are always
 * a prefix of the transcript (`transcriptEnd` items).
 */
function chooseFolded(
  history: readonly HarnessHistoryMessage[],
  transcript: readonly HarnessTranscriptItem[],
  request: CompactionRequest,
): { history: Set<number>; transcriptEnd: number } {
  const units = [...historyUnits(history), ...transcriptUnits(transcript)];
  const tokensOf = (unit: CompactionUnit) =>
    unit.source === 'history'
      ? countTokens(request.settings.estimateTokens, history[unit.start]!.text)
      : countTokens(request.settings.estimateTokens, JSON.stringify(transcript.slice(unit.start, unit.end)));
  let keptFrom = units.length;
  let kept = 0;
  let keptTokens = 0;
  while (keptFrom > 0 && kept < request.settings.keepRecent) {
    const unit = units[keptFrom - 1]!;
    if (!unit.pinned) {
      const tokens = tokensOf(unit);
      if (kept > 0 && keptTokens + tokens > request.maxKeptTokens) break;
      kept += 1;
      keptTokens += tokens;
    }
    keptFrom -= 1;
  }
  const foldedHistory = new Set<number>();
  let transcriptEnd = 0;
  for (const unit of units.slice(0, keptFrom)) {
    if (unit.pinned) continue;
    if (unit.source === 'history') foldedHistory.add(unit.start);
    else transcriptEnd = unit.end;
  }
  return { history: foldedHistory, transcriptEnd };
}

/**
 * The conversation `build` makes with the longest start of `summary` that keeps it within
 * `maxBytes`, or `undefined` when not even a short summary does (nothing is then worth folding).
 */
function fitSummary<T extends { history: readonly HarnessHistoryMessage[]; transcript: readonly HarnessTranscriptItem[] }>(
  summary: string,
  build: (text: string) => T,
  maxBytes: number,
): T | undefined {
  let text = summary;
  // Every character removed takes at least one byte from the JSON, so this ends within a few rounds.
  for (let round = 0; round < 8 && text !== ''; round += 1) {
    const built = build(text);
    const over = historyAndTranscriptBytes(built.history, built.transcript) - maxBytes;
    if (over <= 0) return built;
    text = cut(text, text.length - over - 4);
  }
  return undefined;
}

/** `text` in at most `maxChars` characters, ending in `…` when cut (never inside a surrogate pair). */
function cut(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  if (maxChars <= 1) return '';
  let end = maxChars - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end).trimEnd()}…`;
}
