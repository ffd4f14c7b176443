import { VfsError, type VfsErrorOptions } from './vfs-error.js';
import { hasErrorMarker } from './has-error-marker.js';

const marker = Symbol.for('agent-assistant.error.VfsIsADirectoryError');

/** `read` was asked for a path that is a directory. Code `VFS_ERR_IS_A_DIRECTORY`. */
export class VfsIsADirectoryError extends VfsError {
  private readonly [marker] = true;

  constructor(message: string, options: VfsErrorOptions = {}) {
    super('VFS_ERR_IS_A_DIRECTORY', message, options);
    this.name = 'VfsIsADirectoryError';
  }

  /** True for any `VfsIsADirectoryError`, even one from another copy of this package. */
  static override isInstance(value: unknown): value is VfsIsADirectoryError {
    return hasErrorMarker(value, marker);
  }
}
