import type { VfsSearchResult } from '../vfs-provider.js';
import { vfsBasename } from './vfs-path-parts.js';
import { walkTree, type TreeSource } from './walk-tree.js';

/** The longest snippet a search result carries, in characters. */
export const MAX_SNIPPET_CHARS = 200;

/** What the shared search needs besides the tree. */
export interface SearchTreeOptions {
  limit: number;
  /** Recursion bound for the walk (levels below `/`). */
  maxDepth: number;
  /** Files whose content is read at most; further files are not searched. */
  maxFiles: number;
  /** The text of a file, or `undefined` to skip its content (binary, too large, unreadable). */
  loadText(path: string, size: number | undefined): Promise<string | undefined>;
}

/**
 * Case-insensitive substring search over file names and file lines, in walk order: for each file,
 * a name hit first (no `line`), then one result per matching line with its 1-based number.
 */
export async function searchTree(source: TreeSource, query: string, options: SearchTreeOptions): Promise<VfsSearchResult[]> {
  const needle = query.toLowerCase();
  const results: VfsSearchResult[] = [];
  let filesRead = 0;
  await walkTree(source, '/', options.maxDepth, async (entry) => {
    if (entry.type !== 'file') return undefined;
    if (vfsBasename(entry.path).toLowerCase().includes(needle)) {
      results.push({ ...entry });
      if (results.length >= options.limit) return 'stop';
    }
    if (filesRead >= options.maxFiles) return 'stop';
    filesRead += 1;
    const text = await options.loadText(entry.path, entry.size);
    if (text === undefined) return undefined;
    const lines = text.split(/\r?\n/);
    for (let index = 0; index < lines.length; index += 1) {
      const line = lines[index]!;
      const column = line.toLowerCase().indexOf(needle);
      if (column === -1) continue;
      results.push({ ...entry, line: index + 1, column: column + 1, snippet: snippetAround(line, column, needle.length) });
      if (results.length >= options.limit) return 'stop';
    }
    return undefined;
  });
  return results;
}

/** The line, trimmed, or a window of at most `MAX_SNIPPET_CHARS` around the match. */
export function snippetAround(line: string, column: number, matchLength: number): string {
  if (line.length <= MAX_SNIPPET_CHARS) return line.trim();
  const lead = Math.max(0, Math.floor((MAX_SNIPPET_CHARS - matchLength) / 2));
  const start = Math.max(0, Math.min(column - lead, line.length - MAX_SNIPPET_CHARS));
  const window = line.slice(start, start + MAX_SNIPPET_CHARS).trim();
  return `${start > 0 ? '…' : ''}${window}${start + MAX_SNIPPET_CHARS < line.length ? '…' : ''}`;
}
