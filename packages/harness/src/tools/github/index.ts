/**
 * @module tools/github
 * Read-only tools over one public GitHub repository, and the fetcher behind them.
 */
export { GitHubPublicFetcher } from './github-public-fetcher.js';
export type {
  GitHubListCommitsOptions,
  GitHubListTreeOptions,
  GitHubPublicFetcherOptions,
  GitHubReadFileOptions,
  GitHubSearchCodeOptions,
} from './github-fetcher-options.js';
export {
  GitHubPublicFetchError,
  type GitHubFetchErrorReason,
  type GitHubPublicFetchErrorOptions,
} from './github-public-fetch-error.js';
export type * from './github-types.js';
export {
  createPublicGitHubToolRegistry,
  type PublicGitHubToolRegistry,
  type PublicGitHubToolRegistryOptions,
} from './create-public-github-tool-registry.js';
export {
  PUBLIC_GITHUB_TOOL_NAMES,
  PUBLIC_REPO_LIST_TREE_TOOL,
  PUBLIC_REPO_METADATA_TOOL,
  PUBLIC_REPO_READ_FILE_TOOL,
  PUBLIC_REPO_RECENT_COMMITS_TOOL,
  PUBLIC_REPO_SEARCH_CODE_TOOL,
  type PublicGitHubToolName,
} from './github-tool-names.js';
