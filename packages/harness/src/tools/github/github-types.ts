/** The subset of `fetch` the GitHub tools call: `(url, init) => Promise<Response>`. */
export type GitHubFetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/** Options every fetcher method takes. */
export interface GitHubRequestOptions {
  /** Aborts the request (for example the turn's signal). @default undefined */
  signal?: AbortSignal;
}

/** Facts about the repository (`GET /repos/{owner}/{repo}`). */
export interface GitHubRepositoryInfo {
  /** `owner/name`. */
  fullName: string;
  /** The repository's short description. */
  description: string | null;
  /** Link to the repository on GitHub. */
  htmlUrl: string;
  /** The branch used when no ref is given. */
  defaultBranch: string;
  /** Stargazers. */
  stars: number;
  /** Forks. */
  forks: number;
  /** Open issues plus open pull requests, as GitHub counts them. */
  openIssues: number;
  /** The main language GitHub detected. */
  language: string | null;
  /** SPDX id (or name) of the license, when GitHub detected one. */
  license: string | null;
  /** Repository topics. */
  topics: string[];
  /** True for archived (read-only) repositories. */
  archived: boolean;
  /** True when the repository is a fork. */
  fork: boolean;
  /** Last push (ISO 8601). */
  pushedAt: string | null;
  /** Last update (ISO 8601). */
  updatedAt: string | null;
}

/** A file's text, possibly only its first bytes. */
export interface GitHubFileContent {
  /** Repository-relative path, as GitHub reports it. */
  path: string;
  /** The ref asked for; `null` means the default branch. */
  ref: string | null;
  /** Git blob SHA. */
  sha: string;
  /** Full size of the file in bytes. */
  sizeBytes: number;
  /** Bytes of the file `content` holds. */
  returnedBytes: number;
  /** True when `content` holds only the first `returnedBytes` bytes. */
  truncated: boolean;
  /** True when the file looks binary; `content` is then empty. */
  binary: boolean;
  /** UTF-8 text (never a split character at the cut). */
  content: string;
  /** Link to the file on GitHub, when known. */
  htmlUrl: string | null;
}

/** One entry of a directory listing. */
export interface GitHubTreeEntry {
  /** Repository-relative path. */
  path: string;
  /** What the entry is. */
  type: 'file' | 'dir' | 'symlink' | 'submodule';
  /** Size in bytes, for files. */
  size?: number;
}

/** A bounded directory listing. */
export interface GitHubTreeListing {
  /** The ref listed; `null` means the default branch. */
  ref: string | null;
  /** The directory listed (`''` for the root). */
  path: string;
  /** Whether everything below `path` was listed, not only direct children. */
  recursive: boolean;
  /** The entries, at most the requested limit. */
  entries: GitHubTreeEntry[];
  /** Entries that matched before the `limit` cut. */
  totalEntries: number;
  /** True when entries were left out (by `limit`, or because GitHub truncated the tree). */
  truncated: boolean;
}

/** A commit, summarised. */
export interface GitHubCommitSummary {
  /** Full commit SHA. */
  sha: string;
  /** The first line of the message, at most 200 characters. */
  subject: string;
  /** Author name from the commit. */
  authorName: string | null;
  /** GitHub login of the author, when GitHub linked one. */
  authorLogin: string | null;
  /** Author date (ISO 8601). */
  date: string | null;
  /** Link to the commit on GitHub. */
  htmlUrl: string | null;
}

/** One code search hit. */
export interface GitHubCodeSearchItem {
  /** Repository-relative path of the matching file. */
  path: string;
  /** Link to the file on GitHub. */
  htmlUrl: string | null;
  /** GitHub's relevance score. */
  score: number | null;
  /** Matching snippets (at most 3, each at most 300 characters). */
  fragments: string[];
}

/** Code search results within the repository. */
export interface GitHubCodeSearchResult {
  /** The query as searched (without the added `repo:` qualifier). */
  query: string;
  /** Matches GitHub counted. */
  totalCount: number;
  /** True when GitHub says the search timed out and results may be missing. */
  incompleteResults: boolean;
  /** The hits returned, at most the requested limit. */
  items: GitHubCodeSearchItem[];
}
