/**
 * A permission pattern compiled for matching. `*` matches any run of characters (none included,
 * line breaks and `/` included); every other character, `?` and `\` too, matches itself. No
 * regular expression is built, so a pattern cannot inject one, and matching takes time linear in
 * the lengths of the text and the pattern (Knuth–Morris–Pratt per literal piece, no backtracking).
 */
export interface CompiledPattern {
  /** The pattern as written. */
  readonly source: string;
  /** How many characters of the pattern are not `*`: its specificity. */
  readonly literals: number;
  /** Whether `text` matches the whole pattern. */
  matches(text: string): boolean;
}

/** One literal run between stars, with its KMP failure table. */
interface Piece {
  readonly text: string;
  readonly failure: Int32Array;
}

/**
 * Compiles a pattern. A pattern ending in ` *` (space, star) also matches the text without that
 * ending (`git push *` matches `git push`), as in opencode and Claude Code.
 */
export function compilePattern(source: string): CompiledPattern {
  const whole = compilePieces(source);
  const bare = source.endsWith(' *') ? compilePieces(source.slice(0, -2)) : undefined;
  return {
    source,
    literals: source.length - countStars(source),
    matches: bare === undefined ? whole : (text) => whole(text) || bare(text),
  };
}

function countStars(source: string): number {
  let stars = 0;
  for (let index = 0; index < source.length; index += 1) if (source.charCodeAt(index) === 42) stars += 1;
  return stars;
}

function compilePieces(source: string): (text: string) => boolean {
  const parts = source.split('*');
  if (parts.length === 1) return (text) => text === source;
  const head = parts[0]!;
  const tail = parts[parts.length - 1]!;
  const middle: Piece[] = parts
    .slice(1, -1)
    .filter((part) => part !== '')
    .map((part) => ({ text: part, failure: failureTable(part) }));
  return (text) => {
    if (text.length < head.length + tail.length || !text.startsWith(head) || !text.endsWith(tail)) return false;
    // Leftmost-first placement of each middle piece is optimal for `*`-only globs.
    let position = head.length;
    const end = text.length - tail.length;
    for (const piece of middle) {
      const found = findEnd(piece, text, position, end);
      if (found < 0) return false;
      position = found;
    }
    return true;
  };
}

/** KMP failure table: `table[i]` is the length of the longest proper border of `text[0..i]`. */
function failureTable(text: string): Int32Array {
  const table = new Int32Array(text.length);
  let border = 0;
  for (let index = 1; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    while (border > 0 && text.charCodeAt(border) !== char) border = table[border - 1]!;
    if (text.charCodeAt(border) === char) border += 1;
    table[index] = border;
  }
  return table;
}

/** The index just past the first occurrence of `piece` inside `text[from, to)`, or -1. */
function findEnd(piece: Piece, text: string, from: number, to: number): number {
  const { text: needle, failure } = piece;
  let matched = 0;
  for (let index = from; index < to; index += 1) {
    const char = text.charCodeAt(index);
    while (matched > 0 && needle.charCodeAt(matched) !== char) matched = failure[matched - 1]!;
    if (needle.charCodeAt(matched) === char) matched += 1;
    if (matched === needle.length) return index + 1;
  }
  return -1;
}
