import { HarnessError, type HarnessErrorOptions } from '../../core/errors/harness-error.js';
import { hasErrorMarker } from '../../core/errors/has-error-marker.js';

const marker = Symbol.for('agent-assistant.error.UnknownBackendError');

/**
 * Thrown when a local backend id is not one this package knows (`probeLocalBackends`,
 * `createLocalBackendAdapter`). Code `HARNESS_ERR_UNKNOWN_BACKEND`.
 */
export class UnknownBackendError extends HarnessError {
  /** The id that was asked for. */
  readonly backendId: string;
  /** The ids that exist. */
  readonly knownBackendIds: readonly string[];
  /** The message lists `knownBackendIds`. */
  constructor(backendId: string, knownBackendIds: readonly string[], options: HarnessErrorOptions = {}) {
    super(
      'HARNESS_ERR_UNKNOWN_BACKEND',
      `Unknown local backend "${backendId}". Known backends: ${knownBackendIds.join(', ')}.`,
      options,
    );
    Object.defineProperty(this, marker, { value: true });
    this.name = 'UnknownBackendError';
    this.backendId = backendId;
    this.knownBackendIds = [...knownBackendIds];
  }

  /** True for any `UnknownBackendError`, even one from another copy of this package. */
  static override isInstance(value: unknown): value is UnknownBackendError {
    return hasErrorMarker(value, marker);
  }
}
