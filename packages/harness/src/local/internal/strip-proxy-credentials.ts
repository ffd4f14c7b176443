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
  const scheme = SCHEME.exec(value)?.[0] ?? '';
  const rest = value.slice(scheme.length);
  const at = rest.lastIndexOf('@');
  return at === -1 ? value : `${scheme}${rest.slice(at + 1)}`;
}
