import { hasErrorMarker } from './has-error-marker.js';

const marker = Symbol.for('agent-assistant.error.VfsError');

/** Options of every VFS error. */
export interface VfsErrorOptions {
  /** The underlying error, when there is one. */
  cause?: unknown;
  /** The VFS path the error is about, when there is one. */
  path?: string | undefined;
}

/**
 * Base class of every error `@agent-assistant/vfs` throws. Match on `code` (permanent,
 * `VFS_ERR_*`), or use the static `isInstance`, which works across duplicate installs.
 */
export class VfsError extends Error {
  /** A permanent, documented code such as `VFS_ERR_NOT_FOUND`. */
  readonly code: string;
  /** The VFS path the error is about, when known. */
  readonly path: string | undefined;
  private readonly [marker] = true;

  constructor(code: string, message: string, options: VfsErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'VfsError';
    this.code = code;
    this.path = options.path;
  }

  /** True for any VFS error, even one created by another copy of this package. */
  static isInstance(value: unknown): value is VfsError {
    return hasErrorMarker(value, marker);
  }
}
