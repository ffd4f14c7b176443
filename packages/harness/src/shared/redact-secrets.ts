import { replaceEscapedSecret } from './find-escaped-secret.js';

const REDACTED = '[REDACTED]';
const bearerPattern = /\b(Bearer|Basic)\s+[^\s"',;]+/gi;
const keyLikePattern = /\b(sk|pk|rk)-[A-Za-z0-9_-]{8,}/g;
const sensitiveHeaderPattern = /auth|key|token|secret|cookie|signature|password/i;

/** Removes secrets from text before it leaves a provider (errors, metadata, outputs). */
export interface Redactor {
  /**
   * Replaces the known secrets (literal or JSON-escaped) and anything that looks like a bearer
   * token or `sk-…` key. For error text.
   */
  text(value: string): string;
  /** Replaces only the known secrets (literal or JSON-escaped). For model text, where key-like words may be legitimate. */
  exact(value: string): string;
  /**
   * The length of the longest end of `value` that could be the start of a known secret (0 when
   * none): a stream holds that much back until the next delta shows whether the secret completes.
   */
  pendingPrefixLength(value: string): number;
}

/**
 * Builds a redactor for the given secrets; values shorter than 6 characters are ignored. Secrets
 * are found written literally and with JSON `\uXXXX` (or `\"`, `\/` …) escapes, so redaction holds
 * before and after a body is decoded.
 */
export function createRedactor(secrets: readonly (string | undefined)[]): Redactor {
  const known = [...new Set(secrets.filter((secret): secret is string => typeof secret === 'string' && secret.length >= 6))].sort(
    (left, right) => right.length - left.length,
  );
  const exact = (value: string): string => {
    let result = value;
    for (const secret of known) {
      if (result.includes(secret)) result = result.split(secret).join(REDACTED);
    }
    // An escaped form needs a backslash; only then is the slower escape-aware scan worth running.
    if (!result.includes('\\')) return result;
    for (const secret of known) result = replaceEscapedSecret(result, secret, REDACTED);
    return result;
  };
  return {
    exact,
    text: (value) => exact(value).replace(bearerPattern, `$1 ${REDACTED}`).replace(keyLikePattern, REDACTED),
    pendingPrefixLength: (value) => {
      let longest = 0;
      for (const secret of known) {
        const from = Math.max(0, value.length - secret.length + 1);
        for (let start = value.indexOf(secret[0]!, from); start !== -1; start = value.indexOf(secret[0]!, start + 1)) {
          if (value.length - start > longest && secret.startsWith(value.slice(start))) longest = value.length - start;
        }
      }
      return longest;
    },
  };
}

/** Values of headers whose names suggest a secret (`authorization`, `x-api-key`, `*token*` …). */
export function sensitiveHeaderValues(headers: Readonly<Record<string, string>> | undefined): string[] {
  if (headers === undefined) return [];
  return Object.entries(headers)
    .filter(([name]) => sensitiveHeaderPattern.test(name))
    .map(([, value]) => value);
}

/**
 * Every header value as a secret, as given and as sent (HTTP trims the ends), and for a value
 * written `<scheme> <credentials>` (`Bearer abc…`, `Basic …`) the credentials alone too, so an
 * echo of only the token is caught as well.
 */
export function headerSecrets(headers: Readonly<Record<string, string>> | undefined): string[] {
  if (headers === undefined) return [];
  return Object.values(headers).flatMap((value) => {
    const sent = value.trim();
    const credentials = /^\S+\s+(\S+)$/.exec(sent)?.[1];
    return credentials === undefined ? [value, sent] : [value, sent, credentials];
  });
}

/** Cuts `value` to at most `maxChars` characters, marking the cut. */
export function truncateText(value: string, maxChars: number): string {
  return value.length <= maxChars ? value : `${value.slice(0, maxChars)}…[truncated]`;
}
