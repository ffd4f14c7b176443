const REDACTED = '[REDACTED]';
const bearerPattern = /\b(Bearer|Basic)\s+[^\s"',;]+/gi;
const keyLikePattern = /\b(sk|pk|rk)-[A-Za-z0-9_-]{8,}/g;
const sensitiveHeaderPattern = /auth|key|token|secret|cookie|signature|password/i;

/** Removes secrets from text before it leaves a provider (errors, metadata, outputs). */
export interface Redactor {
  /** Replaces the known secrets and anything that looks like a bearer token or `sk-…` key. For error text. */
  text(value: string): string;
  /** Replaces only the known secrets. For model text, where key-like words may be legitimate. */
  exact(value: string): string;
}

/** Builds a redactor for the given secrets; values shorter than 6 characters are ignored. */
export function createRedactor(secrets: readonly (string | undefined)[]): Redactor {
  const known = [...new Set(secrets.filter((secret): secret is string => typeof secret === 'string' && secret.length >= 6))]
    .sort((left, right) => right.length - left.length);
  const exact = (value: string): string => {
    let result = value;
    for (const secret of known) {
      if (result.includes(secret)) result = result.split(secret).join(REDACTED);
    }
    return result;
  };
  return {
    exact,
    text: (value) => exact(value).replace(bearerPattern, `$1 ${REDACTED}`).replace(keyLikePattern, REDACTED),
  };
}

/** Values of headers whose names suggest a secret (`authorization`, `x-api-key`, `*token*` …). */
export function sensitiveHeaderValues(headers: Readonly<Record<string, string>> | undefined): string[] {
  if (headers === undefined) return [];
  return Object.entries(headers)
    .filter(([name]) => sensitiveHeaderPattern.test(name))
    .map(([, value]) => value);
}

/** Cuts `value` to at most `maxChars` characters, marking the cut. */
export function truncateText(value: string, maxChars: number): string {
  return value.length <= maxChars ? value : `${value.slice(0, maxChars)}…[truncated]`;
}
