import { hasErrorMarker } from './has-error-marker.js';

const marker = Symbol.for('agent-assistant.error.HarnessError');

/** Options of every harness error. */
export interface HarnessErrorOptions {
  cause?: unknown;
}

/**
 * Base class of every error the harness throws. Match on `code`, or use the static
 * `isInstance`, which works across duplicate installs of the package.
 */
export class HarnessError extends Error {
  /** A permanent, documented code such as `HARNESS_ERR_INVALID_CONFIG`. */
  readonly code: string;
  constructor(code: string, message: string, options: HarnessErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    // A property set here, not a class field (in every error class): a computed field key keeps the class in every bundle.
    Object.defineProperty(this, marker, { value: true });
    this.name = 'HarnessError';
    this.code = code;
  }

  /** True for any harness error, even one created by another copy of this package. */
  static isInstance(value: unknown): value is HarnessError {
    return hasErrorMarker(value, marker);
  }
}
