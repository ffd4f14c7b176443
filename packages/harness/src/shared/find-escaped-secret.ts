const BACKSLASH = 0x5c;
const shortEscapes = new Map<number, number>([
  [0x22, 0x22], // \"
  [0x5c, 0x5c], // \\
  [0x2f, 0x2f], // \/
  [0x62, 0x08], // \b
  [0x66, 0x0c], // \f
  [0x6e, 0x0a], // \n
  [0x72, 0x0d], // \r
  [0x74, 0x09], // \t
]);
const hexDigits = /^[0-9a-fA-F]{4}$/;

/**
 * Where an occurrence of `secret` that starts at `start` ends, or -1. Each UTF-16 code unit of the
 * secret may be written literally or as a JSON escape (`\u0073` in either hex case, `\"`, `\/`,
 * `\n` …); escapes are tried first, and a plain literal match is the fallback.
 */
function matchAt(text: string, start: number, secret: string): number {
  let at = start;
  for (let index = 0; index < secret.length; index += 1) {
    const unit = secret.charCodeAt(index);
    if (text.charCodeAt(at) === BACKSLASH) {
      const next = text.charCodeAt(at + 1);
      if (next === 0x75 && hexDigits.test(text.slice(at + 2, at + 6)) && Number.parseInt(text.slice(at + 2, at + 6), 16) === unit) {
        at += 6;
        continue;
      }
      if (shortEscapes.get(next) === unit) {
        at += 2;
        continue;
      }
    }
    if (text.charCodeAt(at) !== unit) return text.startsWith(secret, start) ? start + secret.length : -1;
    at += 1;
  }
  return at;
}

/**
 * Replaces every occurrence of `secret` in `text` written with JSON escapes (any mix of escaped and
 * literal code units) by `replacement`. Scans only from a backslash or the secret's first unit.
 */
export function replaceEscapedSecret(text: string, secret: string, replacement: string): string {
  const first = secret[0];
  if (first === undefined) return text;
  let out = '';
  let copied = 0;
  let at = 0;
  while (at < text.length) {
    const nextFirst = text.indexOf(first, at);
    const nextEscape = text.indexOf('\\', at);
    const candidate = nextFirst === -1 ? nextEscape : nextEscape === -1 ? nextFirst : Math.min(nextFirst, nextEscape);
    if (candidate === -1) break;
    const end = matchAt(text, candidate, secret);
    if (end === -1) {
      at = candidate + 1;
      continue;
    }
    out += text.slice(copied, candidate) + replacement;
    copied = end;
    at = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
