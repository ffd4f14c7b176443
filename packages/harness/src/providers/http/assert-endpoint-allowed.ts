import { HarnessConfigError } from '../../core/errors/harness-config-error.js';

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Where plain `http:` is allowed besides loopback: `true` for any host, or a list of host names
 * (e.g. `['ollama']` for a docker-compose service). Requests and keys to those hosts travel
 * unencrypted.
 */
export type InsecureHttpOptIn = boolean | readonly string[];

/**
 * How the user of a caller opts in to plain `http:`, so the error's advice is one that works there:
 * `'hosts'` — code options (`allowInsecureHttp: ['host']`, or `true`); `'profile'` — a provider
 * profile (`"allowInsecureHttp": true`); `'none'` — no opt-in exists, only `https:` helps.
 */
export type InsecureHttpOptInForm = 'hosts' | 'profile' | 'none';

/** Options of `assertEndpointAllowed`. */
export interface EndpointPolicyOptions {
  /** Allow plain `http:` beyond loopback (an explicit opt-in such as a profile's `allowInsecureHttp`). */
  allowInsecureHttp?: InsecureHttpOptIn | undefined;
  /**
   * Where the opt-in is written, for the advice in the error.
   * @default 'hosts'
   */
  optInForm?: InsecureHttpOptInForm | undefined;
}

/**
 * Checks a provider base URL against the endpoint policy and returns it parsed: `https:` anywhere,
 * plain `http:` only on loopback (`127.0.0.1`, `localhost`, `[::1]`) unless `allowInsecureHttp`
 * opts in. Credentials in the URL, query strings and fragments are refused too, so no secret can
 * hide in it. Every fix an error suggests is one that works where `policy.optInForm` says the
 * opt-in is written.
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
    throw new HarnessConfigError(`${field} is not a valid URL; write it whole, e.g. https://api.example.com/v1.`, { field });
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
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    // `localhost:11434/v1` parses with the scheme `localhost:`. Nothing of the value is quoted: an
    // unparsed URL may hold anything.
    const hostAndPort = /^\d/.test(url.pathname)
      ? ' It reads like host:port without a scheme: put https:// in front (http:// on a loopback host such as localhost).'
      : '';
    throw new HarnessConfigError(`${field} must start with https:// (or http:// on a loopback host).${hostAndPort}`, { field });
  }
  const optIn = checkInsecureHttpOptIn(policy.allowInsecureHttp);
  if (url.protocol === 'https:') return url;
  if (loopbackHosts.has(url.hostname) || optIn === true || (optIn !== false && optIn.has(url.hostname))) return url;
  throw new HarnessConfigError(
    `${field} must use https:, or http: on a loopback host (127.0.0.1, localhost, [::1]); got http://${url.hostname}.${optInAdvice(url.hostname, policy.optInForm ?? 'hosts')}`,
    { field },
  );
}

function optInAdvice(host: string, form: InsecureHttpOptInForm): string {
  switch (form) {
    case 'hosts':
      return ` To accept plain http: on this host, set allowInsecureHttp: ['${host}'] (or true for any host).`;
    case 'profile':
      return ' To accept plain http: for this profile, set "allowInsecureHttp": true in it.';
    case 'none':
      return '';
  }
}

/**
 * Checks an `allowInsecureHttp` value: a boolean, or a list of hosts as a URL writes them (a name,
 * an IPv4 address, or an IPv6 address in brackets), normalised the way `URL` normalises a host.
 */
export function checkInsecureHttpOptIn(value: unknown): boolean | ReadonlySet<string> {
  if (value === undefined || value === false) return false;
  if (value === true) return true;
  if (Array.isArray(value) && value.length <= 100) {
    const hosts = value.map(urlHost);
    if (hosts.every((host) => host !== undefined)) return new Set(hosts);
  }
  throw new HarnessConfigError(
    "allowInsecureHttp must be a boolean or a list of hosts as written in a URL, e.g. ['ollama', '192.168.1.20', '[fd00::1]'].",
    { field: 'allowInsecureHttp' },
  );
}

/** `host` as `URL` normalises it, when it is a bare host (no port, path, credentials, query); else undefined. */
function urlHost(host: unknown): string | undefined {
  if (typeof host !== 'string' || host === '' || host.length > 255) return undefined;
  try {
    const parsed = new URL(`http://${host}/`);
    return parsed.hostname !== '' && parsed.href === `http://${parsed.hostname}/` ? parsed.hostname : undefined;
  } catch {
    return undefined;
  }
}

/** Joins a base URL (with or without a trailing slash) and a path such as `/chat/completions`. */
export function joinUrl(base: URL, path: string): string {
  return `${base.href.replace(/\/+$/, '')}${path}`;
}
