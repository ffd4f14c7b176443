import { HarnessError, type HarnessErrorOptions } from '../../../core/errors/harness-error.js';
import { hasErrorMarker } from '../../../core/errors/has-error-marker.js';

const marker = Symbol.for('agent-assistant.error.RelayConnectionError');

/**
 * Thrown by `RelayAdapter` when the broker cannot be used: it does not answer at start, it
 * refuses a message, or the adapter was shut down. Code `HARNESS_ERR_RELAY_CONNECTION`. The message
 * names the broker's URL, never its API key. (A missing broker or peer package is a
 * `HarnessConfigError` instead.)
 */
export class RelayConnectionError extends HarnessError {
  /** The broker's base URL, when known. */
  readonly baseUrl: string | undefined;
  constructor(message: string, options: HarnessErrorOptions & { baseUrl?: string } = {}) {
    super('HARNESS_ERR_RELAY_CONNECTION', message, options);
    Object.defineProperty(this, marker, { value: true });
    this.name = 'RelayConnectionError';
    this.baseUrl = options.baseUrl;
  }

  /** True for any `RelayConnectionError`, even one from another copy of this package. */
  static override isInstance(value: unknown): value is RelayConnectionError {
    return hasErrorMarker(value, marker);
  }
}
