import { VfsError, type VfsErrorOptions } from './vfs-error.js';
import { hasErrorMarker } from './has-error-marker.js';

const marker = Symbol.for('agent-assistant.error.VfsNotFoundError');

/** Nothing exists at the path (for example `list` of a missing directory). Code `VFS_ERR_NOT_FOUND`. */
export class VfsNotFoundError extends VfsError {
  private readonly [marker] = true;

  constructor(message: string, options: VfsErrorOptions = {}) {
    super('VFS_ERR_NOT_FOUND', message, options);
    this.name = 'VfsNotFoundError';
  }

  /** True for any `VfsNotFoundError`, even one from another copy of this package. */
  static override isInstance(value: unknown): value is VfsNotFoundError {
    return hasErrorMarker(value, marker);
  }
}
