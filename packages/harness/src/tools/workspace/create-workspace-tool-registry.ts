import type {
  HarnessToolCall,
  HarnessToolExecutionContext,
  HarnessToolRegistry,
  HarnessToolResult,
} from '../../shared/types/tools.js';
import { mapVfsError } from './internal/map-vfs-error.js';
import { normalizeSourcePath } from '../../shared/normalize-source-path.js';
import { runWorkspaceList } from './internal/run-workspace-list.js';
import { runWorkspaceReadJson } from './internal/run-workspace-read-json.js';
import { runWorkspaceRead } from './internal/run-workspace-read.js';
import { runWorkspaceSearch } from './internal/run-workspace-search.js';
import { toToolDefinition, workspaceToolSpecs, type WorkspaceToolSpec } from './internal/workspace-tool-definitions.js';
import { validateWorkspaceInput } from './internal/workspace-input.js';
import { cancelledResult, errorResult, invalidInputResult } from './internal/workspace-results.js';
import type { WorkspaceRunContext } from './internal/workspace-run-context.js';
import {
  WORKSPACE_LIST_TOOL_NAME,
  WORKSPACE_READ_JSON_TOOL_NAME,
  WORKSPACE_READ_TOOL_NAME,
  WORKSPACE_SEARCH_TOOL_NAME,
  WORKSPACE_TOOL_NAMES,
} from './workspace-tool-names.js';
import { resolveWorkspaceToolOptions, type WorkspaceToolRegistryOptions } from './workspace-tool-options.js';

/**
 * Creates the read-only workspace tools over a `VfsProvider`: `workspace_search`,
 * `workspace_list`, `workspace_read` and `workspace_read_json`.
 *
 * Every result carries `structuredOutput.sourcePath`, the normalised VFS path an answer can cite
 * (`/` for a search; each search hit and list entry has its own `sourcePath`). Failures are
 * returned as structured error results, never thrown: bad input is a retryable `invalid_input`
 * naming the field; a missing path is a retryable `not_found`; a path outside the workspace is
 * `invalid_input` or `path_not_allowed`; invalid JSON is a retryable `invalid_json` with line and
 * column. A call stops waiting for the workspace as soon as `context.signal` fires.
 *
 * @throws HarnessConfigError naming the field when an option is invalid.
 * @example
 * ```ts
 * import { createMemoryVfs } from '@agent-assistant/vfs';
 * const tools = createWorkspaceToolRegistry({ vfs: createMemoryVfs({ '/docs/setup.md': '# Setup' }) });
 * const harness = createHarness({ model, tools });
 * ```
 */
export function createWorkspaceToolRegistry(options: WorkspaceToolRegistryOptions): HarnessToolRegistry {
  const resolved = resolveWorkspaceToolOptions(options);
  const specs = new Map<string, WorkspaceToolSpec>(workspaceToolSpecs(resolved).map((spec) => [spec.name, spec]));

  return {
    listAvailable(input) {
      const allowed = input?.allowedToolNames;
      return WORKSPACE_TOOL_NAMES.filter((name) => allowed === undefined || allowed.includes(name)).map((name) =>
        toToolDefinition(specs.get(name)!),
      );
    },

    async execute(call: HarnessToolCall, context: HarnessToolExecutionContext): Promise<HarnessToolResult> {
      const spec = specs.get(call.name);
      if (spec === undefined) {
        const message = `The workspace registry has no tool "${call.name}". Its tools: ${WORKSPACE_TOOL_NAMES.join(', ')}.`;
        return errorResult(call, 'unknown_tool', message, { retryable: true });
      }
      const signal = context?.signal ?? new AbortController().signal;
      if (signal.aborted) return cancelledResult(call, pathOf(call));
      const validated = validateWorkspaceInput(spec.input, call.input);
      if (!validated.ok) return invalidInputResult(call, validated.field, validated.message, pathOf(call));
      const run: WorkspaceRunContext = { call, input: validated.value, options: resolved, signal };
      if (call.name === WORKSPACE_SEARCH_TOOL_NAME) return guard(run, '/', () => runWorkspaceSearch(run));

      const path = normalizeSourcePath((validated.value.path as string | undefined) ?? '/');
      if (!path.ok) return invalidInputResult(call, 'path', `"path" ${path.reason}.`);
      const sourcePath = path.path;
      switch (call.name) {
        case WORKSPACE_LIST_TOOL_NAME:
          return guard(run, sourcePath, () => runWorkspaceList(run, sourcePath));
        case WORKSPACE_READ_TOOL_NAME:
          return guard(run, sourcePath, () => runWorkspaceRead(run, sourcePath));
        case WORKSPACE_READ_JSON_TOOL_NAME:
        default:
          return guard(run, sourcePath, () => runWorkspaceReadJson(run, sourcePath));
      }
    },
  };
}

/**
 * The normalised path a call is about, when it has a valid one: `/` for a search and for a list
 * without a path, `undefined` when the path is missing or refused.
 */
function pathOf(call: HarnessToolCall): string | undefined {
  const given = (call.input as Record<string, unknown> | undefined)?.path;
  if (call.name === WORKSPACE_SEARCH_TOOL_NAME) return '/';
  if (given === undefined || given === null) return call.name === WORKSPACE_LIST_TOOL_NAME ? '/' : undefined;
  if (typeof given !== 'string' || (given.trim() === '' && call.name !== WORKSPACE_LIST_TOOL_NAME)) return undefined;
  const normalized = normalizeSourcePath(given);
  return normalized.ok ? normalized.path : undefined;
}

/** Last line of defence: a runner bug becomes a structured error result, never a rejection. */
async function guard(run: WorkspaceRunContext, sourcePath: string, work: () => Promise<HarnessToolResult>): Promise<HarnessToolResult> {
  try {
    return await work();
  } catch (error) {
    return mapVfsError(run.call, error, sourcePath);
  }
}
