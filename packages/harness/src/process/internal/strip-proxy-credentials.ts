/** Names of proxy variables (`HTTP_PROXY`, `https_proxy`, `ALL_PROXY`, `npm_config_proxy`, …); not `NO_PROXY`. */
const PROXY_NAME = /proxy$/i;
const NO_PROXY_NAME = /(?:^|_)no_proxy$/i;
/** An optional `scheme://` prefix. */
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** True for an environment variable that names a proxy URL (`NO_PROXY` lists hosts and is not one). */
export function isProxyVariable(name: string): boolean {
  return PROXY_NAME.test(name) && !NO_PROXY_NAME.test(name);
}

/**
 * A proxy URL without its `user:password@` part: `http://user:secret@proxy:3128` becomes
 * `http://proxy:3128`. Everything up to the last `@` after the scheme is dropped, so a password
 * containing `@`, `/` or `:` (escaped or not) never survives; a value without `@` is unchanged.
 */
export function stripProxyCredentials(value: string): string {
  const { scheme, credentials, host } = splitProxyUrl(value);
  return credentials === undefined ? value : `${scheme}${host}`;
}

/** The `user:password` part of a proxy URL (everything between the scheme and the last `@`), if any. */
export function proxyCredentials(value: string): string | undefined {
  return splitProxyUrl(value).credentials;
}

function splitProxyUrl(value: string): { scheme: string; credentials: string | undefined; host: string } {
  const scheme = SCHEME.exec(value)?.[0] ?? '';
  const rest = value.slice(scheme.length);
  const at = rest.lastIndexOf('@');
  return at === -1 ? { scheme, credentials: undefined, host: rest } : { scheme, credentials: rest.slice(0, at), host: rest.slice(at + 1) };
}
