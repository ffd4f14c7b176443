/**
 * @module tools/workspace
 * Read-only workspace tools over an `@agent-assistant/vfs` provider. (The prompt clauses that keep
 * answers grounded in what the tools returned are in `@agent-assistant/harness/tools`.)
 */
export { createWorkspaceToolRegistry } from './create-workspace-tool-registry.js';
export {
  DEFAULT_WORKSPACE_TOOL_OPTIONS,
  WORKSPACE_TOOL_LIMITS,
  type WorkspaceToolRegistryOptions,
} from './workspace-tool-options.js';
export {
  WORKSPACE_LIST_TOOL_NAME,
  WORKSPACE_READ_JSON_TOOL_NAME,
  WORKSPACE_READ_TOOL_NAME,
  WORKSPACE_SEARCH_TOOL_NAME,
  WORKSPACE_TOOL_NAMES,
  type WorkspaceToolName,
} from './workspace-tool-names.js';
