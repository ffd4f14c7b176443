import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { CONTEXT_PACKET_LIMITS } from './context-packet-limits.js';
import { nodeFs, privateDirectory, verifiedEntry } from './internal/source-cache.js';

const SHA256 = /^[0-9a-f]{64}$/;

/** Options of {@link readContextPacketSource}. */
export interface ReadContextPacketSourceOptions {
  /** The `cacheDir` the packet was built with. */
  cacheDir: string;
  /** A source's `sha256` from the packet (64 lower-case hex characters). */
  sha256: string;
  /**
   * The largest entry read, in bytes (1 to 67108864).
   * @default 1048576 (1 MiB)
   */
  maxBytes?: number | undefined;
}

/**
 * Reads back the exact bytes of a source a packet took, from the `cacheDir` it was built with
 * (Node.js only). The entry is re-hashed first: resolves `undefined` when there is none, or when
 * it is not a regular file, is larger than `maxBytes` or does not hash to `sha256` (a changed
 * entry is never returned; the next build that takes that source writes it again).
 * @throws ContextPacketError `cache_unavailable` when `cacheDir` is not a private directory or
 *   this is not Node.js. HarnessConfigError for a missing `cacheDir`, a malformed `sha256` or `maxBytes`.
 * @example
 * ```ts
 * const { packet } = await buildContextPacket(vfs, manifest, { budget: 16_384, cacheDir: '.packets' });
 * const bytes = await readContextPacketSource({ cacheDir: '.packets', sha256: packet.sources[0].sha256 });
 * ```
 */
export async function readContextPacketSource(options: ReadContextPacketSourceOptions): Promise<Uint8Array | undefined> {
  const { cacheDir, sha256, maxBytes = CONTEXT_PACKET_LIMITS.defaultMaxFileBytes } = options ?? ({} as ReadContextPacketSourceOptions);
  if (typeof cacheDir !== 'string' || cacheDir.trim() === '' || cacheDir.includes('\u0000')) {
    throw new HarnessConfigError('readContextPacketSource needs a cacheDir (a directory path).', { field: 'cacheDir' });
  }
  if (typeof sha256 !== 'string' || !SHA256.test(sha256)) {
    throw new HarnessConfigError('sha256 must be 64 lower-case hex characters.', { field: 'sha256' });
  }
  if (!Number.isInteger(maxBytes) || maxBytes < 1 || maxBytes > CONTEXT_PACKET_LIMITS.maxFileBytesCeiling) {
    throw new HarnessConfigError('maxBytes must be an integer from 1 to 67108864.', { field: 'maxBytes' });
  }
  const fs = await nodeFs();
  if (!(await privateDirectory(fs, cacheDir, false))) return undefined;
  return verifiedEntry(fs, `${cacheDir}/${sha256}`, sha256, maxBytes);
}
