import { VfsInvalidPathError } from './errors/vfs-invalid-path-error.js';
import { VfsPathEscapeError } from './errors/vfs-path-escape-error.js';

/** The longest VFS path accepted, in UTF-16 code units. */
export const MAX_VFS_PATH_LENGTH = 4096;

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
const DRIVE_LETTER = /^[A-Za-z]:/;

/**
 * Turns a path into its canonical VFS form: trimmed, a leading `/`, no trailing `/`, no empty or
 * `.` segments (`docs//a/./b.md/` → `/docs/a/b.md`; `''` and `/` → `/`). A leading `/` means the
 * VFS root, never the host's root.
 *
 * @throws VfsInvalidPathError for a non-string, a path over `MAX_VFS_PATH_LENGTH`, a NUL byte or
 *   another control character, or a backslash.
 * @throws VfsPathEscapeError for a `..` segment or a drive-letter path (`C:`), which could leave
 *   the root.
 * @example
 * ```ts
 * normalizeVfsPath('docs//guide/'); // '/docs/guide'
 * ```
 */
export function normalizeVfsPath(path: string): string {
  if (typeof path !== 'string') {
    throw new VfsInvalidPathError(`A VFS path must be a string; got ${typeof path}.`);
  }
  if (path.length > MAX_VFS_PATH_LENGTH) {
    throw new VfsInvalidPathError(`The path is longer than ${MAX_VFS_PATH_LENGTH} characters.`);
  }
  if (path.includes('\u0000')) {
    throw new VfsInvalidPathError('The path contains a NUL byte.', { path: visible(path) });
  }
  if (CONTROL_CHARACTERS.test(path)) {
    throw new VfsInvalidPathError('The path contains a control character.', { path: visible(path) });
  }
  if (path.includes('\\')) {
    throw new VfsInvalidPathError('The path contains a backslash; use "/" to separate segments.', { path });
  }
  const trimmed = path.trim();
  if (DRIVE_LETTER.test(trimmed)) {
    throw new VfsPathEscapeError(`"${trimmed}" is a drive-letter path; VFS paths start at the VFS root "/".`, {
      path: trimmed,
    });
  }
  const segments: string[] = [];
  for (const segment of trimmed.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      throw new VfsPathEscapeError(`"${trimmed}" contains a ".." segment, which is not allowed.`, { path: trimmed });
    }
    segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

/** Makes control characters printable for error messages. */
function visible(path: string): string {
  return JSON.stringify(path).slice(1, -1);
}
