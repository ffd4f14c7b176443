import { vfsPathSegments } from '../../internal/vfs-path-parts.js';
import type { VfsEntry, VfsSearchResult } from '../../vfs-provider.js';

/** The help text of the `vfs` CLI. */
export const VFS_CLI_HELP = `Usage: vfs <command> [arguments] [options]

Browse a directory through the sandboxed @agent-assistant/vfs Node provider.

Commands:
  list [path]          Entries below path (default /)      --depth N (1)  --limit N (100)
  tree [path]          Indented tree below path            --depth N (3)  --limit N (500)
  read <path>          Print a file's content              --max-bytes N
  search <query...>    Name and line matches with numbers  --limit N (20) --provider NAME
  stat <path>          One entry's type, size and time

Options:
  --root DIR   Directory that becomes the VFS root (default: the current directory)
  --json       Print JSON instead of text
  -h, --help   Show this help
  --           End of options (for a query that starts with "-")

Exit codes: 0 ok, 1 not found (or another failure), 2 usage error or refused path.
`;

/** One line per entry: path, type and, for files, size. */
export function formatEntries(entries: readonly VfsEntry[]): string {
  if (entries.length === 0) return 'No entries.\n';
  return entries.map((entry) => `${entryLine(entry)}\n`).join('');
}

/** The start path, then each entry indented two spaces per level below it. */
export function formatTree(start: string, entries: readonly VfsEntry[]): string {
  if (entries.length === 0) return `${start}\n(no entries)\n`;
  const base = vfsPathSegments(start).length;
  const lines = entries.map((entry) => {
    const segments = vfsPathSegments(entry.path);
    const name = segments.at(-1) ?? entry.path;
    const indent = '  '.repeat(segments.length - base);
    return `${indent}${name}${entry.type === 'dir' ? '/' : ''}${entry.size === undefined ? '' : ` (${entry.size} bytes)`}`;
  });
  return `${start}\n${lines.join('\n')}\n`;
}

/** grep-style lines: `path:line:column: snippet`, or `path (name match)`. */
export function formatSearchResults(results: readonly VfsSearchResult[]): string {
  if (results.length === 0) return 'No results.\n';
  return results
    .map((result) => {
      if (result.line === undefined) return `${result.path} (name match)\n`;
      const snippet = (result.snippet ?? '').replace(/\s+/g, ' ');
      return `${result.path}:${result.line}:${result.column ?? 1}: ${snippet}\n`;
    })
    .join('');
}

/** `key: value` lines for one entry. */
export function formatStat(entry: VfsEntry): string {
  const lines = [`path: ${entry.path}`, `type: ${entry.type}`];
  if (entry.size !== undefined) lines.push(`size: ${entry.size}`);
  if (entry.updatedAt !== undefined) lines.push(`updatedAt: ${entry.updatedAt}`);
  if (entry.provider !== undefined) lines.push(`provider: ${entry.provider}`);
  if (entry.revision !== undefined) lines.push(`revision: ${entry.revision}`);
  return `${lines.join('\n')}\n`;
}

/** Pretty JSON and a newline. */
export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function entryLine(entry: VfsEntry): string {
  const parts = [entry.path, entry.type];
  if (entry.size !== undefined) parts.push(`${entry.size} bytes`);
  if (entry.provider !== undefined) parts.push(entry.provider);
  return parts.join('\t');
}
