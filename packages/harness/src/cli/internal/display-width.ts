// How many terminal columns text takes: wide East Asian characters and emoji take two, combining
// marks and other zero-width characters none. Text is escaped with `terminalText` first, so no
// control character reaches here.

/** East Asian Wide and Fullwidth code points (Unicode 15 `EastAsianWidth.txt`, W and F), as [first, last]. */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x23f0, 0x23f0],
  [0x23f3, 0x23f3],
  [0x25fd, 0x25fe],
  [0x2614, 0x2615],
  [0x2648, 0x2653],
  [0x267f, 0x267f],
  [0x2693, 0x2693],
  [0x26a1, 0x26a1],
  [0x26aa, 0x26ab],
  [0x26bd, 0x26be],
  [0x26c4, 0x26c5],
  [0x26ce, 0x26ce],
  [0x26d4, 0x26d4],
  [0x26ea, 0x26ea],
  [0x26f2, 0x26f3],
  [0x26f5, 0x26f5],
  [0x26fa, 0x26fa],
  [0x26fd, 0x26fd],
  [0x2705, 0x2705],
  [0x270a, 0x270b],
  [0x2728, 0x2728],
  [0x274c, 0x274c],
  [0x274e, 0x274e],
  [0x2753, 0x2755],
  [0x2757, 0x2757],
  [0x2795, 0x2797],
  [0x27b0, 0x27b0],
  [0x27bf, 0x27bf],
  [0x2b1b, 0x2b1c],
  [0x2b50, 0x2b50],
  [0x2b55, 0x2b55],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x16ff0, 0x16ff1],
  [0x17000, 0x18cd5],
  [0x18d00, 0x18d08],
  [0x1aff0, 0x1b2fb],
  [0x1f004, 0x1f004],
  [0x1f0cf, 0x1f0cf],
  [0x1f18e, 0x1f18e],
  [0x1f191, 0x1f19a],
  [0x1f200, 0x1f202],
  [0x1f210, 0x1f23b],
  [0x1f240, 0x1f248],
  [0x1f250, 0x1f251],
  [0x1f260, 0x1f265],
  [0x1f300, 0x1f64f],
  [0x1f680, 0x1f6ff],
  [0x1f7e0, 0x1f7eb],
  [0x1f7f0, 0x1f7f0],
  [0x1f90c, 0x1f9ff],
  [0x1fa70, 0x1faff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

/** Characters that take no column of their own: combining marks, format characters (ZWJ, ZWSP), variation selectors (Mn), Hangul medial vowels and final consonants. */
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\u1160-\u11ff]$/u;
/** A pictograph shown as an emoji: with VS16, or one of a keycap / flag / ZWJ sequence. */
const EMOJI_SEQUENCE = /\p{Extended_Pictographic}\ufe0f|\p{Regional_Indicator}{2}|\u20e3|\p{Extended_Pictographic}\u200d/u;

function isWide(codePoint: number): boolean {
  let low = 0;
  let high = WIDE.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const [first, last] = WIDE[middle] as readonly [number, number];
    if (codePoint < first) high = middle - 1;
    else if (codePoint > last) low = middle + 1;
    else return true;
  }
  return false;
}

/** Columns of one user-perceived character (a grapheme cluster). */
function clusterWidth(cluster: string): number {
  if (EMOJI_SEQUENCE.test(cluster)) return 2;
  for (const char of cluster) {
    if (ZERO_WIDTH.test(char)) continue;
    return isWide(char.codePointAt(0) as number) ? 2 : 1;
  }
  return 0;
}

/** Printable ASCII only: one column per character. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

const segmenter = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : undefined;

/**
 * The columns `text` takes on a terminal: two for each wide East Asian character and emoji (one
 * for a whole ZWJ sequence or flag), none for combining marks, one for the rest. Where
 * `Intl.Segmenter` is missing, each code point counts on its own.
 */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  if (segmenter === undefined) {
    for (const char of text) width += clusterWidth(char);
    return width;
  }
  for (const { segment } of segmenter.segment(text)) width += clusterWidth(segment);
  return width;
}

/** `text` followed by spaces up to `width` columns (as `padEnd`, counted in columns). */
export function padEndToWidth(text: string, width: number): string {
  const missing = width - displayWidth(text);
  return missing > 0 ? text + ' '.repeat(missing) : text;
}
