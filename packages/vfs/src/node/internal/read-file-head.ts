import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** The first bytes of a file and its total size. */
export interface FileHead {
  bytes: Uint8Array;
  size: number;
}

// O_NONBLOCK keeps a FIFO swapped in after the type check from blocking; O_NOFOLLOW refuses a
// symlink swapped in after `realpath`. Both are 0 (ignored) where the platform lacks them.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** Reads at most `maxBytes` from the start of the regular file at `realPath`. */
export async function readFileHead(realPath: string, maxBytes: number): Promise<FileHead> {
  const handle = await open(realPath, OPEN_FLAGS);
  try {
    const stats = await handle.stat();
    const wanted = Math.min(stats.size, maxBytes);
    const buffer = new Uint8Array(wanted);
    let filled = 0;
    while (filled < wanted) {
      const { bytesRead } = await handle.read(buffer, filled, wanted - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return { bytes: buffer.subarray(0, filled), size: stats.size };
  } finally {
    await handle.close();
  }
}
