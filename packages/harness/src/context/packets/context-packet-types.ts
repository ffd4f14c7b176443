import type { VfsProvider } from '@agent-assistant/vfs';

/**
 * How a selection takes its file:
 * - `whole` — the whole file, byte for byte (text as it is; a binary file as base64). The default
 *   when the selection gives no `startLine` / `endLine`.
 * - `body` — the text of lines `startLine` to `endLine` (1-based, inclusive; each line with its own
 *   line ending), exactly as they are in the file. The default when a line is given. Text files only.
 */
export type ContextPacketRepresentation = 'whole' | 'body';

/** One file (or line range of one) a manifest asks for. */
export interface ContextPacketSelection {
  /** Unique within the manifest: 1–128 characters, no control characters. Any text, `__proto__` included. */
  id: string;
  /** A VFS path (`AGENTS.md` and `/AGENTS.md` are the same file); `..` and control characters are refused. */
  path: string;
  /**
   * Required selections, and everything they depend on, are taken whole or the call fails.
   * @default false
   */
  required?: boolean | undefined;
  /** @default 'whole', or 'body' when `startLine` or `endLine` is given */
  representation?: ContextPacketRepresentation | undefined;
  /** First line taken (`body` only), 1-based. @default 1 */
  startLine?: number | undefined;
  /** Last line taken (`body` only), inclusive; past the end of the file it is clamped. @default the last line */
  endLine?: number | undefined;
  /** Ids of selections this one needs: it is taken only with all of them. No cycles. */
  dependsOn?: string[] | undefined;
}

/** What to put in a packet: selections in the order they should appear. */
export interface ContextPacketManifest {
  selections: ContextPacketSelection[];
}

/** Options of `buildContextPacket`. */
export interface ContextPacketOptions {
  /**
   * The most bytes the packet may take: its UTF-8 JSON text, final newline included (an integer
   * from 1 to 67108864, i.e. 64 MiB).
   */
  budget: number;
  /**
   * The largest file a selection may take, in bytes (1 to 67108864); a larger one is left out
   * with reason `too_large`. The VFS's own read cap applies too (1 MiB for the bundled ones).
   * @default 1048576 (1 MiB)
   */
  maxFileBytes?: number | undefined;
  /**
   * The most file bytes one build reads in all (1 to 1073741824); selections after that are left
   * out with reason `read_limit`.
   * @default 33554432 (32 MiB)
   */
  maxTotalBytes?: number | undefined;
  /**
   * Node.js only: a private directory (created with mode 0700) where the exact bytes of every
   * source a packet takes are kept under their SHA-256, so what a packet names can be read back
   * with `readContextPacketSource` after the file changed. Every use re-hashes an entry first.
   * @default undefined (no cache)
   */
  cacheDir?: string | undefined;
  /** Stops the build (it rejects with the signal's reason). @default undefined */
  signal?: AbortSignal | undefined;
}

/** A source the packet took. Key order in the JSON text is the order below. */
export interface ContextPacketSource {
  id: string;
  /** The normalised VFS path. */
  path: string;
  representation: ContextPacketRepresentation;
  /** SHA-256 (hex) of the whole file, whatever part of it was taken. */
  sha256: string;
  /** The whole file's size in bytes. */
  size: number;
  /** `utf-8` for text; `base64` for a binary file (taken `whole` only). */
  encoding: 'utf-8' | 'base64';
  /** Text only: the first line taken (1-based). */
  startLine?: number | undefined;
  /** Text only: the last line taken; `startLine - 1` when no line was taken (a range past the end). */
  endLine?: number | undefined;
  /** Text only: lines in the file (a final line ending does not start another line). */
  totalLines?: number | undefined;
  /** `true` when the requested range went past the end of the file and was cut to it. */
  clamped?: true | undefined;
  /** What was taken: the text, or base64 of the bytes. */
  content: string;
}

/**
 * Why a selection is not in the packet:
 * - `over_budget` — taking it (with what it depends on) would pass the budget;
 * - `dependency_unavailable` — a selection it depends on could not be taken (`dependency` names it);
 * - `not_found`, `not_a_file` (a directory or special file), `outside_root` (e.g. a symlink out of the
 *   root), `invalid_path` (refused by the VFS);
 * - `too_large` — over `maxFileBytes`, or longer than the VFS reads whole;
 * - `read_limit` — `maxTotalBytes` was reached before this file;
 * - `binary` — `body` of a file that is not UTF-8 text;
 * - `read_failed` — the VFS failed or returned something that cannot be vouched for.
 */
export type ContextPacketOmissionReason =
  | 'over_budget'
  | 'dependency_unavailable'
  | 'not_found'
  | 'not_a_file'
  | 'outside_root'
  | 'invalid_path'
  | 'too_large'
  | 'read_limit'
  | 'binary'
  | 'read_failed';

/** A selection the packet left out. */
export interface ContextPacketOmission {
  id: string;
  /** The normalised VFS path. */
  path: string;
  reason: ContextPacketOmissionReason;
  /** For `dependency_unavailable`: the id of the selection it needed. */
  dependency?: string | undefined;
}

/** A context packet: every selection of the manifest is in `sources` or in `omitted`, in manifest order. */
export interface ContextPacket {
  /** `true` when nothing was left out. */
  complete: boolean;
  sources: ContextPacketSource[];
  omitted: ContextPacketOmission[];
}

/** What `buildContextPacket` resolves. */
export interface ContextPacketResult {
  /** The packet as data. */
  packet: ContextPacket;
  /** The packet's JSON text with its final newline: what the budget covers. */
  text: string;
  /** UTF-8 bytes of `text` (at most the budget). */
  bytes: number;
}

/** The VFS a packet is built from. */
export type ContextPacketVfs = Pick<VfsProvider, 'read'>;
