import type * as v from '../../shared/validation/index.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import type {
  GitHubListCommitsOptions,
  GitHubListTreeOptions,
  GitHubPublicFetcherOptions,
  GitHubReadFileOptions,
  GitHubSearchCodeOptions,
} from './github-fetcher-options.js';
import type {
  GitHubCodeSearchResult,
  GitHubCommitSummary,
  GitHubFileContent,
  GitHubRepositoryInfo,
  GitHubRequestOptions,
  GitHubTreeEntry,
  GitHubTreeListing,
} from './github-types.js';
import { decodeBase64Prefix, decodeUtf8Prefix, looksBinary } from './internal/bytes.js';
import { GitHubHttp } from './internal/github-http.js';
import {
  codeSearchSchema,
  commitsSchema,
  contentEntrySchema,
  contentFileSchema,
  repositorySchema,
  treeSchema,
  type ContentFile,
} from './internal/github-responses.js';
import { encodePath, normalisePath, pathProblem, refProblem } from './internal/github-validation.js';
import { resolveFetcherOptions, type GitHubFetcherLimits } from './internal/resolve-fetcher-options.js';

const JSON_ACCEPT = 'application/vnd.github+json';
const MAX_COMMITS = 20;
const MAX_SEARCH_RESULTS = 50;

/**
 * Read-only access to one public GitHub repository over the REST API: bounded, with a timeout
 * per request, honouring the caller's signal, contacting only the configured API and raw hosts.
 * Works in Workers (uses `fetch`; no Node modules). Failures throw `GitHubPublicFetchError`.
 * @throws HarnessConfigError for invalid options.
 */
export class GitHubPublicFetcher {
  /** The repository owner. */
  readonly owner: string;
  /** The repository name. */
  readonly repo: string;
  /** Whether a token is configured (code search needs one). */
  readonly hasToken: boolean;
  readonly #http: GitHubHttp;
  readonly #limits: GitHubFetcherLimits;
  #defaultBranch: Promise<string> | undefined;

  constructor(options: GitHubPublicFetcherOptions) {
    const resolved = resolveFetcherOptions(options);
    this.owner = resolved.owner;
    this.repo = resolved.repo;
    this.hasToken = resolved.http.token !== undefined;
    this.#http = new GitHubHttp(resolved.http);
    this.#limits = resolved.limits;
  }

  /** Repository facts. Also remembers the default branch. */
  async getRepository(options: GitHubRequestOptions = {}): Promise<GitHubRepositoryInfo> {
    const raw = await this.#json(this.#repoUrl(''), options.signal, repositorySchema());
    this.#defaultBranch ??= Promise.resolve(raw.default_branch);
    return {
      fullName: raw.full_name,
      description: raw.description ?? null,
      htmlUrl: raw.html_url,
      defaultBranch: raw.default_branch,
      stars: raw.stargazers_count ?? 0,
      forks: raw.forks_count ?? 0,
      openIssues: raw.open_issues_count ?? 0,
      language: raw.language ?? null,
      license: raw.license?.spdx_id ?? raw.license?.name ?? null,
      topics: raw.topics ?? [],
      archived: raw.archived ?? false,
      fork: raw.fork ?? false,
      pushedAt: raw.pushed_at ?? null,
      updatedAt: raw.updated_at ?? null,
    };
  }

  /** The README's first `maxReadmeBytes` bytes, or `null` when the repository has none. */
  async getReadme(options: GitHubRequestOptions = {}): Promise<GitHubFileContent | null> {
    try {
      const raw = await this.#json(this.#repoUrl('/readme'), options.signal, contentFileSchema());
      return await this.#fileContent(raw, null, this.#limits.maxReadmeBytes, options.signal);
    } catch (error) {
      if ((error as { reason?: unknown }).reason === 'not_found') return null;
      throw error;
    }
  }

