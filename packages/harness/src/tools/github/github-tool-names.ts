/** Repository facts plus the README's beginning. */
export const PUBLIC_REPO_METADATA_TOOL = 'public_repo_metadata';
/** A directory listing (optionally recursive, bounded). */
export const PUBLIC_REPO_LIST_TREE_TOOL = 'public_repo_list_tree';
/** A file's text (first bytes of large files). */
export const PUBLIC_REPO_READ_FILE_TOOL = 'public_repo_read_file';
/** The latest commits (at most 20). */
export const PUBLIC_REPO_RECENT_COMMITS_TOOL = 'public_repo_recent_commits';
/** Code search in the repository; offered only when a token is configured. */
export const PUBLIC_REPO_SEARCH_CODE_TOOL = 'public_repo_search_code';

/** Every public GitHub tool name, in listing order. */
export const PUBLIC_GITHUB_TOOL_NAMES = [
  PUBLIC_REPO_METADATA_TOOL,
  PUBLIC_REPO_LIST_TREE_TOOL,
  PUBLIC_REPO_READ_FILE_TOOL,
  PUBLIC_REPO_RECENT_COMMITS_TOOL,
  PUBLIC_REPO_SEARCH_CODE_TOOL,
] as const;

/** A public GitHub tool name. */
export type PublicGitHubToolName = (typeof PUBLIC_GITHUB_TOOL_NAMES)[number];
