import { HarnessConfigError } from '../../core/errors/harness-config-error.js';

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Options of `assertEndpointAllowed`. */
export interface EndpointPolicyOptions {
  /** Allow plain `http:` on any host (an explicit opt-in such as a profile's `allowInsecureHttp`). */
  allowInsecureHttp?: boolean | undefined;
}

/**
 * Checks a provider base URL against the endpoint policy and returns it parsed: `https:` anywhere,
 * plain `http:` only on loopback (`127.0.0.1`, `localhost`, `[::1]`) unless `allowInsecureHttp`
 * opts in. Credentials in the URL, query strings and fragments are refused too, so no secret can
 * hide in it.
 * @throws HarnessConfigError naming `field` when the URL is not allowed.
 */
export function assertEndpointAllowed(value: unknown, field: string, policy: EndpointPolicyOptions = {}): URL {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new HarnessConfigError(`${field} must be a non-empty URL string.`, { field });
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new HarnessConfigError(`${field} is not a valid URL.`, { field });
  }
  if (url.username !== '' || url.password !== '') {
    throw new HarnessConfigError(`${field} must not contain credentials; pass apiKey instead.`, { field });
  }
  if (url.search !== '' || url.hash !== '') {
    throw new HarnessConfigError(`${field} must not contain a query string or fragment.`, { field });
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && (loopbackHosts.has(url.hostname) || policy.allowInsecureHttp === true)) return url;
  throw new HarnessConfigError(
    `${field} must use https:, or http: on a loopback host (127.0.0.1, localhost, [::1]) unless allowInsecureHttp is set; got ${url.protocol}//${url.hostname}.`,
    { field },
  );
}

/** Joins a base URL (with or without a trailing slash) and a path such as `/chat/completions`. */
export function joinUrl(base: URL, path: string): string {
  return `${base.href.replace(/\/+$/, '')}${path}`;
}
