/** Agent and skill names: they name files (`agents/<name>.md`, `skills/<name>/`) and are shown to models. */
export const PROJECT_NAME_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;
/** Tool names, as `defineTool` accepts them; `*` is accepted only as a permission key. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Secret names (the secret's value never appears in a project). */
export const SECRET_NAME_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;

/** A name quoted for a message, shortened and with control characters escaped. */
export function quoteName(name: string): string {
  return JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
}

/**
 * Why a manifest `file` is refused, or undefined when it is a usable project-relative path:
 * relative (no leading `/`), `/`-separated, ending `.md`, with no empty, `.` or `..` segments,
 * backslashes or control characters.
 */
export function agentFilePathProblem(path: string): string | undefined {
  if (path.startsWith('/')) return 'must be relative to the project folder (no leading /)';
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(path)) return 'must not contain backslashes or control characters';
  if (!path.endsWith('.md')) return 'must end in .md';
  if (path.length > 1024) return 'is longer than 1024 characters';
  for (const segment of path.split('/')) {
    if (segment === '') return 'must not contain empty segments (//) or end in /';
    if (segment === '.' || segment === '..') return 'must not contain . or .. segments';
  }
  return undefined;
}

/** `root` joined with a project-relative path (`/` + `agents/a.md` → `/agents/a.md`). */
export function projectPath(root: string, relative: string): string {
  return root === '/' ? `/${relative}` : `${root}/${relative}`;
}
