/** Defaults shared by the bundled providers. Documented defaults quote this object. */
export const DEFAULT_VFS_LIMITS = Object.freeze({
  /** `list` depth when none is given (levels). */
  listDepth: 1,
  /** `list` limit when none is given (entries). */
  listLimit: 1000,
  /** `search` limit when none is given (results). */
  searchLimit: 20,
  /** Byte cap of `read` (1 MiB). */
  maxReadBytes: 1_048_576,
});
