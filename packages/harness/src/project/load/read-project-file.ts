import {
  VfsIoError,
  VfsIsADirectoryError,
  VfsNotADirectoryError,
  VfsNotFoundError,
  VfsPathEscapeError,
  type VfsEntry,
  type VfsProvider,
} from '@agent-assistant/vfs';
import { describeError } from '../../shared/describe-error.js';

/** What reading one project file gave: its text, or why there is none. */
export type ProjectFileRead =
  | { readonly status: 'ok'; readonly text: string; readonly bytes: Uint8Array<ArrayBuffer> }
  | { readonly status: 'missing' }
  | { readonly status: 'refused'; readonly reason: 'escape' | 'not_regular' | 'too_large' | 'binary' | 'unreadable'; readonly message: string };

const encoder = /* @__PURE__ */ new TextEncoder();

/**
 * Reads one file through the VFS, refusing it (never truncating) when it is larger than
 * `maxBytes`, not a regular file, binary, or reached through a path the VFS says leaves its root.
 * `stat`, when the VFS has it, refuses a large file before any byte is read. Never throws.
 */
export async function readProjectFile(vfs: VfsProvider, path: string, maxBytes: number): Promise<ProjectFileRead> {
  let statType: string | undefined;
  try {
    if (typeof vfs.stat === 'function') {
      const entry = await vfs.stat(path);
      if (entry === null) return { status: 'missing' };
      statType = entry.type;
      // `unknown` is also what a provider says when it cannot tell: the read decides.
      if (entry.type !== 'file' && entry.type !== 'unknown') return notRegular(entry.type);
      if (typeof entry.size === 'number' && entry.size > maxBytes) return tooLarge(entry.size, maxBytes);
    }
    const result = await vfs.read(path);
    if (result === null) return { status: 'missing' };
    if (result.encoding === 'base64') return { status: 'refused', reason: 'binary', message: 'is not UTF-8 text' };
    const { content } = result;
    if (typeof content !== 'string') return { status: 'refused', reason: 'unreadable', message: 'could not be read: the VFS returned no text' };
    // A long string is cut before encoding: its UTF-8 form is at least as long as it is.
    if (content.length > maxBytes) return tooLarge(result.size ?? content.length, maxBytes);
    const bytes = encoder.encode(content);
    const size = typeof result.size === 'number' ? Math.max(result.size, bytes.length) : bytes.length;
    if (result.truncated === true || size > maxBytes) return tooLarge(size, maxBytes);
    return { status: 'ok', text: content, bytes };
  } catch (error) {
    if (VfsNotFoundError.isInstance(error)) return { status: 'missing' };
    if (VfsPathEscapeError.isInstance(error)) return { status: 'refused', reason: 'escape', message: 'leads outside the project (a symlink or path that leaves it)' };
    if (VfsIsADirectoryError.isInstance(error)) return notRegular('dir');
    if (VfsNotADirectoryError.isInstance(error)) return { status: 'missing' };
    // The Node VFS reports FIFOs, sockets and devices as `unknown`, and refuses to read them.
    if (statType === 'unknown' && VfsIoError.isInstance(error)) return notRegular('unknown');
    return { status: 'refused', reason: 'unreadable', message: `could not be read: ${describeError(error, 300)}` };
  }
}

/** The entries directly inside a project folder, or `undefined` when there is no such folder. */
export type ProjectDirList = { readonly status: 'ok'; readonly entries: readonly VfsEntry[] } | { readonly status: 'missing' } | { readonly status: 'refused'; readonly message: string };

/** Lists a folder's direct children, at most `limit` of them. Never throws. */
export async function listProjectDir(vfs: VfsProvider, path: string, limit: number): Promise<ProjectDirList> {
  try {
    const entries = await vfs.list(path, { depth: 1, limit });
    return { status: 'ok', entries };
  } catch (error) {
    if (VfsNotFoundError.isInstance(error)) return { status: 'missing' };
    if (VfsNotADirectoryError.isInstance(error)) return { status: 'refused', message: 'is a file, not a folder' };
    if (VfsPathEscapeError.isInstance(error)) return { status: 'refused', message: 'leads outside the project (a symlink or path that leaves it)' };
    return { status: 'refused', message: `could not be listed: ${describeError(error, 300)}` };
  }
}

function notRegular(type: string): ProjectFileRead {
  return { status: 'refused', reason: 'not_regular', message: type === 'dir' ? 'is a folder, not a file' : 'is not a regular file' };
}

function tooLarge(size: number, maxBytes: number): ProjectFileRead {
  return { status: 'refused', reason: 'too_large', message: `is ${size} bytes, more than the limit of ${maxBytes} bytes` };
}
