import { VfsError, type VfsErrorOptions } from './vfs-error.js';
import { hasErrorMarker } from './has-error-marker.js';

const marker = Symbol.for('agent-assistant.error.VfsInvalidOptionError');

/**
 * A caller mistake in options: a provider factory's options, or a method's options such as a
 * non-integer `limit`. `field` names the offending option. Code `VFS_ERR_INVALID_OPTION`.
 */
export class VfsInvalidOptionError extends VfsError {
  /** Name of the invalid option, e.g. `maxReadBytes` or `limit`. */
  readonly field: string;
  private readonly [marker] = true;

  constructor(message: string, options: VfsErrorOptions & { field: string }) {
    super('VFS_ERR_INVALID_OPTION', message, options);
    this.name = 'VfsInvalidOptionError';
    this.field = options.field;
  }

  /** True for any `VfsInvalidOptionError`, even one from another copy of this package. */
  static override isInstance(value: unknown): value is VfsInvalidOptionError {
    return hasErrorMarker(value, marker);
  }
}
