/** What a VFS path points at. `unknown` is for providers that cannot tell. */
export type VfsNodeType = 'file' | 'dir' | 'unknown';

/** One file or directory as `list`, `stat` and `search` report it. */
export interface VfsEntry {
  /** The normalised VFS path (`/docs/readme.md`), usable as a citation. */
  path: string;
  /** File, directory, or `unknown`. */
  type: VfsNodeType;
  /** The provider label (e.g. `github`), for multi-source providers. */
  provider?: string | undefined;
  /** A human title, when the source has one. */
  title?: string | undefined;
  /** A revision or version id, when the source has one. */
  revision?: string | undefined;
  /** ISO-8601 time of the last change, when known. */
  updatedAt?: string | undefined;
  /** Size of a file in bytes, when known. */
  size?: number | undefined;
  /** Extra source-specific facts. */
  properties?: Record<string, string> | undefined;
}

/**
 * One search hit. Providers that search file contents return one result per matching line,
 * with its 1-based `line`; a hit on the file's name has no `line`.
 */
export interface VfsSearchResult extends VfsEntry {
  /** The matching text, shortened around the match. */
  snippet?: string | undefined;
  /** 1-based line number of the match, for content matches. */
  line?: number | undefined;
  /** 1-based column (UTF-16 code units) where the match starts on `line`. */
  column?: number | undefined;
  /** Relevance score, for providers that rank results. */
  score?: number | undefined;
}

/** The content of one file. */
export interface VfsReadResult {
  /** The normalised VFS path that was read. */
  path: string;
  /**
   * The content: text when `encoding` is `utf-8` (or absent), base64 when `encoding` is `base64`.
   * When `truncated` is true it holds only the first bytes of the file.
   */
  content: string;
  /**
   * How `content` is encoded: `base64` for binary data.
   * @default 'utf-8'
   */
  encoding?: 'utf-8' | 'base64' | undefined;
  /** A MIME type, when known. */
  contentType?: string | undefined;
  /** The provider label, for multi-source providers. */
  provider?: string | undefined;
  /** A human title, when the source has one. */
  title?: string | undefined;
  /** A revision or version id, when the source has one. */
  revision?: string | undefined;
  /** ISO-8601 time of the last change, when known. */
  updatedAt?: string | undefined;
  /** Total size of the file in bytes (not only of `content`), when known. */
  size?: number | undefined;
  /** True when `content` holds only the first bytes of the file because of a byte cap. */
  truncated?: boolean | undefined;
  /** Extra source-specific facts. */
  properties?: Record<string, string> | undefined;
}

/** Options of `VfsProvider.list`. */
export interface VfsListOptions {
  /**
   * How many levels below `path` to include: `1` lists direct children only.
   * @default 1
   */
  depth?: number | undefined;
  /**
   * Maximum number of entries returned (count). Providers may cap it further.
   * @default 1000
   */
  limit?: number | undefined;
}

/** Options of `VfsProvider.search`. */
export interface VfsSearchOptions {
  /**
   * Only results from this provider label. A single-source provider returns no results when
   * this names another provider.
   */
  provider?: string | undefined;
  /**
   * Maximum number of results (count). Providers may cap it further.
   * @default 20
   */
  limit?: number | undefined;
}

/**
 * A read-only virtual file system. Paths are VFS paths: `/` is the root of the VFS (never the
 * host's root), segments are separated by `/`, and `..` is refused (see `normalizeVfsPath`).
 *
 * Missing paths: `read` and `stat` resolve `null`; `list` of a missing directory rejects with a
 * `VfsNotFoundError`. Consumers should treat a `VfsNotFoundError` from `read` like `null`.
 */
export interface VfsProvider {
  /** Entries below `path` (not `path` itself), depth-first, children in name order. */
  list(path: string, options?: VfsListOptions): Promise<VfsEntry[]>;
  /** The file at `path`, or `null` when nothing is there. */
  read(path: string): Promise<VfsReadResult | null>;
  /** Up to `limit` matches for `query`. */
  search(query: string, options?: VfsSearchOptions): Promise<VfsSearchResult[]>;
  /** The entry at `path`, or `null` when nothing is there. */
  stat?(path: string): Promise<VfsEntry | null>;
}
