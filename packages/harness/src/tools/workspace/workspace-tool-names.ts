/** Name of the tool that searches file names and lines in the workspace. */
export const WORKSPACE_SEARCH_TOOL_NAME = 'workspace_search';
/** Name of the tool that lists a workspace directory. */
export const WORKSPACE_LIST_TOOL_NAME = 'workspace_list';
/** Name of the tool that reads a workspace file as text. */
export const WORKSPACE_READ_TOOL_NAME = 'workspace_read';
/** Name of the tool that reads and parses a workspace JSON file. */
export const WORKSPACE_READ_JSON_TOOL_NAME = 'workspace_read_json';

/** Every workspace tool name, in the order the registry lists them. */
export const WORKSPACE_TOOL_NAMES = /* @__PURE__ */ Object.freeze([
  WORKSPACE_SEARCH_TOOL_NAME,
  WORKSPACE_LIST_TOOL_NAME,
  WORKSPACE_READ_TOOL_NAME,
  WORKSPACE_READ_JSON_TOOL_NAME,
] as const);

/** One of `WORKSPACE_TOOL_NAMES`. */
export type WorkspaceToolName = (typeof WORKSPACE_TOOL_NAMES)[number];
