import { sha256Hex } from '../../../shared/sha256-hex.js';
import type { ContextPacketOmissionReason, ContextPacketVfs } from '../context-packet-types.js';

/** One file as read for a packet: its whole content and hash, or why it cannot be taken. */
export type SourceFile =
  | {
      ok: true;
      /** SHA-256 (hex) of the whole file. */
      sha256: string;
      size: number;
      /** The text, or `undefined` for a binary file. */
      text: string | undefined;
      /** Canonical base64 of a binary file. */
      base64: string | undefined;
      /** The bytes, kept only when a cache will store them. */
      bytes: Uint8Array<ArrayBuffer> | undefined;
    }
  | { ok: false; reason: ContextPacketOmissionReason };

/** Limits and wiring of one build's reads. */
export interface ReadLimits {
  maxFileBytes: number;
  maxTotalBytes: number;
  keepBytes: boolean;
  signal: AbortSignal | undefined;
}

/** Reads at a time. */
const CONCURRENCY = 8;
const encoder = /* @__PURE__ */ new TextEncoder();
const decoder = /* @__PURE__ */ new TextDecoder('utf-8', { ignoreBOM: true });
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Reads each path once, a few at a time, and accounts for `maxTotalBytes` in the order given (so
 * which files pass the total limit does not depend on timing): the file that would pass it, and
 * every later one, is `read_limit`.
 */
export async function readSourceFiles(vfs: ContextPacketVfs, paths: readonly string[], limits: ReadLimits): Promise<Map<string, SourceFile>> {
  const files = new Map<string, SourceFile>();
  let total = 0;
  let exhausted = false;
  for (let start = 0; start < paths.length && !exhausted; start += CONCURRENCY) {
    limits.signal?.throwIfAborted();
    const batch = paths.slice(start, start + CONCURRENCY);
    const read = await Promise.all(batch.map((path) => readSourceFile(vfs, path, limits.maxFileBytes, limits.keepBytes)));
    limits.signal?.throwIfAborted();
    for (const [offset, file] of read.entries()) {
      const path = batch[offset]!;
      if (file.ok && total + file.size > limits.maxTotalBytes) {
        exhausted = true;
        for (const rest of paths.slice(start + offset)) files.set(rest, { ok: false, reason: 'read_limit' });
        break;
      }
      if (file.ok) total += file.size;
      files.set(path, file);
    }
  }
  return files;
}

/** Reads one file whole and hashes it. Never rejects: every failure is an omission reason. */
async function readSourceFile(vfs: ContextPacketVfs, path: string, maxFileBytes: number, keepBytes: boolean): Promise<SourceFile> {
  try {
    const result = await vfs.read(path);
    if (result === null || result === undefined) return failed('not_found');
    if (typeof result !== 'object') return failed('read_failed');
    const { content, encoding, truncated, size } = result;
    if (typeof content !== 'string') return failed('read_failed');
    if (truncated === true) return failed('too_large');
    let bytes: Uint8Array<ArrayBuffer>;
    let text: string | undefined;
    let base64: string | undefined;
    if (encoding === 'base64') {
      if (content.length > Math.ceil(maxFileBytes / 3) * 4) return failed('too_large');
      if (!CANONICAL_BASE64.test(content)) return failed('read_failed');
      bytes = decodeBase64(content);
      base64 = content;
    } else if (encoding === undefined || encoding === 'utf-8') {
      if (content.length > maxFileBytes) return failed('too_large');
      bytes = encoder.encode(content);
      // The file is these bytes; a string with a lone surrogate is shown as what they decode to.
      text = LONE_SURROGATE.test(content) ? decoder.decode(bytes) : content;
    } else return failed('read_failed');
    if (bytes.length > maxFileBytes) return failed('too_large');
    // A size that disagrees means the content is not the whole file: its hash could not be vouched for.
    if (size !== undefined && size !== bytes.length) return failed(typeof size === 'number' && size > maxFileBytes ? 'too_large' : 'read_failed');
    return { ok: true, sha256: await sha256Hex(bytes), size: bytes.length, text, base64, bytes: keepBytes ? bytes : undefined };
  } catch (error) {
    return failed(reasonOf(error));
  }
}

/** A VFS error's omission reason, recognised by its `code` (no runtime import of the VFS package). */
function reasonOf(error: unknown): ContextPacketOmissionReason {
  let code: unknown;
  try {
    code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  } catch {
    return 'read_failed';
  }
  switch (code) {
    case 'VFS_ERR_NOT_FOUND':
    case 'VFS_ERR_NOT_A_DIRECTORY':
      return 'not_found';
    case 'VFS_ERR_IS_A_DIRECTORY':
      return 'not_a_file';
    case 'VFS_ERR_PATH_ESCAPE':
      return 'outside_root';
    case 'VFS_ERR_INVALID_PATH':
      return 'invalid_path';
    default:
      return 'read_failed';
  }
}

function failed(reason: ContextPacketOmissionReason): SourceFile {
  return { ok: false, reason };
}

function decodeBase64(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
