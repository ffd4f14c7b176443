/** Longest line shown, in UTF-16 code units; a longer one is cut and ends with `…[+N chars]`. */
export const MAX_SHOWN_LINE_CHARS = 1000;

/** The lines of one decoded stream, by offsets (no string per line is kept). */
export interface LineIndex {
  readonly text: string;
  /** Number of lines: one per `\n`, plus an unterminated last line. An empty stream has none. */
  readonly count: number;
  /** `starts[k]` is where line `k` (0-based) begins; `starts[count]` is one past the end. */
  readonly starts: Uint32Array;
}

/** Splits `text` into lines at `\n`, in one pass plus one count. */
export function indexLines(text: string): LineIndex {
  let newlines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) newlines += 1;
  const trailing = text.length > 0 && !text.endsWith('\n');
  const count = newlines + (trailing ? 1 : 0);
  const starts = new Uint32Array(count + 1);
  let line = 0;
  let from = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    starts[line] = from;
    line += 1;
    from = at + 1;
  }
  if (trailing) starts[line] = from;
  // One past the end of the last line, as if a `\n` followed it.
  starts[count] = trailing ? text.length + 1 : text.length;
  return { text, count, starts };
}

/** Line `k` (0-based) as written, without its `\n`. */
export function rawLine(index: LineIndex, k: number): string {
  return index.text.slice(index.starts[k], index.starts[k + 1]! - 1);
}

// CSI sequences (colours, cursor moves), OSC sequences (titles, links) and two-character escapes.
// eslint-disable-next-line no-control-regex
const TERMINAL_ESCAPES = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g;

/**
 * A line as a terminal would leave it on screen: a final `\r` dropped, only the text after the
 * last other `\r` (progress bars redraw with it), and terminal escape sequences removed.
 */
export function screenLine(raw: string): string {
  let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  const carriageReturn = line.lastIndexOf('\r');
  if (carriageReturn !== -1) line = line.slice(carriageReturn + 1);
  return line.includes('\u001b') ? line.replace(TERMINAL_ESCAPES, '') : line;
}

/** `line` when it has at most {@link MAX_SHOWN_LINE_CHARS} code units, else its start and `…[+N chars]`. */
export function cutLine(line: string): string {
  if (line.length <= MAX_SHOWN_LINE_CHARS) return line;
  let end = MAX_SHOWN_LINE_CHARS;
  const last = line.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${line.slice(0, end)}…[+${String(line.length - end)} chars]`;
}

/** UTF-8 bytes of `JSON.stringify(text)` without its two quotes, counted without building it. */
export function jsonStringBytes(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20) bytes += code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 2 : 6;
    else if (code === 0x22 || code === 0x5c) bytes += 2;
    else if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        index += 1;
      } else bytes += 6;
    } else if (code >= 0xdc00 && code <= 0xdfff) bytes += 6;
    else bytes += 3;
  }
  return bytes;
}

/** The longest start of `text` whose JSON string form (without quotes) has at most `maxBytes` UTF-8 bytes; never splits a surrogate pair. */
export function jsonPrefix(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    const pair = code >= 0xd800 && code <= 0xdbff && end + 1 < text.length && (text.charCodeAt(end + 1) & 0xfc00) === 0xdc00;
    const size = jsonStringBytes(text.slice(end, end + (pair ? 2 : 1)));
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += pair ? 2 : 1;
  }
  return text.slice(0, end);
}
