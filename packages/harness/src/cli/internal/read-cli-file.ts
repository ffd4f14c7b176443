import { open } from 'node:fs/promises';
import { usageError } from './cli-usage-error.js';

const CHUNK_BYTES = 64 * 1024;

/**
 * At most `maxBytes + 1` bytes of the file at `path`, read through one handle: a larger file, an
 * endless device (`/dev/zero`) or a FIFO that never ends is never read further than that.
 */
export async function readAtMost(path: string, maxBytes: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(maxBytes + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, Math.min(CHUNK_BYTES, buffer.length - length), null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}

/** The text of bytes read with a limit, or a usage error (exit 2) saying that `what` is longer than the limit. */
export function textWithin(bytes: Uint8Array, maxBytes: number, what: string, field: string): string {
  if (bytes.length > maxBytes) throw usageError(`${what} is longer than ${formatBytes(maxBytes)}.`, field);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8');
}

/** How to name a file the CLI reads, in its messages. */
export interface CliFile {
  /** e.g. `the profiles file`. */
  what: string;
  /** The flag that named it, without `--` (the usage error's `field`). */
  field: string;
  /** The longest file accepted. */
  maxBytes: number;
  /** What to do about an unreadable file, e.g. `Check the path given to --profiles.` */
  hint: string;
}

/**
 * Reads a file the command line was given as UTF-8, reading at most one byte over its limit.
 * @throws HarnessConfigError (a usage error, exit 2): the file cannot be read, or is over the limit.
 */
export async function readCliFile(path: string, file: CliFile): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readAtMost(path, file.maxBytes);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    throw usageError(`Cannot read ${file.what} ${JSON.stringify(path)} (${typeof code === 'string' ? code : 'error'}). ${file.hint}`, file.field);
  }
  return textWithin(bytes, file.maxBytes, `${capitalize(file.what)} ${JSON.stringify(path)}`, file.field);
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
