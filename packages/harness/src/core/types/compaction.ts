import type { HarnessResultError } from './result-error.js';
import type { HarnessTranscriptItem } from './transcript.js';
import type { HarnessHistoryMessage } from '../../shared/types/turn-input.js';
import type { HarnessUsage } from '../../shared/types/usage.js';

/**
 * Counts the tokens of a text, for the compaction estimate. Synchronous; it must return a finite
 * number of 0 or more (anything else fails the turn `runtime_error`). Pass your model's tokenizer
 * here; the harness ships none.
 */
export type HarnessTokenEstimator = (text: string) => number;

/** How compaction summarises, shared by `createHarness({ compaction })` and `harness.compact()`. */
export interface HarnessCompactionSettings {
  /**
   * Units kept word for word at the end of the conversation: a history message, or one model step
   * of the turn with its tool calls and their results. Fewer are kept when they alone would fill
   * half of `threshold` of the window; the newest is always kept.
   * @default 4
   */
  keepRecent?: number | undefined;
  /**
   * The longest summary, in characters; a longer one is cut. A summary is also never longer than
   * what it replaces, so compaction never grows the input.
   * @default 4000
   */
  maxSummaryChars?: number | undefined;
  /**
   * The system prompt of the summary call.
   * @default a prompt asking for a faithful summary that keeps names, numbers, decisions, open tasks and tool outcomes
   */
  instructions?: string | undefined;
  /**
   * Counts tokens for the estimate.
   * @default UTF-8 bytes / 4, rounded up (see docs/context.md)
   */
  estimateTokens?: HarnessTokenEstimator | undefined;
}

/** `createHarness({ compaction })`: automatic compaction of a turn's input (model-driven harnesses only). */
export interface HarnessCompactionConfig extends HarnessCompactionSettings {
  /**
   * `false` turns automatic compaction off. Otherwise it is on exactly when the model reports its
   * `contextWindow` (no guessing when it does not).
   * @default true
   */
  auto?: boolean | undefined;
  /**
   * The share of the context window a step's estimated input may fill; above it the turn compacts
   * before calling the model. Between 0 (exclusive) and 1.
   * @default 0.8
   */
  threshold?: number | undefined;
}

/** Options of `harness.compact(history, options)`. */
export interface HarnessCompactOptions extends HarnessCompactionSettings {
  /** The turn's transcript (e.g. `result.transcript`), compacted with the history. */
  transcript?: HarnessTranscriptItem[] | undefined;
  /** Aborting it stops the summary call; the result then keeps the input unchanged. */
  signal?: AbortSignal | undefined;
  /**
   * Time limit of the summary call, in milliseconds.
   * @default 60000
   */
  timeoutMs?: number | undefined;
}

/** What one compaction did. */
export interface HarnessCompactionReceipt {
  /**
   * Why it ran: `manual` (`harness.compact`), `threshold` (the step's estimated input passed
   * `compaction.threshold` of the window) or `overflow` (the provider answered with its
   * context-overflow error, or the request was over `maxInputBytes`).
   */
  trigger: 'manual' | 'threshold' | 'overflow';
  /** Whether anything changed; `false` when nothing was old enough to fold away. */
  compacted: boolean;
  /** In a turn: the step (iteration) before whose model call it ran. */
  iteration?: number | undefined;
  /** History messages plus transcript items, before and after. */
  messagesBefore: number;
  messagesAfter: number;
  /** UTF-8 bytes of the history and the transcript as JSON, before and after (after ≤ before). */
  bytesBefore: number;
  bytesAfter: number;
  /** Their estimated tokens (see `estimateTokens`), before and after. */
  estimatedTokensBefore: number;
  estimatedTokensAfter: number;
  /** History messages and transcript items folded into the summary. */
  summarized: number;
  /** Model reasoning parts dropped (all but the newest step's, before anything is summarised). */
  reasoningPartsDropped: number;
  /** The summary call's usage, when one was made (in a turn it is counted in `result.usage`). */
  summaryUsage?: HarnessUsage | undefined;
}

/** What `harness.compact` returns. */
export interface HarnessCompactResult {
  /** The history to send from now on: a summary message first, then pinned and recent messages. */
  history: HarnessHistoryMessage[];
  /** The compacted transcript, when one was given. */
  transcript?: HarnessTranscriptItem[] | undefined;
  receipt: HarnessCompactionReceipt;
  /**
   * Why nothing was compacted although something could have been (the summary call failed, was
   * refused or timed out); `history` and `transcript` are then the input, unchanged.
   */
  error?: HarnessResultError | undefined;
}

/** `result.metadata.compaction`: what the turn compacted, and the history to keep. */
export interface HarnessCompactionMetadata {
  /** Each compaction of this run, in order. */
  receipts: HarnessCompactionReceipt[];
  /**
   * The turn's history after the last compaction: store it in place of the history you sent
   * (then add this turn's message and answer), so the next turn does not grow it back.
   */
  history: HarnessHistoryMessage[];
}
