import type { HarnessToolCall, HarnessToolResult } from '../../../shared/types/tools.js';
import { errorResult, invalidInputResult } from './workspace-results.js';
import { describeError } from '../../../shared/describe-error.js';

/**
 * Turns an error a `VfsProvider` threw into a structured tool result. VFS errors are recognised
 * by their `code` (`VFS_ERR_*`), so no runtime import of `@agent-assistant/vfs` is needed.
 */
export function mapVfsError(call: HarnessToolCall, error: unknown, sourcePath: string): HarnessToolResult {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const message = describeError(error);
  const withPath = { retryable: true, sourcePath };
  switch (code) {
    case 'VFS_ERR_NOT_FOUND':
      return notFoundResult(call, sourcePath);
    case 'VFS_ERR_PATH_ESCAPE':
      return errorResult(call, 'path_not_allowed', `${sourcePath} is outside the workspace and cannot be read: ${message}`, withPath);
    case 'VFS_ERR_INVALID_PATH':
    case 'VFS_ERR_INVALID_OPTION':
      return invalidInputResult(call, code === 'VFS_ERR_INVALID_PATH' ? 'path' : fieldOf(error), message);
    case 'VFS_ERR_NOT_A_DIRECTORY':
      return errorResult(call, 'not_a_directory', `${sourcePath} is a file, not a directory; read it with workspace_read.`, withPath);
    case 'VFS_ERR_IS_A_DIRECTORY':
      return errorResult(call, 'is_a_directory', `${sourcePath} is a directory, not a file; list it with workspace_list.`, withPath);
    default:
      return errorResult(call, 'tool_error', `${call.name} failed for ${sourcePath}: ${message}`, withPath);
  }
}

/** The retryable `not_found` result, with a hint on how to find the right path. */
export function notFoundResult(call: HarnessToolCall, sourcePath: string): HarnessToolResult {
  return errorResult(
    call,
    'not_found',
    `Nothing exists at ${sourcePath} in the workspace. Use workspace_search or workspace_list to find the right path.`,
    { retryable: true, sourcePath },
  );
}

function fieldOf(error: unknown): string {
  const field = (error as { field?: unknown }).field;
  return typeof field === 'string' ? field : '(input)';
}
