/** What Postgres `text` cannot hold as it is: NUL, the escape itself, and lone UTF-16 surrogates. */
// eslint-disable-next-line no-control-regex -- NUL and U+0001 are what this escapes
const UNSAFE = /[\u0000\u0001]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// eslint-disable-next-line no-control-regex -- U+0001 is the escape
const ESCAPED = /\u0001(?:0|1|u([0-9a-f]{4}))/g;

/**
 * `text` as Postgres `text` can store it: Postgres refuses NUL (U+0000), and a UTF-8 client turns
 * a lone surrogate into U+FFFD. Each becomes U+0001 and a code (`0` NUL, `1` U+0001 itself,
 * `u` + 4 hex digits a lone surrogate); any other text is unchanged, so stored rows stay readable
 * and searchable. {@link fromPostgresText} reverses it exactly.
 */
export function toPostgresText(text: string): string {
  return text.replace(UNSAFE, (unit) => {
    if (unit === '\u0000') return '\u00010';
    if (unit === '\u0001') return '\u00011';
    return `\u0001u${unit.charCodeAt(0).toString(16)}`;
  });
}

/** The text {@link toPostgresText} stored. */
export function fromPostgresText(stored: string): string {
  if (!stored.includes('\u0001')) return stored;
  return stored.replace(ESCAPED, (match, hex: string | undefined) => {
    if (hex !== undefined) return String.fromCharCode(Number.parseInt(hex, 16));
    return match === '\u00010' ? '\u0000' : '\u0001';
  });
}
