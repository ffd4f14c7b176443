import type { ExecutionStreamEvent } from './types.js';

/**
 * The most answer text a backend returns for one `execute` call: 4 MiB of UTF-16 code units
 * (4,194,304 characters). Every built-in backend (engine sessions, local CLIs, Agent Relay) keeps
 * the first `MAX_ANSWER_CHARS` characters of its answer and drops the rest, sets
 * `metadata.answerTruncated: true` on the result, and stops streaming `text_delta`s at the same
 * point, so the deltas still add up to the answer. The turn itself runs to its end as usual.
 */
export const MAX_ANSWER_CHARS = 4_194_304;

/**
 * The part of `piece` that still fits after `used` characters of answer: all of it, its
 * beginning, or `''`. Never ends between the two halves of a surrogate pair.
 */
export function fitAnswer(piece: string, used: number): string {
  const room = MAX_ANSWER_CHARS - used;
  if (piece.length <= room) return piece;
  if (room <= 0) return '';
  const high = piece.charCodeAt(room - 1);
  return piece.slice(0, high >= 0xd800 && high <= 0xdbff ? room - 1 : room);
}

/** `text` cut to {@link MAX_ANSWER_CHARS}, and whether it was cut. */
export function capAnswer(text: string): { text: string; truncated: boolean } {
  const kept = fitAnswer(text, 0);
  return { text: kept, truncated: kept.length < text.length };
}

/** Answer text that arrives in pieces, kept up to {@link MAX_ANSWER_CHARS}; later pieces are dropped. */
export class AnswerText {
  private parts: string[] = [];
  private used = 0;
  /** True once a piece (or part of one) was dropped at the cap. */
  truncated = false;

  /** Characters kept so far. */
  get length(): number {
    return this.used;
  }

  /** Adds `piece`; returns the part kept (`''` once the cap is reached). */
  append(piece: string): string {
    const kept = fitAnswer(piece, this.used);
    if (kept.length < piece.length) this.truncated = true;
    if (kept !== '') {
      this.parts.push(kept);
      this.used += kept.length;
    }
    return kept;
  }

  /** The text kept so far. */
  text(): string {
    if (this.parts.length > 1) this.parts = [this.parts.join('')];
    return this.parts[0] ?? '';
  }
}

/**
 * A filter for one call's stream events: `text_delta`s are cut at {@link MAX_ANSWER_CHARS}
 * characters in total (the rest is dropped, `undefined`); other events, and malformed ones (left
 * for the harness to count), pass unchanged.
 */
export function capTextDeltas(): (event: ExecutionStreamEvent) => ExecutionStreamEvent | undefined {
  let used = 0;
  return (event) => {
    if (typeof event !== 'object' || event === null || event.type !== 'text_delta' || typeof event.text !== 'string') return event;
    const kept = fitAnswer(event.text, used);
    used += kept.length;
    if (kept === '') return undefined;
    return kept.length === event.text.length ? event : { type: 'text_delta', text: kept };
  };
}
