import { createToolRegistry, type TypedToolRegistry } from '../create-tool-registry.js';
import { defineTool, type AnyTypedTool } from '../define-tool.js';
import { ToolExecutionError } from '../tool-execution-error.js';
import { toolOutput, type ToolOutput } from '../tool-output.js';
import { GitHubPublicFetchError } from './github-public-fetch-error.js';
import type { GitHubPublicFetcherOptions } from './github-fetcher-options.js';
import { GitHubPublicFetcher } from './github-public-fetcher.js';
import {
  PUBLIC_REPO_LIST_TREE_TOOL,
  PUBLIC_REPO_METADATA_TOOL,
  PUBLIC_REPO_READ_FILE_TOOL,
  PUBLIC_REPO_RECENT_COMMITS_TOOL,
  PUBLIC_REPO_SEARCH_CODE_TOOL,
} from './github-tool-names.js';
import {
  listTreeInput,
  metadataInput,
  readFileInput,
  recentCommitsInput,
  searchCodeInput,
} from './internal/github-tool-inputs.js';
import { renderCommits, renderFile, renderMetadata, renderSearch, renderTree } from './internal/render-github-output.js';

/** Options of {@link createPublicGitHubToolRegistry}: those of the fetcher. */
export type PublicGitHubToolRegistryOptions = GitHubPublicFetcherOptions;

/** The public GitHub tool registry, with the fetcher it uses. */
export interface PublicGitHubToolRegistry extends TypedToolRegistry {
  /** The fetcher behind the tools. */
  readonly fetcher: GitHubPublicFetcher;
}

/**
 * Read-only tools over one public GitHub repository: `public_repo_metadata`,
 * `public_repo_list_tree`, `public_repo_read_file`, `public_repo_recent_commits`, and
 * `public_repo_search_code` when a `token` is given (GitHub's code search needs one). Results
 * are bounded; failures reach the model as structured errors (`not_found`, `rate_limited`,
 * `forbidden`, `transport`, `timeout`, `invalid_response`, `invalid_request`).
 * @throws HarnessConfigError for invalid options.
 * @example
 * ```ts
 * const tools = createPublicGitHubToolRegistry({ owner: 'octocat', repo: 'Hello-World' });
 * const harness = createHarness({ model, tools });
 * ```
 */
export function createPublicGitHubToolRegistry(options: PublicGitHubToolRegistryOptions): PublicGitHubToolRegistry {
  const fetcher = new GitHubPublicFetcher(options);
  const repo = `${fetcher.owner}/${fetcher.repo}`;
  const maxTreeEntries = options.maxTreeEntries ?? 500;
  const tools: AnyTypedTool[] = [
    defineTool({
      name: PUBLIC_REPO_METADATA_TOOL,
      description: `Facts about the public GitHub repository ${repo} (description, default branch, stars, license, topics) and the beginning of its README.`,
      input: metadataInput(),
      execute: (_input, { signal }) =>
        guarded(async () => {
          const [info, readme] = await Promise.all([
            fetcher.getRepository({ signal }),
            fetcher.getReadme({ signal }).then(
              (value) => ({ value, note: undefined }),
              (error: unknown) => ({ value: null, note: `README: could not be read (${describe(error)}).` })
            ),
          ]);
          const readmeFacts = readme.value === null ? null : withoutContent(readme.value);
          return toolOutput({
            text: renderMetadata(info, readme.value, readme.note),
            data: { repository: info, readme: readmeFacts, ...(readme.note === undefined ? {} : { readmeError: readme.note }) },
          });
        }),
    }),
    defineTool({
      name: PUBLIC_REPO_LIST_TREE_TOOL,
      description: `Lists a directory of ${repo} (direct children, or everything below it with recursive: true), at most ${maxTreeEntries} entries.`,
      input: listTreeInput(maxTreeEntries),
      execute: (input, { signal }) =>
        guarded(async () => {
          const listing = await fetcher.listTree({ ...input, signal });
          return toolOutput({ text: renderTree(listing), data: { ...listing } });
        }),
    }),
    defineTool({
      name: PUBLIC_REPO_READ_FILE_TOOL,
      description: `Reads a text file of ${repo}. Large files are cut after the first ${
        options.maxFileBytes ?? 65_536
      } bytes (marked truncated).`,
      input: readFileInput(),
      execute: (input, { signal }) =>
        guarded(async () => {
          const file = await fetcher.readFile({ ...input, signal });
          return toolOutput({ text: renderFile(file), data: withoutContent(file) });
        }),
    }),
    defineTool({
      name: PUBLIC_REPO_RECENT_COMMITS_TOOL,
      description: `The latest commits of ${repo} (at most 20), newest first, optionally for one branch or path.`,
      input: recentCommitsInput(),
      execute: (input, { signal }) =>
        guarded(async () => {
          const commits = await fetcher.listCommits({ ...input, signal });
          return toolOutput({ text: renderCommits(commits), data: { commits } });
        }),
    }),
  ];
  if (fetcher.hasToken) {
    tools.push(
      defineTool({
        name: PUBLIC_REPO_SEARCH_CODE_TOOL,
        description: `Searches the code of ${repo} (GitHub code search on the default branch) and returns matching paths with snippets.`,
        input: searchCodeInput(),
        execute: (input, { signal }) =>
          guarded(async () => {
            const result = await fetcher.searchCode({ ...input, signal });
            return toolOutput({ text: renderSearch(result), data: { ...result } });
          }),
      })
    );
  }
  return { ...createToolRegistry(tools), fetcher };
}

/** Turns fetch errors into structured tool errors carrying the reason and rate-limit details. */
async function guarded(work: () => Promise<ToolOutput>): Promise<ToolOutput> {
  try {
    return await work();
  } catch (error) {
    if (!GitHubPublicFetchError.isInstance(error)) throw error;
    const metadata: Record<string, unknown> = {};
    if (error.status !== undefined) metadata.status = error.status;
    if (error.resetAt !== undefined) metadata.resetAt = error.resetAt;
    if (error.retryAfterSeconds !== undefined) metadata.retryAfterSeconds = error.retryAfterSeconds;
    throw new ToolExecutionError(error.message, {
      reason: error.reason,
      retryable: error.retryable,
      ...(Object.keys(metadata).length === 0 ? {} : { metadata }),
    });
  }
}

function withoutContent<T extends { content: string }>(file: T): Omit<T, 'content'> {
  const { content: _content, ...rest } = file;
  return rest;
}

function describe(error: unknown): string {
  return GitHubPublicFetchError.isInstance(error)
    ? `${error.reason}: ${error.message}`
    : error instanceof Error
    ? error.message
    : String(error);
}
