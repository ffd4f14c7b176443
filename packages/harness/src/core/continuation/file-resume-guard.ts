import { HarnessConfigError } from '../errors/harness-config-error.js';
import type { HarnessContinuation, HarnessResumeGuard } from '../types/continuation.js';
import { loadNodeFs, type NodeFsLike } from './load-node-fs.js';
import { claimExpiresAtMs, resumeClaimKey } from './resume-claim-key.js';

/** Options of `createFileResumeGuard`. */
export interface FileResumeGuardOptions {
  /** Directory of the claim files (created with mode 0700 if missing). Use a local disk, not a network share. */
  directory: string;
  /**
   * Epoch milliseconds, used by `prune`.
   * @default Date.now
   */
  now?: () => number;
}

/** A resume guard backed by files, with a way to delete claims nobody needs any more. */
export interface FileResumeGuard extends HarnessResumeGuard {
  /**
   * Deletes the claim files of continuations past their `expiresAt` plus `RESUME_CLAIM_GRACE_MS`
   * (which `resumeTurn` refuses anyway) and resolves how many it deleted. Claims of continuations without an expiry are kept.
   */
  prune(): Promise<number>;
}

const SUFFIX = '.claim';

/**
 * A resume guard that holds across every process of one machine: a claim creates
 * `<directory>/<resumeClaimKey>.claim` with `O_CREAT | O_EXCL`, which exactly one process wins.
 * Node.js only (`node:fs` is loaded on the first claim, so importing it stays Worker-safe).
 *
 * @throws HarnessConfigError when `directory` is not a non-empty string.
 * @example
 * ```ts
 * const resumeGuard = createFileResumeGuard({ directory: '/var/lib/my-app/resume-claims' });
 * const harness = createHarness({ model, tools, continuationSecret, resumeGuard });
 * ```
 */
export function createFileResumeGuard(options: FileResumeGuardOptions): FileResumeGuard {
  const directory = readDirectory(options);
  const now = options.now ?? Date.now;
  let ready: Promise<NodeFsLike> | undefined;
  const open = () => {
    ready ??= loadNodeFs().then(async (fs) => {
      await fs.mkdir(directory, { recursive: true, mode: 0o700 });
      return fs;
    });
    ready.catch(() => {
      ready = undefined;
    });
    return ready;
  };
  return {
    async claim(continuation: HarnessContinuation) {
      const fs = await open();
      const path = `${directory}/${await resumeClaimKey(continuation)}${SUFFIX}`;
      const record = JSON.stringify({
        continuationId: continuation.id,
        turnId: continuation.turnId,
        expiresAt: continuation.expiresAt ?? null,
      });
      try {
        await fs.writeFile(path, record, { flag: 'wx', mode: 0o600 });
        return true;
      } catch (error) {
        if (errorCode(error) === 'EEXIST') return false;
        throw error;
      }
    },
    async prune() {
      const fs = await open();
      const time = now();
      let deleted = 0;
      for (const name of await fs.readdir(directory)) {
        if (!name.endsWith(SUFFIX)) continue;
        const path = `${directory}/${name}`;
        const expiresAtMs = await readExpiry(fs, path);
        if (expiresAtMs === undefined || expiresAtMs > time) continue;
        try {
          await fs.unlink(path);
          deleted += 1;
        } catch (error) {
          if (errorCode(error) !== 'ENOENT') throw error;
        }
      }
      return deleted;
    },
  };
}

function readDirectory(options: FileResumeGuardOptions): string {
  const directory = (options as Partial<FileResumeGuardOptions> | undefined)?.directory;
  if (typeof directory !== 'string' || directory.trim() === '') {
    throw new HarnessConfigError('createFileResumeGuard needs a directory (a non-empty path).', { field: 'directory' });
  }
  return directory.replace(/[\\/]+$/, '') || directory;
}

/** The expiry recorded in a claim file; `undefined` (keep it) when unreadable or without one. */
async function readExpiry(fs: NodeFsLike, path: string): Promise<number | undefined> {
  try {
    const record = JSON.parse(await fs.readFile(path, 'utf8')) as { expiresAt?: unknown };
    if (typeof record.expiresAt !== 'string') return undefined;
    const expiresAtMs = claimExpiresAtMs({ expiresAt: record.expiresAt });
    return Number.isFinite(expiresAtMs) ? expiresAtMs : undefined;
  } catch {
    return undefined;
  }
}

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}
