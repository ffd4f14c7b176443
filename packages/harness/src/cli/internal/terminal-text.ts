import { displaySafeJson } from '../../shared/display-safe-json.js';

/**
 * Characters that act on a terminal or reorder what it shows: C0 controls (ESC, CR, line breaks),
 * DEL, C1 controls (U+009B is a one-character CSI), the line and paragraph separators, and the
 * bidirectional marks, embeddings, overrides and isolates.
 */
// eslint-disable-next-line no-control-regex -- the control characters are what it finds
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;
// eslint-disable-next-line no-control-regex -- as above, but line feed and tab
const UNSAFE_KEEPING_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;
const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

const escapeOne = (char: string): string => SHORT[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Outside text (a provider's error, a model's call id, a file's profile name) made safe to print
 * on a terminal: every character that could move the cursor, recolour, retitle, forge a line or
 * reorder the line is shown escaped (`\u001b`, `\n`). With `keepLineBreaks`, `\n` and `\t` stay as
 * they are (an answer's own paragraphs); everything else is still escaped.
 */
export function terminalText(text: string, options: { keepLineBreaks?: boolean } = {}): string {
  return text.replace(options.keepLineBreaks === true ? UNSAFE_KEEPING_LINES : UNSAFE, escapeOne);
}

/**
 * `JSON.stringify(value)` safe to print on a terminal: JSON already escapes C0 controls; this also
 * escapes DEL, C1 controls, the separators and the bidirectional controls (as `\uXXXX`, so the
 * line still parses to the same value). Throws what `JSON.stringify` throws.
 */
export function terminalJson(value: unknown, space?: number): string {
  return displaySafeJson(JSON.stringify(value, null, space) ?? 'null');
}
