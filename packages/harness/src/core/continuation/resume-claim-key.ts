import { sha256Hex } from '../../shared/sha256-hex.js';
import type { HarnessContinuation } from '../types/continuation.js';

const encoder = /* @__PURE__ */ new TextEncoder();

/**
 * The key a resume guard records for a continuation: the hex SHA-256 of its turn id, id and
 * resume token (64 characters, safe as a file name, Redis key or KV key). Every continuation a
 * harness seals gets a different key, including the next pause of the same turn.
 *
 * @example
 * ```ts
 * // Redis: SET NX succeeds only for the first claim.
 * const resumeGuard: HarnessResumeGuard = {
 *   async claim(continuation) {
 *     const key = `resume:${await resumeClaimKey(continuation)}`;
 *     return (await redis.set(key, '1', { NX: true, EX: 7 * 24 * 3600 })) === 'OK';
 *   },
 * };
 * ```
 */
export async function resumeClaimKey(continuation: Pick<HarnessContinuation, 'turnId' | 'id' | 'resumeToken'>): Promise<string> {
  const material = JSON.stringify([continuation.turnId, continuation.id, continuation.resumeToken]);
  return sha256Hex(encoder.encode(material));
}

/** When a claim may be forgotten: the continuation's expiry (it is refused after that anyway), else never. */
export function claimExpiresAtMs(continuation: Pick<HarnessContinuation, 'expiresAt'>): number {
  if (continuation.expiresAt === undefined) return Number.POSITIVE_INFINITY;
  const time = Date.parse(continuation.expiresAt);
  return Number.isFinite(time) ? time : Number.POSITIVE_INFINITY;
}
