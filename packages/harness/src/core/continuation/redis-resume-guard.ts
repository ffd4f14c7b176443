import { HarnessConfigError } from '../errors/harness-config-error.js';
import type { HarnessContinuation, HarnessResumeGuard } from '../types/continuation.js';
import { redisCommand, type RedisClientLike } from '../../shared/redis-client.js';
import { claimTtlMs, readClaimTtlMs, resumeClaimKey } from './resume-claim-key.js';

/** Options of `createRedisResumeGuard`. */
export interface RedisResumeGuardOptions {
  /** A connected node-redis or ioredis client (see `RedisClientLike`); the guard never connects or closes it. */
  client: RedisClientLike;
  /**
   * How long a claim of a continuation without `expiresAt` is kept, in milliseconds (1 ms to 10
   * years). Such a continuation resumed after this can run again: give the harness a
   * `continuationTtlMs` no longer than this. Claims of expiring continuations live until the
   * expiry plus `RESUME_CLAIM_GRACE_MS`.
   * @default 604800000 (7 days)
   */
  claimTtlMs?: number | undefined;
  /** Put before each claim key (`<keyPrefix><resumeClaimKey>`). @default 'agent-assistant:resume-claim:' */
  keyPrefix?: string | undefined;
}

const DEFAULT_KEY_PREFIX = 'agent-assistant:resume-claim:';

/** Deletes the claim only while it still holds this claim's random value. */
const RELEASE_SCRIPT = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

/**
 * A resume guard over Redis, holding across every machine that shares it: a claim is
 * `SET <keyPrefix><resumeClaimKey> <random> NX PX <ttl>`, which exactly one client wins. The
 * claim lives as long as the continuation can be resumed (its `expiresAt` plus
 * `RESUME_CLAIM_GRACE_MS`; without an expiry, `claimTtlMs`). `release` (called by `resumeTurn`
 * only when nothing ran under the claim: it threw, or landed after the resume gave up) deletes
 * the key only if it still holds this claim's random value (one `EVAL`), never another's claim.
 *
 * Works with `redis` (node-redis v4/v5) and `ioredis`; no client is bundled and nothing here
 * needs Node.js, so it is Worker-safe given a client that runs there. The promise holds as long
 * as Redis keeps its data: a Redis without persistence (or a failover to a replica that had not
 * received the claim) forgets claims, and a forgotten claim can be resumed again. See
 * docs/scale-out.md.
 *
 * @throws HarnessConfigError for a client that is neither, or out-of-range options.
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * const harness = createHarness({ model, tools, continuationSecret, resumeGuard: createRedisResumeGuard({ client }) });
 * ```
 */
export function createRedisResumeGuard(options: RedisResumeGuardOptions): HarnessResumeGuard {
  const command = redisCommand((options as Partial<RedisResumeGuardOptions> | undefined)?.client, 'createRedisResumeGuard');
  const fallbackTtlMs = readClaimTtlMs(options.claimTtlMs);
  const keyPrefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  if (typeof keyPrefix !== 'string') throw new HarnessConfigError('keyPrefix must be a string.', { field: 'keyPrefix' });
  /** The key and random value of each claim this guard sent, by the continuation object it claimed. */
  const sent = new WeakMap<HarnessContinuation, { key: string; value: string }>();

  return {
    async claim(continuation) {
      const key = `${keyPrefix}${await resumeClaimKey(continuation)}`;
      const value = crypto.randomUUID();
      const ttl = claimTtlMs(continuation, Date.now(), fallbackTtlMs);
      // Recorded before sending: a SET whose answer is lost may still have been applied.
      sent.set(continuation, { key, value });
      const reply = await command(['SET', key, value, 'NX', 'PX', String(ttl)]);
      if (reply === 'OK') return true;
      if (sent.get(continuation)?.value === value) sent.delete(continuation);
      if (reply === null) return false;
      throw new Error(`Redis answered SET … NX with ${describeReply(reply)}, not OK or nil`);
    },
    async release(continuation) {
      const claim = sent.get(continuation);
      if (claim === undefined) return;
      sent.delete(continuation);
      await command(['EVAL', RELEASE_SCRIPT, '1', claim.key, claim.value]);
    },
  };
}

function describeReply(reply: unknown): string {
  if (typeof reply === 'string') return JSON.stringify(reply.slice(0, 100));
  return reply === null ? 'null' : typeof reply;
}
