const marker = Symbol.for('agent-assistant.error.UnsupportedInputError');

/** Codes of request parts a provider cannot send. */
export type UnsupportedInputCode = 'attachments_unsupported' | 'output_unsupported' | 'tool_choice_unsupported';

/**
 * Thrown by a provider's `buildBody` when the turn asks for something its API (or the configured
 * model) cannot take; the step ends as an `invalid` / `provider_error` output with this `code`,
 * not retryable, and nothing is sent. Never silently drop what the user gave instead.
 */
export class UnsupportedInputError extends Error {
  override readonly name = 'UnsupportedInputError';
  readonly code: UnsupportedInputCode;

  constructor(code: UnsupportedInputCode, message: string) {
    super(message);
    Object.defineProperty(this, marker, { value: true });
    this.code = code;
  }

  /** True for an `UnsupportedInputError` from any copy of this package. */
  static isInstance(value: unknown): value is UnsupportedInputError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}
