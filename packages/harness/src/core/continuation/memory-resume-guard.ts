import type { HarnessContinuation, HarnessResumeGuard } from '../types/continuation.js';
import { claimExpiresAtMs, resumeClaimKey } from './resume-claim-key.js';

/** Options of `createMemoryResumeGuard`. */
export interface MemoryResumeGuardOptions {
  /**
   * Epoch milliseconds, used to forget claims of expired continuations.
   * @default Date.now
   */
  now?: () => number;
}

const FIRST_PRUNE = 1024;

/**
 * A resume guard for one process: each continuation is claimed once, atomically (the check and
 * the record happen in one synchronous step). Claims of continuations past their `expiresAt` (plus
 * `RESUME_CLAIM_GRACE_MS`) are forgotten as the set grows; without `continuationTtlMs` every claim
 * is kept for the life of the process (a 64-character key each). For several processes use `createFileResumeGuard` (one
 * machine) or a shared store (see docs/continuations.md).
 *
 * @example
 * ```ts
 * const harness = createHarness({ model, tools, continuationSecret, resumeGuard: createMemoryResumeGuard() });
 * ```
 */
export function createMemoryResumeGuard(options: MemoryResumeGuardOptions = {}): HarnessResumeGuard {
  const now = options.now ?? Date.now;
  const claims = new Map<string, number>();
  let pruneAtSize = FIRST_PRUNE;
  const prune = () => {
    const time = now();
    for (const [key, expiresAtMs] of claims) if (expiresAtMs <= time) claims.delete(key);
    pruneAtSize = Math.max(FIRST_PRUNE, claims.size * 2);
  };
  return {
    async claim(continuation: HarnessContinuation) {
      const key = await resumeClaimKey(continuation);
      if (claims.has(key)) return false;
      claims.set(key, claimExpiresAtMs(continuation));
      if (claims.size >= pruneAtSize) prune();
      return true;
    },
  };
}
