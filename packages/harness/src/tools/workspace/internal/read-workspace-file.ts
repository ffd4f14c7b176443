import type { VfsReadResult } from '@agent-assistant/vfs';
import type { HarnessToolResult } from '../../../shared/types/tools.js';
import { mapVfsError, notFoundResult } from './map-vfs-error.js';
import { withSignal } from './with-signal.js';
import { cancelledResult } from './workspace-results.js';
import type { WorkspaceRunContext } from './workspace-run-context.js';

/** Reads a file for `workspace_read` and `workspace_read_json`: the result, or the error result to return. */
export async function readWorkspaceFile(
  { call, options, signal }: WorkspaceRunContext,
  sourcePath: string,
): Promise<{ file: VfsReadResult } | { failure: HarnessToolResult }> {
  try {
    const outcome = await withSignal(() => options.vfs.read(sourcePath), signal);
    if (outcome.aborted) return { failure: cancelledResult(call, sourcePath) };
    const file = outcome.value;
    if (file === null || file === undefined) return { failure: notFoundResult(call, sourcePath) };
    if (typeof file.content !== 'string') {
      return { failure: mapVfsError(call, new Error('the workspace returned no text content'), sourcePath) };
    }
    return { file };
  } catch (error) {
    return { failure: mapVfsError(call, error, sourcePath) };
  }
}

/** Facts about a read that both read tools report. */
export function fileFacts(file: VfsReadResult): Record<string, unknown> {
  const facts: Record<string, unknown> = {};
  for (const key of ['contentType', 'provider', 'title', 'revision', 'updatedAt'] as const) {
    if (typeof file[key] === 'string') facts[key] = file[key];
  }
  return facts;
}
