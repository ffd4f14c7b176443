import { HarnessError } from '../../core/errors/harness-error.js';
import { hasErrorMarker } from '../../core/errors/has-error-marker.js';

const marker = Symbol.for('agent-assistant.error.UnsupportedInputError');

/** Request parts a provider cannot send; a failed step carries this as its result code. */
export type UnsupportedInputReason = 'attachments_unsupported' | 'output_unsupported' | 'tool_choice_unsupported';

/**
 * Thrown by a provider's `buildBody` and the `convertTo*` converters when the turn asks for
 * something its API (or the configured model) cannot take. Code `HARNESS_ERR_UNSUPPORTED_INPUT`;
 * `reason` says what. In a turn the step ends as an `invalid` / `provider_error` output whose
 * code is `reason`, not retryable, and nothing is sent. Never silently drop what the user gave
 * instead.
 */
export class UnsupportedInputError extends HarnessError {
  /** The request part that cannot be sent; a failed turn's `error.code`. */
  readonly reason: UnsupportedInputReason;

  constructor(reason: UnsupportedInputReason, message: string) {
    super('HARNESS_ERR_UNSUPPORTED_INPUT', message);
    Object.defineProperty(this, marker, { value: true });
    this.name = 'UnsupportedInputError';
    this.reason = reason;
  }

  /** True for an `UnsupportedInputError` from any copy of this package. */
  static override isInstance(value: unknown): value is UnsupportedInputError {
    return hasErrorMarker(value, marker);
  }
}
