import type { GitHubFetchFunction, GitHubRequestOptions } from './github-types.js';

/** Options of `GitHubPublicFetcher`. */
export interface GitHubPublicFetcherOptions {
  /** Repository owner (user or organisation). */
  owner: string;
  /** Repository name. */
  repo: string;
  /** `fetch` to use; when omitted `globalThis.fetch` is read at call time. @default undefined */
  fetch?: GitHubFetchFunction | undefined;
  /** Token sent as `Authorization: Bearer` to the API host only; never logged or returned. @default undefined */
  token?: string | undefined;
  /** REST API base URL (a GitHub Enterprise base like `https://ghe.example/api/v3` works). @default 'https://api.github.com' */
  baseUrl?: string | undefined;
  /** Raw-content base URL; file `download_url`s must lie under it. @default 'https://raw.githubusercontent.com' */
  rawBaseUrl?: string | undefined;
  /** Per-request timeout, in milliseconds, covering the response body too. @default 10000 */
  timeoutMs?: number | undefined;
  /** `User-Agent` header (GitHub requires one). @default 'agent-assistant-harness' */
  userAgent?: string | undefined;
  /** Bytes of a file returned at most; longer files are cut (`truncated: true`). @default 65536 */
  maxFileBytes?: number | undefined;
  /** Bytes of the README returned at most. @default 16384 */
  maxReadmeBytes?: number | undefined;
  /** Directory entries returned at most. @default 500 */
  maxTreeEntries?: number | undefined;
  /** Largest JSON response accepted, in bytes; larger ones fail as `invalid_response`. @default 8388608 */
  maxResponseBytes?: number | undefined;
  /** Epoch milliseconds now, for rate-limit wait times. @default Date.now */
  now?: (() => number) | undefined;
}

/** Options of `GitHubPublicFetcher.listTree`. */
export interface GitHubListTreeOptions extends GitHubRequestOptions {
  /** Directory to list, relative to the root. @default '' (the root) */
  path?: string | undefined;
  /** Branch, tag or SHA. @default the default branch */
  ref?: string | undefined;
  /** List everything below `path`, not only its direct children. @default false */
  recursive?: boolean | undefined;
  /** Entries to return at most (capped at `maxTreeEntries`). @default maxTreeEntries */
  limit?: number | undefined;
}

/** Options of `GitHubPublicFetcher.readFile`. */
export interface GitHubReadFileOptions extends GitHubRequestOptions {
  /** File path relative to the root, e.g. `src/index.ts`. */
  path: string;
  /** Branch, tag or SHA. @default the default branch */
  ref?: string | undefined;
}

/** Options of `GitHubPublicFetcher.listCommits`. */
export interface GitHubListCommitsOptions extends GitHubRequestOptions {
  /** Branch, tag or SHA to start from. @default the default branch */
  ref?: string | undefined;
  /** Only commits touching this path. @default undefined */
  path?: string | undefined;
  /** Commits to return, 1–20. @default 10 */
  limit?: number | undefined;
}

/** Options of `GitHubPublicFetcher.searchCode`. */
export interface GitHubSearchCodeOptions extends GitHubRequestOptions {
  /** Search terms (GitHub code search syntax, without `repo:`/`org:`/`user:` qualifiers). */
  query: string;
  /** Hits to return, 1–50. @default 10 */
  limit?: number | undefined;
}
