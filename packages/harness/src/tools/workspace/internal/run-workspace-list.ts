import type { VfsEntry } from '@agent-assistant/vfs';
import type { HarnessToolResult } from '../../../shared/types/tools.js';
import { WORKSPACE_TOOL_LIMITS } from '../workspace-tool-options.js';
import { mapVfsError } from './map-vfs-error.js';
import { displaySourcePath } from '../../../shared/normalize-source-path.js';
import { withSignal } from './with-signal.js';
import { cancelledResult, successResult } from './workspace-results.js';
import { fitLines, type WorkspaceRunContext } from './workspace-run-context.js';

/** Runs `workspace_list` for an already normalised `sourcePath`. */
export async function runWorkspaceList(context: WorkspaceRunContext, sourcePath: string): Promise<HarnessToolResult> {
  const { call, input, options, signal } = context;
  const depth = (input.depth as number | undefined) ?? 1;
  const limit = (input.limit as number | undefined) ?? WORKSPACE_TOOL_LIMITS.defaultListLimit;
  let found: VfsEntry[];
  try {
    const outcome = await withSignal(() => options.vfs.list(sourcePath, { depth, limit: limit + 1 }), signal);
    if (outcome.aborted) return cancelledResult(call, sourcePath);
    found = Array.isArray(outcome.value) ? outcome.value : [];
  } catch (error) {
    return mapVfsError(call, error, sourcePath);
  }
  const truncated = found.length > limit;
  const entries = found.slice(0, limit).map(toCitable);
  const levels = depth === 1 ? '' : ` (${depth} levels deep)`;
  if (entries.length === 0) {
    return successResult(call, `${sourcePath} is an empty directory: it has no files or directories.`, {
      sourcePath,
      depth,
      entries: [],
      empty: true,
      truncated: false,
    });
  }
  const header = truncated
    ? `First ${entries.length} entries under ${sourcePath}${levels}; there are more (list a subdirectory or raise limit):`
    : `${entries.length} ${entries.length === 1 ? 'entry' : 'entries'} under ${sourcePath}${levels}:`;
  const lines = entries.map((entry) => {
    if (entry.type === 'dir') return `${entry.sourcePath}/ (directory)`;
    const size = typeof entry.size === 'number' ? `, ${entry.size} bytes` : '';
    return `${entry.sourcePath} (${entry.type}${size})`;
  });
  const fitted = fitLines(header, lines, options.maxReadBytes);
  return successResult(call, fitted.text, {
    sourcePath,
    depth,
    entries,
    empty: false,
    truncated: truncated || fitted.dropped > 0,
  });
}

function toCitable(entry: VfsEntry): Record<string, unknown> & { sourcePath: string; type: string; size?: number } {
  const citable: Record<string, unknown> & { sourcePath: string; type: string; size?: number } = {
    sourcePath: displaySourcePath(String(entry.path)),
    type: entry.type,
  };
  if (typeof entry.size === 'number') citable.size = entry.size;
  for (const key of ['provider', 'title', 'revision', 'updatedAt'] as const) {
    if (typeof entry[key] === 'string') citable[key] = entry[key];
  }
  return citable;
}
