export { VfsError, type VfsErrorOptions } from './vfs-error.js';
export { VfsNotFoundError } from './vfs-not-found-error.js';
export { VfsPathEscapeError } from './vfs-path-escape-error.js';
export { VfsInvalidPathError } from './vfs-invalid-path-error.js';
export { VfsInvalidOptionError } from './vfs-invalid-option-error.js';
export { VfsNotADirectoryError } from './vfs-not-a-directory-error.js';
export { VfsIsADirectoryError } from './vfs-is-a-directory-error.js';
export { VfsIoError } from './vfs-io-error.js';
export { VFS_ERROR_CODES, type VfsErrorCode } from './vfs-error-codes.js';
