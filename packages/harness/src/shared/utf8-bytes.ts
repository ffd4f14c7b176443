const encoder = /* @__PURE__ */ new TextEncoder();
const decoder = /* @__PURE__ */ new TextDecoder();

/** UTF-8 byte length of `text`. */
export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/** A byte window of a text, cut on character boundaries. */
export interface Utf8Window {
  text: string;
  /** Byte offset the window starts at (moved forward to a character boundary if needed). */
  start: number;
  /** Byte offset just past the window. */
  end: number;
  /** Total byte length of the source text. */
  total: number;
}

/**
 * The bytes of `text` from `offset`, at most `maxBytes` of them, never splitting a character:
 * the start moves forward and the end back to the nearest boundary (a window always holds at
 * least one character when one is left).
 */
export function utf8Window(text: string, offset: number, maxBytes: number): Utf8Window {
  const bytes = encoder.encode(text);
  const total = bytes.length;
  let start = Math.min(Math.max(0, offset), total);
  while (start < total && isContinuation(bytes[start]!)) start += 1;
  let end = Math.min(start + maxBytes, total);
  while (end > start && end < total && isContinuation(bytes[end]!)) end -= 1;
  if (end === start && start < total) {
    end = start + 1;
    while (end < total && isContinuation(bytes[end]!)) end += 1;
  }
  return { text: decoder.decode(bytes.subarray(start, end)), start, end, total };
}

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}
