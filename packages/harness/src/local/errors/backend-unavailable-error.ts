import { HarnessError, type HarnessErrorOptions } from '../../core/errors/harness-error.js';
import { hasErrorMarker } from '../../core/errors/has-error-marker.js';

const marker = Symbol.for('agent-assistant.error.BackendUnavailableError');

/**
 * Thrown by `requireLocalBackend` when a local backend's CLI cannot be used here (not on `PATH`,
 * not executable, or its `--version` fails). The message says what to do about it.
 * Code `HARNESS_ERR_BACKEND_UNAVAILABLE`.
 */
export class BackendUnavailableError extends HarnessError {
  /** The backend, e.g. `claude-code`. */
  readonly backendId: string;
  /** The command that was looked for, e.g. `claude`. */
  readonly command: string;
  /** `message` should say what to do (install the CLI, fix its path or permissions). */
  constructor(backendId: string, command: string, message: string, options: HarnessErrorOptions = {}) {
    super('HARNESS_ERR_BACKEND_UNAVAILABLE', message, options);
    Object.defineProperty(this, marker, { value: true });
    this.name = 'BackendUnavailableError';
    this.backendId = backendId;
    this.command = command;
  }

  /** True for any `BackendUnavailableError`, even one from another copy of this package. */
  static override isInstance(value: unknown): value is BackendUnavailableError {
    return hasErrorMarker(value, marker);
  }
}
