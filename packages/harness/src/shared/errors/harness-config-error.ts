import { HarnessError, type HarnessErrorOptions } from './harness-error.js';
import { hasErrorMarker } from './has-error-marker.js';

const marker = Symbol.for('agent-assistant.error.HarnessConfigError');

/**
 * Thrown for caller mistakes: an invalid `createHarness` config, a malformed turn input or
 * resume resolution. `field` names the offending option, e.g. `limits.maxIterations`.
 */
export class HarnessConfigError extends HarnessError {
  /** Dotted path of the invalid field, when known. */
  readonly field: string | undefined;
  constructor(message: string, options: HarnessErrorOptions & { field?: string } = {}) {
    super('HARNESS_ERR_INVALID_CONFIG', message, options);
    Object.defineProperty(this, marker, { value: true });
    this.name = 'HarnessConfigError';
    this.field = options.field;
  }

  /** True for any `HarnessConfigError`, even one from another copy of this package. */
  static override isInstance(value: unknown): value is HarnessConfigError {
    return hasErrorMarker(value, marker);
  }
}
