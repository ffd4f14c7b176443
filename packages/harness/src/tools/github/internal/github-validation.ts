/** GitHub account names: letters, digits and single hyphens, at most 39 characters. */
const OWNER_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
/** Repository names: letters, digits, `.`, `_`, `-`, at most 100 characters. */
const REPO_PATTERN = /^[A-Za-z0-9._-]{1,100}$/;
/** Branch, tag or commit names. */
const REF_PATTERN = /^[A-Za-z0-9._/-]{1,255}$/;
// Control characters and backslashes have no business in a repository path.
// eslint-disable-next-line no-control-regex
const FORBIDDEN_PATH_CHARACTERS = /[\u0000-\u001f\u007f\\]/;
const MAX_PATH_LENGTH = 1024;

/** Why `owner` is unusable, or `undefined` when it is fine. */
export function ownerProblem(owner: unknown): string | undefined {
  return typeof owner === 'string' && OWNER_PATTERN.test(owner)
    ? undefined
    : 'must be a GitHub account name (letters, digits, single hyphens)';
}

/** Why `repo` is unusable, or `undefined` when it is fine. */
export function repoProblem(repo: unknown): string | undefined {
  if (typeof repo !== 'string' || !REPO_PATTERN.test(repo) || repo === '.' || repo === '..' || repo.endsWith('.git')) {
    return 'must be a repository name (letters, digits, ".", "_", "-"; no ".git" suffix)';
  }
  return undefined;
}

/**
 * Why a repository-relative path is unusable: it must not start with `/`, contain `.` or `..`
 * segments, empty segments, backslashes or control characters.
 */
export function pathProblem(path: unknown): string | undefined {
  if (typeof path !== 'string' || path === '')
    return 'must be a non-empty path relative to the repository root, e.g. "src/index.ts"';
  if (path.length > MAX_PATH_LENGTH) return `must be at most ${MAX_PATH_LENGTH} characters`;
  if (path.startsWith('/')) return 'must be relative to the repository root, without a leading "/"';
  if (FORBIDDEN_PATH_CHARACTERS.test(path)) return 'must not contain backslashes or control characters';
  const segments = path.replace(/\/$/, '').split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    return 'must not contain empty, "." or ".." segments';
  }
  return undefined;
}

/** Why a git ref is unusable, or `undefined` when it is fine. */
export function refProblem(ref: unknown): string | undefined {
  if (typeof ref !== 'string' || !REF_PATTERN.test(ref) || ref.startsWith('/') || ref.startsWith('-') || ref.endsWith('/')) {
    return 'must be a branch, tag or commit SHA (letters, digits, ".", "_", "-", "/")';
  }
  if (ref.includes('..') || ref.includes('//')) return 'must not contain ".." or "//"';
  return undefined;
}

/** A validated path without a trailing slash. */
export function normalisePath(path: string): string {
  return path.replace(/\/$/, '');
}

/** Percent-encodes each segment of a repository path. */
export function encodePath(path: string): string {
  return normalisePath(path).split('/').map(encodeURIComponent).join('/');
}
