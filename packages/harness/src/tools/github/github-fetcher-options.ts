import type { GitHubFetchFunction, GitHubRequestOptions } from './github-types.js';

/** Options of `GitHubPublicFetcher`. */
export interface GitHubPublicFetcherOptions {
  /** Repository owner (user or organisation). */
  owner: string;
  /** Repository name. */
  repo: string;
  /** `fetch` to use; when omitted `globalThis.fetch` is read at call time. @default undefined */
  fetch?: GitHubFetchFunction;
  /** Token sent as `Authorization: Bearer` to the API host only; never logged or returned. @default undefined */
  token?: string;
  /** REST API base URL (a GitHub Enterprise base like `https://ghe.example/api/v3` works). @default 'https://api.github.com' */
  baseUrl?: string;
  /** Raw-content base URL; file `download_url`s must lie under it. @default 'https://raw.githubusercontent.com' */
  rawBaseUrl?: string;
  /** Per-request timeout, in milliseconds, covering the response body too. @default 10000 */
  timeoutMs?: number;
  /** `User-Agent` header (GitHub requires one). @default 'agent-assistant-harness' */
  userAgent?: string;
  /** Bytes of a file returned at most; longer files are cut (`truncated: true`). @default 65536 */
  maxFileBytes?: number;
  /** Bytes of the README returned at most. @default 16384 */
  maxReadmeBytes?: number;
  /** Directory entries returned at most. @default 500 */
  maxTreeEntries?: number;
  /** Largest JSON response accepted, in bytes; larger ones fail as `invalid_response`. @default 8388608 */
  maxResponseBytes?: number;
  /** Epoch milliseconds now, for rate-limit wait times. @default Date.now */
  now?: () => number;
}

/** Options of `GitHubPublicFetcher.listTree`. */
export interface GitHubListTreeOptions extends GitHubRequestOptions {
  /** Directory to list, relative to the root. @default '' (the root) */
  path?: string;
  /** Branch, tag or SHA. @default the default branch */
  ref?: string;
  /** List everything below `path`, not only its direct children. @default false */
  recursive?: boolean;
  /** Entries to return at most (capped at `maxTreeEntries`). @default maxTreeEntries */
  limit?: number;
}

/** Options of `GitHubPublicFetcher.readFile`. */
export interface GitHubReadFileOptions extends GitHubRequestOptions {
  /** File path relative to the root, e.g. `src/index.ts`. */
  path: string;
  /** Branch, tag or SHA. @default the default branch */
  ref?: string;
}

/** Options of `GitHubPublicFetcher.listCommits`. */
export interface GitHubListCommitsOptions extends GitHubRequestOptions {
  /** Branch, tag or SHA to start from. @default the default branch */
  ref?: string;
  /** Only commits touching this path. @default undefined */
  path?: string;
  /** Commits to return, 1–20. @default 10 */
  limit?: number;
}

/** Options of `GitHubPublicFetcher.searchCode`. */
export interface GitHubSearchCodeOptions extends GitHubRequestOptions {
  /** Search terms (GitHub code search syntax, without `repo:`/`org:`/`user:` qualifiers). */
  query: string;
  /** Hits to return, 1–50. @default 10 */
  limit?: number;
}
