import type { Redactor } from '../../shared/redact-secrets.js';

/** Redacts text that arrives in pieces, so a secret split across pieces never shows. */
export interface StreamRedactor {
  /** Adds a piece; returns the text that is safe to pass on now (possibly empty). */
  push(piece: string): string;
  /** Returns what is still held back, redacted, once the stream is over. */
  flush(): string;
}

/**
 * Wraps `redactor` for streamed text: each piece is joined to what was held back, redacted, and
 * released except for its end when that end could begin a secret (at most the longest secret's
 * length minus one). Concatenating every `push` and the `flush` never shows a known secret, however
 * the pieces split it.
 */
export function createStreamRedactor(redactor: Redactor): StreamRedactor {
  let held = '';
  return {
    push(piece) {
      const text = redactor.exact(held + piece);
      const keep = redactor.pendingPrefixLength(text);
      held = text.slice(text.length - keep);
      return text.slice(0, text.length - keep);
    },
    flush() {
      const rest = redactor.exact(held);
      held = '';
      return rest;
    },
  };
}
