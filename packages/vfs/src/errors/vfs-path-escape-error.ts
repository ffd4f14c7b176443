import { VfsError, type VfsErrorOptions } from './vfs-error.js';
import { hasErrorMarker } from './has-error-marker.js';

const marker = Symbol.for('agent-assistant.error.VfsPathEscapeError');

/** The path would leave the VFS root: a `..` segment, a drive-letter or UNC path, or a symlink that points outside the root. Code `VFS_ERR_PATH_ESCAPE`. */
export class VfsPathEscapeError extends VfsError {
  private readonly [marker] = true;

  constructor(message: string, options: VfsErrorOptions = {}) {
    super('VFS_ERR_PATH_ESCAPE', message, options);
    this.name = 'VfsPathEscapeError';
  }

  /** True for any `VfsPathEscapeError`, even one from another copy of this package. */
  static override isInstance(value: unknown): value is VfsPathEscapeError {
    return hasErrorMarker(value, marker);
  }
}
