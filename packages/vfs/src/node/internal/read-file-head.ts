import type { VerifiedNode } from './open-inside-root.js';

/** The first bytes of a file and its total size. */
export interface FileHead {
  bytes: Uint8Array;
  size: number;
}

/**
 * Reads at most `maxBytes` from the start of a verified regular file. The bytes come from the
 * verified object itself (reopened by descriptor), never from whatever its path names now.
 */
export async function readFileHead(node: VerifiedNode, maxBytes: number): Promise<FileHead> {
  const { handle, stats } = await node.openForReading();
  try {
    const wanted = Math.min(stats.size, maxBytes);
    const buffer = new Uint8Array(wanted);
    let filled = 0;
    while (filled < wanted) {
      const { bytesRead } = await handle.read(buffer, filled, wanted - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    // Where the file was reopened by path (no /proc/self/fd), the path must still name it.
    await node.recheck();
    return { bytes: buffer.subarray(0, filled), size: stats.size };
  } finally {
    await handle.close();
  }
}
