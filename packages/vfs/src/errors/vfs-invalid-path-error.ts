import { VfsError, type VfsErrorOptions } from './vfs-error.js';
import { hasErrorMarker } from './has-error-marker.js';

const marker = Symbol.for('agent-assistant.error.VfsInvalidPathError');

/** The path is not a usable VFS path: not a string, too long, or containing a NUL byte, another control character or a backslash. Code `VFS_ERR_INVALID_PATH`. */
export class VfsInvalidPathError extends VfsError {
  private readonly [marker] = true;

  constructor(message: string, options: VfsErrorOptions = {}) {
    super('VFS_ERR_INVALID_PATH', message, options);
    this.name = 'VfsInvalidPathError';
  }

  /** True for any `VfsInvalidPathError`, even one from another copy of this package. */
  static override isInstance(value: unknown): value is VfsInvalidPathError {
    return hasErrorMarker(value, marker);
  }
}
