const shortEscapes = new Map<string, string>([
  ['"', '\\"'],
  ['\\', '\\\\'],
  ['/', '\\/'],
  ['\b', '\\b'],
  ['\f', '\\f'],
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\t', '\\t'],
]);

/**
 * A regular-expression source that matches `secret` written literally or with any of its UTF-16
 * code units as a JSON escape (`\u0073`, in either hex case, or `\"`, `\/`, `\n` …), so a secret
 * that reaches us still escaped (an error body, a truncated JSON excerpt) is found as well as a
 * decoded one. No `u` flag: the pattern works on code units, like JSON escapes do.
 */
export function secretPatternSource(secret: string): string {
  let source = '';
  for (let index = 0; index < secret.length; index += 1) {
    const unit = secret[index]!;
    const hex = secret.charCodeAt(index).toString(16).padStart(4, '0');
    const escaped = [...hex].map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit)).join('');
    const short = shortEscapes.get(unit);
    source += `(?:${escapeRegExp(unit)}|\\\\u${escaped}${short === undefined ? '' : `|${escapeRegExp(short)}`})`;
  }
  return source;
}

function escapeRegExp(value: string): string {
  return value.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}
