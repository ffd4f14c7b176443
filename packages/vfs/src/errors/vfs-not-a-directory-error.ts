import { VfsError, type VfsErrorOptions } from './vfs-error.js';
import { hasErrorMarker } from './has-error-marker.js';

const marker = Symbol.for('agent-assistant.error.VfsNotADirectoryError');

/** `list` was asked for a path that is a file. Code `VFS_ERR_NOT_A_DIRECTORY`. */
export class VfsNotADirectoryError extends VfsError {
  private readonly [marker] = true;

  constructor(message: string, options: VfsErrorOptions = {}) {
    super('VFS_ERR_NOT_A_DIRECTORY', message, options);
    this.name = 'VfsNotADirectoryError';
  }

  /** True for any `VfsNotADirectoryError`, even one from another copy of this package. */
  static override isInstance(value: unknown): value is VfsNotADirectoryError {
    return hasErrorMarker(value, marker);
  }
}
