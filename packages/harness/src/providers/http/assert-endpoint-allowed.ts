import { HarnessConfigError } from '../../core/errors/harness-config-error.js';

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Where plain `http:` is allowed besides loopback: `true` for any host, or a list of host names
 * (e.g. `['ollama']` for a docker-compose service). Requests and keys to those hosts travel
 * unencrypted.
 */
export type InsecureHttpOptIn = boolean | readonly string[];

/** Options of `assertEndpointAllowed`. */
export interface EndpointPolicyOptions {
  /** Allow plain `http:` beyond loopback (an explicit opt-in such as a profile's `allowInsecureHttp`). */
  allowInsecureHttp?: InsecureHttpOptIn | undefined;
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
    throw new HarnessConfigError(
      `${field} must not contain a query string or fragment; pass fixed parameters (such as Azure's api-version) as queryParameters.`,
      { field },
    );
  }
  const optIn = checkInsecureHttpOptIn(policy.allowInsecureHttp);
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && (loopbackHosts.has(url.hostname) || optIn === true || (optIn !== false && optIn.has(url.hostname.toLowerCase())))) {
    return url;
  }
  throw new HarnessConfigError(
    `${field} must use https:, or http: on a loopback host (127.0.0.1, localhost, [::1]); got ${url.protocol}//${url.hostname}. To accept plain http: on this host, set allowInsecureHttp: ['${url.hostname}'].`,
    { field },
  );
}

/** Checks an `allowInsecureHttp` value: a boolean, or a list of host names (lower-cased). */
export function checkInsecureHttpOptIn(value: unknown): boolean | ReadonlySet<string> {
  if (value === undefined || value === false) return false;
  if (value === true) return true;
  if (Array.isArray(value) && value.length <= 100 && value.every((host) => typeof host === 'string' && /^[a-z0-9.-]{1,253}$/i.test(host))) {
    return new Set((value as string[]).map((host) => host.toLowerCase()));
  }
  throw new HarnessConfigError('allowInsecureHttp must be a boolean or a list of host names.', { field: 'allowInsecureHttp' });
}

/** Joins a base URL (with or without a trailing slash) and a path such as `/chat/completions`. */
export function joinUrl(base: URL, path: string): string {
  return `${base.href.replace(/\/+$/, '')}${path}`;
}
