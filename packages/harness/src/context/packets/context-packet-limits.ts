/** Bounds of context packets. Documented defaults quote this object. */
export const CONTEXT_PACKET_LIMITS = /* @__PURE__ */ Object.freeze({
  /** Largest manifest, as compact UTF-8 JSON (256 KiB). */
  maxManifestBytes: 262_144,
  /** Longest selection id (characters). */
  maxIdLength: 128,
  /** Largest line number a selection may name. */
  maxLine: 100_000_000,
  /** Largest budget (bytes, 64 MiB). */
  maxBudget: 67_108_864,
  /** `maxFileBytes` when none is given (bytes, 1 MiB). */
  defaultMaxFileBytes: 1_048_576,
  /** Largest `maxFileBytes` (bytes, 64 MiB). */
  maxFileBytesCeiling: 67_108_864,
  /** `maxTotalBytes` when none is given (bytes, 32 MiB). */
  defaultMaxTotalBytes: 33_554_432,
  /** Largest `maxTotalBytes` (bytes, 1 GiB). */
  maxTotalBytesCeiling: 1_073_741_824,
});
