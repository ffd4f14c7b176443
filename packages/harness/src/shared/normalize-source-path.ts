/**
 * The harness keeps its own copy of the VFS path rules so that it imports only types from
 * `@agent-assistant/vfs` (the package is a separate build). Keep it in step with
 * `normalizeVfsPath` in packages/vfs/src/normalize-vfs-path.ts; a parity test guards this.
 */

/** The longest path accepted, in UTF-16 code units (as `MAX_VFS_PATH_LENGTH`). */
export const MAX_SOURCE_PATH_LENGTH = 4096;

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
const DRIVE_LETTER = /^[A-Za-z]:/;

/** A normalised path, or why the path was refused. */
export type SourcePathResult = { ok: true; path: string } | { ok: false; reason: string };

/**
 * Normalises a VFS path the way `normalizeVfsPath` does (`docs//a/` → `/docs/a`), returning the
 * reason instead of throwing when the path is refused.
 */
export function normalizeSourcePath(path: string): SourcePathResult {
  if (path.length > MAX_SOURCE_PATH_LENGTH) return refuse(`is longer than ${MAX_SOURCE_PATH_LENGTH} characters`);
  if (path.includes('\u0000')) return refuse('contains a NUL byte');
  if (CONTROL_CHARACTERS.test(path)) return refuse('contains a control character');
  if (path.includes('\\')) return refuse('contains a backslash; separate segments with "/"');
  const trimmed = path.trim();
  if (DRIVE_LETTER.test(trimmed)) return refuse('is a drive-letter path; workspace paths start at "/"');
  const segments: string[] = [];
  for (const segment of trimmed.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') return refuse('contains "..", which is not allowed; use a path from the workspace root');
    segments.push(segment);
  }
  return { ok: true, path: `/${segments.join('/')}` };
}

/** The normalised form of a path a provider returned, or the path as given when it cannot be normalised. */
export function displaySourcePath(path: string): string {
  const result = normalizeSourcePath(path);
  return result.ok ? result.path : path;
}

function refuse(reason: string): SourcePathResult {
  return { ok: false, reason };
}
