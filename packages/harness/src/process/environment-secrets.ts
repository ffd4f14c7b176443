import { createRedactor } from '../shared/redact-secrets.js';
import { configuredValues } from './build-environment.js';
import { isProxyVariable, proxyCredentials } from './internal/strip-proxy-credentials.js';

/** Names of variables that hold secrets (any case): `*_API_KEY`, `*_TOKEN`, `*SECRET*`, `*PASSWORD*`, `*CREDENTIAL*`, `*AUTH*`. */
const SECRET_NAME = /key|token|secret|password|credential|auth/i;

/**
 * The secret values of a child's environment: every value the caller configured explicitly (see
 * `configuredValues`), every variable whose name looks secret, and the `user:password` part (and
 * the password alone) of a proxy URL.
 */
export function environmentSecrets(env: Readonly<Record<string, string | undefined>>): string[] {
  const secrets: string[] = [...configuredValues(env)];
  for (const [name, value] of Object.entries(env)) {
    if (typeof value !== 'string') continue;
    if (SECRET_NAME.test(name)) secrets.push(value);
    else if (isProxyVariable(name)) {
      const credentials = proxyCredentials(value);
      if (credentials !== undefined) secrets.push(credentials, credentials.slice(credentials.indexOf(':') + 1));
    }
  }
  return secrets;
}

/** Cleans what a child process wrote before it goes into an error message, a result or a trace. */
export interface ProcessOutputRedactor {
  /**
   * `value` with the environment's secrets (written literally or with JSON escapes) and anything
   * that looks like a bearer token or an `sk-…` key replaced by `[REDACTED]`. `cut` says that
   * `value` is a window of a longer stream: the part of a secret that the window's start or end
   * cuts off is replaced by `…` too.
   */
  text(value: string, cut?: { start?: boolean; end?: boolean }): string;
}

/**
 * The redactor for the output of a process started with `env` (values shorter than 6 characters
 * are not treated as secrets). Secrets split across output chunks are found, as long as the
 * caller redacts the joined text.
 */
export function processOutputRedactor(env: Readonly<Record<string, string | undefined>>): ProcessOutputRedactor {
  const secrets = environmentSecrets(env).filter((secret) => secret.length >= 6);
  const redactor = createRedactor(secrets);
  return {
    text(value, cut = {}) {
      const text = redactor.text(value);
      // Both ends are measured on the same text: a window inside one secret is covered by either.
      const head = cut.start === true ? leadingSecretPart(text, secrets) : 0;
      const tail = cut.end === true ? redactor.pendingPrefixLength(text) : 0;
      if (head + tail >= text.length && head + tail > 0) return '…';
      return `${head > 0 ? '…' : ''}${text.slice(head, text.length - tail)}${tail > 0 ? '…' : ''}`;
    },
  };
}

/** The length of the longest start of `value` that is the end (or a middle, when `value` is that short) of a secret. */
function leadingSecretPart(value: string, secrets: readonly string[]): number {
  const first = value[0];
  if (first === undefined) return 0;
  let longest = 0;
  for (const secret of secrets) {
    for (let from = secret.indexOf(first, 1); from !== -1; from = secret.indexOf(first, from + 1)) {
      const rest = secret.slice(from);
      const length = value.startsWith(rest) ? rest.length : rest.startsWith(value) ? value.length : 0;
      if (length > longest) longest = length;
    }
  }
  return longest;
}
