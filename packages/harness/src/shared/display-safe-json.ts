/**
 * What JSON text can still hold raw once `JSON.stringify` has escaped C0 controls: DEL, C1
 * controls (U+009B is a one-character CSI), the line and paragraph separators, and the
 * bidirectional marks, embeddings, overrides and isolates.
 */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/**
 * JSON text with those characters written as `\uXXXX` escapes: it parses to the same value, and
 * shown on a terminal or to a reader it cannot recolour, retitle or reorder what is shown.
 */
export function displaySafeJson(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