  /** Lists a directory (direct children, or everything below it when `recursive`). */
  async listTree(options: GitHubListTreeOptions = {}): Promise<GitHubTreeListing> {
    const path = options.path === undefined || options.path === '' ? '' : this.#checkPath(options.path);
    const ref = options.ref === undefined ? undefined : this.#checkRef(options.ref);
    const limit = clampInteger(options.limit, 1, this.#limits.maxTreeEntries, this.#limits.maxTreeEntries);
    const recursive = options.recursive === true;
    let matched: GitHubTreeEntry[];
    let upstreamTruncated = false;
    if (recursive) {
      const treeRef = ref ?? (await this.#branch(options.signal));
      const raw = await this.#json(
        this.#repoUrl(`/git/trees/${encodeURIComponent(treeRef)}`, { recursive: '1' }),
        options.signal,
        treeSchema()
      );
      upstreamTruncated = raw.truncated === true;
      const prefix = path === '' ? '' : `${path}/`;
      matched = raw.tree
        .filter((entry) => entry.path.startsWith(prefix))
        .map((entry) => treeEntry(entry.path, TREE_TYPES[entry.type], entry.size));
      if (path !== '' && matched.length === 0 && !upstreamTruncated) {
        const isFile = raw.tree.some((entry) => entry.path === path && entry.type === 'blob');
        throw this.#http.fail(
          isFile ? 'invalid_request' : 'not_found',
          isFile ? notADirectory(path) : `No directory "${path}" in ${this.#name()}.`
        );
      }
    } else {
      const raw = await this.#http.getJson(
        this.#repoUrl(`/contents${path === '' ? '' : `/${encodePath(path)}`}`, { ref }),
        this.#init(options.signal)
      );
      if (!Array.isArray(raw)) throw this.#http.fail('invalid_request', notADirectory(path));
      matched = raw.map((item) => {
        const entry = this.#parse(item, contentEntrySchema());
        return treeEntry(entry.path, CONTENT_TYPES[entry.type], entry.size);
      });
    }
    return {
      ref: ref ?? null,
      path,
      recursive,
      entries: matched.slice(0, limit),
      totalEntries: matched.length,
      truncated: matched.length > limit || upstreamTruncated,
    };
  }

  /** A file's first `maxFileBytes` bytes as text. Directories, symlinks and submodules are refused. */
  async readFile(options: GitHubReadFileOptions): Promise<GitHubFileContent> {
    const path = this.#checkPath(options.path);
    const ref = options.ref === undefined ? undefined : this.#checkRef(options.ref);
    const raw = await this.#http.getJson(this.#repoUrl(`/contents/${encodePath(path)}`, { ref }), this.#init(options.signal));
    if (Array.isArray(raw))
      throw this.#http.fail('invalid_request', `"${path}" is a directory; list it with public_repo_list_tree.`);
    const file = this.#parse(raw, contentFileSchema());
    return this.#fileContent(file, ref ?? null, this.#limits.maxFileBytes, options.signal);
  }

  /** The latest commits (at most 20), newest first. */
  async listCommits(options: GitHubListCommitsOptions = {}): Promise<GitHubCommitSummary[]> {
    const ref = options.ref === undefined ? undefined : this.#checkRef(options.ref);
    const path = options.path === undefined ? undefined : this.#checkPath(options.path);
    const limit = clampInteger(options.limit, 1, MAX_COMMITS, 10);
    const url = this.#repoUrl('/commits', { per_page: String(limit), sha: ref, path });
    const raw = await this.#json(url, options.signal, commitsSchema());
    return raw.slice(0, limit).map((item) => ({
      sha: item.sha,
      subject: (item.commit.message.split('\n', 1)[0] ?? '').slice(0, 200),
      authorName: item.commit.author?.name ?? null,
      authorLogin: item.author?.login ?? null,
      date: item.commit.author?.date ?? item.commit.committer?.date ?? null,
      htmlUrl: item.html_url ?? null,
    }));
  }

  /** Code search within the repository. Needs a token (GitHub requires one for code search). */
  async searchCode(options: GitHubSearchCodeOptions): Promise<GitHubCodeSearchResult> {
    if (!this.hasToken) throw this.#http.fail('forbidden', 'GitHub code search needs a token; none is configured.');
    const query = typeof options.query === 'string' ? options.query.trim() : '';
    if (query === '' || query.length > 256 || /\b(repo|org|user):/i.test(query)) {
      throw this.#http.fail('invalid_request', 'The query must be 1–256 characters without repo:, org: or user: qualifiers.');
    }
    const limit = clampInteger(options.limit, 1, MAX_SEARCH_RESULTS, 10);
    const url = this.#http.apiUrl('/search/code', { q: `${query} repo:${this.owner}/${this.repo}`, per_page: String(limit) });
    const raw = this.#parse(
      await this.#http.getJson(url, { ...this.#init(options.signal), accept: 'application/vnd.github.text-match+json' }),
      codeSearchSchema()
    );
    return {
      query,
      totalCount: raw.total_count,
      incompleteResults: raw.incomplete_results === true,
      items: raw.items.slice(0, limit).map((item) => ({
        path: item.path,
        htmlUrl: item.html_url ?? null,
        score: item.score ?? null,
        fragments: (item.text_matches ?? [])
          .map((match) => match.fragment ?? '')
          .filter((fragment) => fragment !== '')
          .slice(0, 3)
          .map((fragment) => fragment.slice(0, 300)),
      })),
    };
  }

  async #fileContent(
    file: ContentFile,
    ref: string | null,
    maxBytes: number,
    signal: AbortSignal | undefined
  ): Promise<GitHubFileContent> {
    if (file.type === 'symlink')
      throw this.#http.fail(
        'invalid_request',
        `"${file.path}" is a symlink${file.target ? ` to ${file.target}` : ''}; read the target instead.`
      );
    if (file.type === 'submodule') throw this.#http.fail('invalid_request', `"${file.path}" is a git submodule, not a file.`);
    if (file.type !== 'file')
      throw this.#http.fail('invalid_response', `GitHub reported "${file.path}" as an unexpected type "${file.type}".`);
    let bytes: Uint8Array;
    if (file.encoding === 'base64' && typeof file.content === 'string' && file.content !== '') {
      try {
        bytes = decodeBase64Prefix(file.content, maxBytes);
      } catch {
        throw this.#http.fail('invalid_response', `GitHub returned content for "${file.path}" that is not valid base64.`);
      }
    } else if (file.size === 0) {
      bytes = new Uint8Array();
    } else if (typeof file.download_url === 'string') {
      const url = new URL(file.download_url);
      if (this.#http.hostKind(url) === undefined) {
        throw this.#http.fail(
          'invalid_response',
          `Refused to fetch "${file.path}" from ${url.origin}: only the configured GitHub hosts are allowed.`
        );
      }
      bytes = (await this.#http.getBytes(url.href, { accept: 'application/octet-stream', maxBytes, signal })).bytes;
    } else {
      throw this.#http.fail('invalid_response', `GitHub returned neither content nor a download URL for "${file.path}".`);
    }
    const truncated = file.size > bytes.length;
    const binary = looksBinary(bytes);
    const decoded = binary ? { text: '', byteLength: 0 } : decodeUtf8Prefix(bytes, truncated);
    return {
      path: file.path,
      ref,
      sha: file.sha,
      sizeBytes: file.size,
      returnedBytes: decoded.byteLength,
      truncated,
      binary,
      content: decoded.text,
      htmlUrl: file.html_url ?? null,
    };
  }

  #branch(signal: AbortSignal | undefined): Promise<string> {
    if (this.#defaultBranch === undefined) {
      const pending = this.getRepository({ ...(signal === undefined ? {} : { signal }) }).then((info) => info.defaultBranch);
      this.#defaultBranch = pending;
      pending.catch(() => {
        if (this.#defaultBranch === pending) this.#defaultBranch = undefined;
      });
    }
    return this.#defaultBranch;
  }

  async #json<T extends v.Schema>(url: string, signal: AbortSignal | undefined, schema: T): Promise<v.infer<T>> {
    return this.#parse(await this.#http.getJson(url, this.#init(signal)), schema);
  }

  #parse<T extends v.Schema>(value: unknown, schema: T): v.infer<T> {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      throw this.#http.fail(
        'invalid_response',
        `GitHub returned an unexpected response shape: ${formatIssues(parsed.error.issues)}.`
      );
    }
    return parsed.data as v.infer<T>;
  }

  #init(signal: AbortSignal | undefined) {
    return { accept: JSON_ACCEPT, maxBytes: this.#limits.maxResponseBytes, signal };
  }

  #repoUrl(suffix: string, query: Record<string, string | undefined> = {}): string {
    return this.#http.apiUrl(`/repos/${encodeURIComponent(this.owner)}/${encodeURIComponent(this.repo)}${suffix}`, query);
  }

  #checkPath(path: string): string {
    const problem = pathProblem(path);
    if (problem !== undefined) throw this.#http.fail('invalid_request', `path ${problem}.`);
    return normalisePath(path);
  }

  #checkRef(ref: string): string {
    const problem = refProblem(ref);
    if (problem !== undefined) throw this.#http.fail('invalid_request', `ref ${problem}.`);
    return ref;
  }

  #name(): string {
    return `${this.owner}/${this.repo}`;
  }
}

const TREE_TYPES: Record<string, GitHubTreeEntry['type']> = { blob: 'file', tree: 'dir', commit: 'submodule' };
const CONTENT_TYPES: Record<string, GitHubTreeEntry['type']> = {
  file: 'file',
  dir: 'dir',
  symlink: 'symlink',
  submodule: 'submodule',
};

function treeEntry(path: string, type: GitHubTreeEntry['type'] | undefined, size: number | null | undefined): GitHubTreeEntry {
  const kind = type ?? 'file';
  return kind === 'file' && typeof size === 'number' ? { path, type: kind, size } : { path, type: kind };
}

function notADirectory(path: string): string {
  return `"${path}" is a file, not a directory; read it with public_repo_read_file.`;
}

function clampInteger(value: number | undefined, min: number, max: number, fallback: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.floor(value)));
}
