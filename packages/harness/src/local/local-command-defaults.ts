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

/** Defaults of the local command options, in one place; the docs quote these. */
export const DEFAULT_LOCAL_COMMAND_OPTIONS = /* @__PURE__ */ Object.freeze({
  /** Wall time a command may run, in milliseconds (5 minutes). */
  timeoutMs: 300_000,
  /** Time between SIGTERM and SIGKILL to the process group, in milliseconds. */
  killGraceMs: 2_000,
  /** Cap on captured stdout, and separately on stderr, in bytes (8 MiB). */
  maxOutputBytes: 8_388_608 /* 8 MiB */,
  /** Parent environment variables passed through. */
  inheritEnv: DEFAULT_INHERITED_ENV,
});
