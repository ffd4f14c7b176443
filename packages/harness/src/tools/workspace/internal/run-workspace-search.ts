import type { VfsSearchResult } from '@agent-assistant/vfs';
import type { HarnessToolResult } from '../../../shared/types/tools.js';
import { mapVfsError } from './map-vfs-error.js';
import { displaySourcePath } from '../../../shared/normalize-source-path.js';
import { withSignal } from './with-signal.js';
import { cancelledResult, successResult } from './workspace-results.js';
import { fitLines, MAX_RESULT_SNIPPET_CHARS, type WorkspaceRunContext } from './workspace-run-context.js';

/** Runs `workspace_search`: one more result than `limit` is asked for, to know whether there are more. */
export async function runWorkspaceSearch({ call, input, options, signal }: WorkspaceRunContext): Promise<HarnessToolResult> {
  const query = (input.query as string).trim();
  const limit = (input.limit as number | undefined) ?? options.defaultSearchLimit;
  const provider = input.provider as string | undefined;
  let found: VfsSearchResult[];
  try {
    const outcome = await withSignal(
      () => options.vfs.search(query, provider === undefined ? { limit: limit + 1 } : { limit: limit + 1, provider }),
      signal,
    );
    if (outcome.aborted) return cancelledResult(call, '/');
    found = Array.isArray(outcome.value) ? outcome.value : [];
  } catch (error) {
    return mapVfsError(call, error, '/');
  }
  const truncated = found.length > limit;
  const results = found.slice(0, limit).map(toCitable);
  const scope = provider === undefined ? 'the workspace' : `the workspace (provider ${provider})`;
  if (results.length === 0) {
    return successResult(call, `No matches for "${query}" in ${scope}. The search returned nothing for this query.`, {
      sourcePath: '/',
      query,
      results: [],
      empty: true,
      truncated: false,
    });
  }
  const header = truncated
    ? `Showing the first ${results.length} matches for "${query}" in ${scope}; there are more (narrow the query or raise limit).`
    : `${results.length} ${results.length === 1 ? 'match' : 'matches'} for "${query}" in ${scope}:`;
  const lines = results.map((result, index) => {
    const where = result.line === undefined ? `${result.sourcePath} (file name matches)` : `${result.sourcePath}:${result.line}`;
    return `${index + 1}. ${where}${result.snippet === undefined ? '' : ` — ${result.snippet}`}`;
  });
  const fitted = fitLines(header, lines, options.maxReadBytes);
  return successResult(call, fitted.text, {
    sourcePath: '/',
    query,
    results,
    sourcePaths: [...new Set(results.map((result) => result.sourcePath))],
    empty: false,
    truncated: truncated || fitted.dropped > 0,
  });
}

/** A search hit as the model sees it: `sourcePath` (normalised) instead of `path`. */
function toCitable(result: VfsSearchResult): Record<string, unknown> & { sourcePath: string; line?: number; snippet?: string } {
  const citable: Record<string, unknown> & { sourcePath: string; line?: number; snippet?: string } = {
    sourcePath: displaySourcePath(String(result.path)),
    type: result.type,
  };
  if (typeof result.line === 'number') citable.line = result.line;
  if (typeof result.column === 'number') citable.column = result.column;
  if (typeof result.snippet === 'string') citable.snippet = shorten(result.snippet.replace(/\s+/g, ' ').trim());
  for (const key of ['provider', 'title', 'revision', 'updatedAt'] as const) {
    if (typeof result[key] === 'string') citable[key] = result[key];
  }
  if (typeof result.score === 'number' && Number.isFinite(result.score)) citable.score = result.score;
  return citable;
}

function shorten(text: string): string {
  return text.length <= MAX_RESULT_SNIPPET_CHARS ? text : `${text.slice(0, MAX_RESULT_SNIPPET_CHARS)}…`;
}
