import { isProxyVariable, stripProxyCredentials } from './internal/strip-proxy-credentials.js';

/**
 * Environment variables every local command inherits from the parent process. Everything else
 * (API keys, tokens, cloud credentials) must be allow-listed with `inheritEnv` or passed in `env`.
 * Entries ending in `*` are prefixes. Inherited proxy variables (`HTTPS_PROXY`, `http_proxy`, and
 * any other `*_PROXY` you allow-list) lose their `user:password@` part; pass a credentialed proxy
 * explicitly in `env` if a CLI needs one.
 */
export const DEFAULT_INHERITED_ENV: readonly string[] = /* @__PURE__ */ Object.freeze([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'LC_*',
  'TZ',
  'TERM',
  'TMPDIR',
  'TMP',
  'TEMP',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_CACHE_HOME',
  'XDG_STATE_HOME',
  'XDG_RUNTIME_DIR',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'COMSPEC',
  'PATHEXT',
  'WINDIR',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMDATA',
]);

const configured = new WeakMap<object, readonly string[]>();

/**
 * The values the caller gave explicitly (`extra`) for an environment made by `buildEnvironment`:
 * whatever their names, they are treated as secrets in the child's output.
 */
export function configuredValues(env: object): readonly string[] {
  return configured.get(env) ?? [];
}

/**
 * The child's environment: the parent's variables whose names match `inherit` (exact names, or
 * prefixes ending in `*`), then `extra` on top. Nothing else of the parent's environment leaks.
 * Inherited proxy variables (`HTTPS_PROXY`, `ALL_PROXY`, …) lose their `user:password@` part: a
 * credentialed proxy reaches the child only when given explicitly in `extra`.
 * Names compare case-insensitively on Windows.
 */
export function buildEnvironment(
  parent: Record<string, string | undefined>,
  inherit: readonly string[],
  extra: Readonly<Record<string, string>> | undefined,
  platform: string,
): Record<string, string> {
  const fold = platform === 'win32' ? (name: string) => name.toUpperCase() : (name: string) => name;
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const pattern of inherit) {
    if (pattern.endsWith('*')) prefixes.push(fold(pattern.slice(0, -1)));
    else exact.add(fold(pattern));
  }
  // Null prototype: a variable named `__proto__` is kept as a variable, not read as the prototype.
  const env: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined) continue;
    const folded = fold(name);
    if (!exact.has(folded) && !prefixes.some((prefix) => folded.startsWith(prefix))) continue;
    env[name] = isProxyVariable(name) ? stripProxyCredentials(value) : value;
  }
  const given = Object.entries(extra ?? {});
  for (const [name, value] of given) env[name] = value;
  configured.set(env, given.map(([, value]) => value));
  return env;
}
