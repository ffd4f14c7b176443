import { VfsError, type VfsErrorOptions } from './vfs-error.js';
import { hasErrorMarker } from './has-error-marker.js';

const marker = Symbol.for('agent-assistant.error.VfsIoError');

/** The underlying storage failed (for example a permission error); `cause` holds the original error. Code `VFS_ERR_IO`. */
export class VfsIoError extends VfsError {
  private readonly [marker] = true;

  constructor(message: string, options: VfsErrorOptions = {}) {
    super('VFS_ERR_IO', message, options);
    this.name = 'VfsIoError';
  }

  /** True for any `VfsIoError`, even one from another copy of this package. */
  static override isInstance(value: unknown): value is VfsIoError {
    return hasErrorMarker(value, marker);
  }
}
