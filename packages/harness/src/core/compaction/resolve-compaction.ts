import { HarnessConfigError } from '../errors/harness-config-error.js';
import type { HarnessCompactionConfig, HarnessCompactionSettings, HarnessTokenEstimator } from '../types/compaction.js';
import type { HarnessModelAdapter } from '../types/model.js';
import { estimateTokensByBytes } from './estimate-tokens.js';

/** Compaction settings with every default applied. */
export interface ResolvedCompactionSettings {
  keepRecent: number;
  maxSummaryChars: number;
  instructions: string;
  estimateTokens: HarnessTokenEstimator;
}

/** Automatic compaction of a turn, when it is on. */
export interface AutoCompaction {
  /** The model's context window, in tokens. */
  window: number;
  threshold: number;
}

/** A harness's compaction: its settings, the model's window, and `auto` when automatic compaction is on. */
export interface ResolvedCompaction {
  settings: ResolvedCompactionSettings;
  /** The model's context window in tokens, when it states one. */
  window: number | undefined;
  threshold: number;
  auto: AutoCompaction | undefined;
}

/** The defaults of `HarnessCompactionConfig`. */
export const DEFAULT_COMPACTION = /* @__PURE__ */ Object.freeze({ keepRecent: 4, maxSummaryChars: 4000, threshold: 0.8 });

/** The summary call's system prompt unless `instructions` replaces it. */
export const DEFAULT_SUMMARY_INSTRUCTIONS = [
  "You compact a conversation so that it fits a language model's context window.",
  'Write a faithful summary of the conversation you are given, for the assistant who will continue it.',
  "Keep names, numbers, dates, file paths, identifiers, decisions, the user's preferences and open requests, and what each tool call did and returned (errors included).",
  'Add nothing that is not in the conversation. Do not answer it or continue it: only summarise.',
  'Write plain text, in the language of the conversation.',
].join(' ');

const MAX_INSTRUCTIONS_CHARS = 20_000;

/**
 * Checks `createHarness({ compaction })` and reads the model's `contextWindow`.
 * @throws HarnessConfigError naming the bad field.
 */
export function resolveCompaction(config: unknown, model: HarnessModelAdapter | undefined): ResolvedCompaction {
  if (config !== undefined && (typeof config !== 'object' || config === null || Array.isArray(config))) {
    throw new HarnessConfigError('compaction must be an object.', { field: 'compaction' });
  }
  const options = (config ?? {}) as HarnessCompactionConfig;
  const settings = resolveCompactionSettings(options, 'compaction');
  const auto = options.auto;
  if (auto !== undefined && typeof auto !== 'boolean') throw new HarnessConfigError('compaction.auto must be a boolean.', { field: 'compaction.auto' });
  const threshold = options.threshold ?? DEFAULT_COMPACTION.threshold;
  if (typeof threshold !== 'number' || !Number.isFinite(threshold) || threshold <= 0 || threshold > 1) {
    throw new HarnessConfigError('compaction.threshold must be a number above 0 and at most 1.', { field: 'compaction.threshold' });
  }
  const window = model === undefined ? undefined : readContextWindow(model);
  return { settings, window, threshold, auto: auto === false || window === undefined ? undefined : { window, threshold } };
}

/**
 * Checks the summary settings of `compaction` or of `harness.compact(…, options)`.
 * @throws HarnessConfigError naming the bad field (`<prefix>.keepRecent` …).
 */
export function resolveCompactionSettings(options: HarnessCompactionSettings, prefix: string, base?: ResolvedCompactionSettings): ResolvedCompactionSettings {
  const keepRecent = options.keepRecent ?? base?.keepRecent ?? DEFAULT_COMPACTION.keepRecent;
  if (!Number.isSafeInteger(keepRecent) || keepRecent < 1) {
    throw new HarnessConfigError(`${prefix}.keepRecent must be a whole number of 1 or more.`, { field: `${prefix}.keepRecent` });
  }
  const maxSummaryChars = options.maxSummaryChars ?? base?.maxSummaryChars ?? DEFAULT_COMPACTION.maxSummaryChars;
  if (!Number.isSafeInteger(maxSummaryChars) || maxSummaryChars < 1) {
    throw new HarnessConfigError(`${prefix}.maxSummaryChars must be a whole number of 1 or more.`, { field: `${prefix}.maxSummaryChars` });
  }
  const instructions = options.instructions ?? base?.instructions ?? DEFAULT_SUMMARY_INSTRUCTIONS;
  if (typeof instructions !== 'string' || instructions.trim() === '' || instructions.length > MAX_INSTRUCTIONS_CHARS) {
    throw new HarnessConfigError(`${prefix}.instructions must be a non-empty string of at most ${MAX_INSTRUCTIONS_CHARS} characters.`, {
      field: `${prefix}.instructions`,
    });
  }
  const estimateTokens = options.estimateTokens ?? base?.estimateTokens ?? estimateTokensByBytes;
  if (typeof estimateTokens !== 'function') {
    throw new HarnessConfigError(`${prefix}.estimateTokens must be a function.`, { field: `${prefix}.estimateTokens` });
  }
  return { keepRecent, maxSummaryChars, instructions, estimateTokens };
}

function readContextWindow(model: HarnessModelAdapter): number | undefined {
  let window: unknown;
  try {
    window = model.contextWindow;
  } catch {
    throw new HarnessConfigError('model.contextWindow could not be read.', { field: 'model.contextWindow' });
  }
  if (window === undefined) return undefined;
  if (typeof window !== 'number' || !Number.isSafeInteger(window) || window < 1) {
    throw new HarnessConfigError('model.contextWindow must be a positive whole number of tokens.', { field: 'model.contextWindow' });
  }
  return window;
}

/** Without a known window: the most characters of conversation one summary call is given. */
const SUMMARY_INPUT_CHARS_WITHOUT_WINDOW = 120_000;

/**
 * How much a compaction keeps and how much the summary call reads, for a window (in tokens) and a
 * threshold: the kept units may fill half of the threshold's share; the summary call reads at most
 * 60% of the window less room for the summary, at 3 characters a token (a conservative rate).
 * Without a window nothing limits the kept units and the summary call reads at most 120,000 characters.
 */
export function compactionBudgets(window: number | undefined, threshold: number, settings: ResolvedCompactionSettings): { maxKeptTokens: number; maxSummaryInputChars: number } {
  if (window === undefined) return { maxKeptTokens: Infinity, maxSummaryInputChars: SUMMARY_INPUT_CHARS_WITHOUT_WINDOW };
  const summaryTokens = Math.ceil(settings.maxSummaryChars / 3) + Math.ceil(settings.instructions.length / 3);
  return {
    maxKeptTokens: Math.floor((window * threshold) / 2),
    maxSummaryInputChars: Math.max(2_000, (Math.floor(window * 0.6) - summaryTokens) * 3),
  };
}
