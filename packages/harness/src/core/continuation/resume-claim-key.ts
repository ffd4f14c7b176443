import { boundedOption } from '../../shared/bounded-option.js';
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

/**
 * How long a resume guard keeps a claim past its continuation's `expiresAt` (10 minutes). A
 * resume that verified the continuation just before it expired may still be claiming, and the
 * store's clock may run ahead of the resuming machine's; `resumeTurn` refuses a claim won after
 * the expiry (by its own clock), so a claim forgotten this long after it can never let a second
 * resume run.
 */
export const RESUME_CLAIM_GRACE_MS = 600_000;

/** When a claim may be forgotten: the continuation's expiry plus the grace, else never (`Infinity`). */
export function claimExpiresAtMs(continuation: Pick<HarnessContinuation, 'expiresAt'>): number {
  if (continuation.expiresAt === undefined) return Number.POSITIVE_INFINITY;
  const time = Date.parse(continuation.expiresAt);
  return Number.isFinite(time) ? time + RESUME_CLAIM_GRACE_MS : Number.POSITIVE_INFINITY;
}

/**
 * How many milliseconds a store should keep the claim, from `nowMs`: until `claimExpiresAtMs`, or
 * `fallbackTtlMs` for a continuation without an expiry; at least 1.
 */
export function claimTtlMs(continuation: Pick<HarnessContinuation, 'expiresAt'>, nowMs: number, fallbackTtlMs: number): number {
  const expiresAtMs = claimExpiresAtMs(continuation);
  const ttl = Number.isFinite(expiresAtMs) ? Math.ceil(expiresAtMs - nowMs) : fallbackTtlMs;
  return Math.max(1, ttl);
}

/** How long a store keeps the claim of a continuation without an expiry, unless told: 7 days. */
const DEFAULT_CLAIM_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const MAX_CLAIM_TTL_MS = 10 * 365 * 24 * 60 * 60 * 1000;

/**
 * Reads a store guard's `claimTtlMs` option: whole milliseconds from 1 to 10 years, default 7 days.
 * @throws HarnessConfigError for anything else.
 */
export function readClaimTtlMs(value: number | undefined): number {
  return boundedOption(value, DEFAULT_CLAIM_TTL_MS, MAX_CLAIM_TTL_MS, 'claimTtlMs');
}
