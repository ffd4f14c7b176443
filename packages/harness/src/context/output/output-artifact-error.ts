import { HarnessError, type HarnessErrorOptions } from '../../core/errors/harness-error.js';
import { hasErrorMarker } from '../../core/errors/has-error-marker.js';

const marker = Symbol.for('agent-assistant.error.OutputArtifactError');

/**
 * Why an output artifact could not be stored, read or recovered.
 * - `invalid_artifact_id` — the id is not 64 lowercase hex characters (`..`, `/`, `__proto__`,
 *   control characters and everything else are refused before any store is asked).
 * - `not_found` — the store holds no artifact under that id.
 * - `tampered` — the stored bytes do not hash to the id (changed, truncated, replaced by a link
 *   or a special file, or larger than any artifact can be).
 * - `target_exists` — `recoverOutput`'s `into` already exists; nothing was written.
 * - `unsafe_directory` — a directory store's folder is not a private directory of this user
 *   (a symbolic link, not a directory, or readable by group or others).
 * - `store_failed` — the store threw (a full disk, a missing permission).
 * - `write_failed` — recovery could not create its directory or files (e.g. a missing parent).
 */
export type OutputArtifactErrorReason =
  | 'invalid_artifact_id'
  | 'not_found'
  | 'tampered'
  | 'target_exists'
  | 'unsafe_directory'
  | 'store_failed'
  | 'write_failed';

/** Thrown by `reduceOutput`, `readOutputArtifact`, `recoverOutput` and the directory output store. */
export class OutputArtifactError extends HarnessError {
  /** What went wrong. */
  readonly reason: OutputArtifactErrorReason;
  constructor(reason: OutputArtifactErrorReason, message: string, options: HarnessErrorOptions = {}) {
    super('HARNESS_ERR_OUTPUT_ARTIFACT', message, options);
    Object.defineProperty(this, marker, { value: true });
    this.name = 'OutputArtifactError';
    this.reason = reason;
  }

  /** True for any `OutputArtifactError`, even one from another copy of this package. */
  static override isInstance(value: unknown): value is OutputArtifactError {
    return hasErrorMarker(value, marker);
  }
}
