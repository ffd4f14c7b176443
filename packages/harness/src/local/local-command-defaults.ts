import { DEFAULT_INHERITED_ENV } from '../process/build-environment.js';

export { DEFAULT_INHERITED_ENV };

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
