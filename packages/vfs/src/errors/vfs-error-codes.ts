/**
 * Every code a VFS error can carry. Codes are public API: one may be added, never renamed.
 */
export const VFS_ERROR_CODES = Object.freeze([
  'VFS_ERR_NOT_FOUND',
  'VFS_ERR_PATH_ESCAPE',
  'VFS_ERR_INVALID_PATH',
  'VFS_ERR_INVALID_OPTION',
  'VFS_ERR_NOT_A_DIRECTORY',
  'VFS_ERR_IS_A_DIRECTORY',
  'VFS_ERR_IO',
] as const);

/** One of `VFS_ERROR_CODES`. */
export type VfsErrorCode = (typeof VFS_ERROR_CODES)[number];
