import { readBodyText } from '../../providers/http/read-body-text.js';
import { HarnessConfigError } from '../errors/harness-config-error.js';
import type { HarnessContinuation, HarnessResumeGuard } from '../types/continuation.js';
import { claimTtlFor, MAX_CLAIM_TTL_MS, readClaimTtlMs } from './claim-ttl.js';
import { resumeClaimKey } from './resume-claim-key.js';

/**
 * The part of a Durable Object namespace binding the guard uses (`env.RESUME_GUARD`, bound to
 * {@link ResumeGuardDurableObject}). Structural, so no Workers types are needed.
 */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(input: string, init: RequestInit): Promise<unknown> };
}

/** Options of {@link createDurableObjectResumeGuard}. */
export interface DurableObjectResumeGuardOptions {
  /**
   * How long the claim of a continuation without `expiresAt` lives, in milliseconds.
   * @default 604800000 (7 days)
   */
  claimTtlMs?: number | undefined;
  /** Epoch milliseconds, used to work out a continuation's remaining life. @default Date.now */
  now?: (() => number) | undefined;
}

/** The longest answer read from the object. */
const MAX_ANSWER_BYTES = 1024;
const CLAIM_URL = 'https://resume-guard.internal/claim';

/**
 * A resume guard for Cloudflare Workers: each claim goes to the {@link ResumeGuardDurableObject}
 * named by its claim key (one object per continuation, so claims scale out), which records it in
 * a storage transaction; exactly one claim of a continuation sees `true`, from any Worker in any
 * location. The claim lives as long as the continuation can still be resumed (or `claimTtlMs`
 * without an expiry); then an alarm deletes it. An object that cannot be reached, or answers
 * anything but a claim, makes the claim throw, so the resume is refused (fail closed).
 *
 * @throws HarnessConfigError when `namespace` is not a Durable Object namespace binding.
 * @example
 * ```ts
 * // wrangler.toml: [[durable_objects.bindings]] name = "RESUME_GUARD", class_name = "ResumeGuardDurableObject"
 * //                [[migrations]] tag = "v1", new_sqlite_classes = ["ResumeGuardDurableObject"]
 * export { ResumeGuardDurableObject } from '@agent-assistant/harness';
 * const resumeGuard = createDurableObjectResumeGuard(env.RESUME_GUARD);
 * ```
 */
export function createDurableObjectResumeGuard(
  namespace: DurableObjectNamespaceLike,
  options: DurableObjectResumeGuardOptions = {},
): HarnessResumeGuard {
  if (typeof namespace !== 'object' || namespace === null || typeof namespace.idFromName !== 'function' || typeof namespace.get !== 'function') {
    throw new HarnessConfigError('createDurableObjectResumeGuard needs a Durable Object namespace binding (with idFromName and get).', {
      field: 'namespace',
    });
  }
  const claimTtlMs = readClaimTtlMs(options.claimTtlMs, 'createDurableObjectResumeGuard');
  const now = options.now ?? Date.now;
  return {
    async claim(continuation: HarnessContinuation) {
      const key = await resumeClaimKey(continuation);
      const ttlMs = claimTtlFor(continuation, claimTtlMs, now());
      const stub = namespace.get(namespace.idFromName(key));
      const response = (await stub.fetch(CLAIM_URL, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ key, ttlMs }),
      })) as Response;
      const { text } = await readBodyText(response, MAX_ANSWER_BYTES);
      const claimed = readAnswer(response.status, text);
      if (claimed === undefined) {
        throw new Error(`The resume guard Durable Object answered ${String(response.status)} without a claim; is the binding a ResumeGuardDurableObject?`);
      }
      return claimed;
    },
  };
}

function readAnswer(status: unknown, text: string): boolean | undefined {
  if (status !== 200) return undefined;
  try {
    const claimed: unknown = (JSON.parse(text) as { claimed?: unknown } | null)?.claimed;
    return typeof claimed === 'boolean' ? claimed : undefined;
  } catch {
    return undefined;
  }
}

/** The storage transaction calls the object makes (a Durable Object's `ctx.storage` fits). */
export interface DurableObjectTransactionLike {
  get(key: string): Promise<unknown>;
  put(key: string, value: unknown): Promise<void>;
}

/** The part of a Durable Object's `ctx.storage` the object uses. */
export interface DurableObjectStorageLike {
  transaction<T>(closure: (transaction: DurableObjectTransactionLike) => Promise<T>): Promise<T>;
  list(options: { prefix: string }): Promise<Map<string, unknown>>;
  delete(keys: string[]): Promise<number>;
  getAlarm(): Promise<number | null>;
  setAlarm(scheduledTime: number): Promise<void>;
}

/** The part of a Durable Object's state (`ctx`) the object uses. */
export interface DurableObjectStateLike {
  storage: DurableObjectStorageLike;
}

const CLAIM_PREFIX = 'claim:';
const KEY_PATTERN = /^[0-9a-f]{64}$/;

/**
 * The Durable Object behind {@link createDurableObjectResumeGuard}. Export it from your Worker
 * and bind a namespace to it; it needs no `env`. Each claim (`POST /claim` with `{ key, ttlMs }`,
 * sent by the guard) runs in a storage transaction: a live claim of the key answers
 * `{ claimed: false }`, else the claim is stored until `now + ttlMs` and answers
 * `{ claimed: true }`. An alarm deletes expired claims. Works on SQLite- and KV-backed storage.
 */
export class ResumeGuardDurableObject {
  readonly #storage: DurableObjectStorageLike;

  constructor(state: DurableObjectStateLike, _env?: unknown) {
    this.#storage = state.storage;
  }

  async fetch(request: Request): Promise<Response> {
    if (request.method !== 'POST' || new URL(request.url).pathname !== '/claim') return answer(404, { error: 'not found' });
    const { text, truncated } = await readBodyText(request, MAX_ANSWER_BYTES);
    const claim = truncated ? undefined : readClaim(text);
    if (claim === undefined) return answer(400, { error: 'expected { key: 64 hex characters, ttlMs: whole milliseconds }' });
    const storageKey = `${CLAIM_PREFIX}${claim.key}`;
    const time = Date.now();
    const expiresAt = time + claim.ttlMs;
    const claimed = await this.#storage.transaction(async (transaction) => {
      const existing = await transaction.get(storageKey);
      if (typeof existing === 'number' && existing > time) return false;
      await transaction.put(storageKey, expiresAt);
      return true;
    });
    if (claimed) {
      const alarm = await this.#storage.getAlarm();
      if (alarm === null || alarm > expiresAt) await this.#storage.setAlarm(expiresAt);
    }
    return answer(200, { claimed });
  }

  /** Deletes expired claims and sets the alarm for the next expiry. */
  async alarm(): Promise<void> {
    const time = Date.now();
    const expired: string[] = [];
    let next: number | undefined;
    for (const [key, expiresAt] of await this.#storage.list({ prefix: CLAIM_PREFIX })) {
      if (typeof expiresAt !== 'number' || expiresAt <= time) expired.push(key);
      else next = next === undefined ? expiresAt : Math.min(next, expiresAt);
    }
    for (let index = 0; index < expired.length; index += 128) await this.#storage.delete(expired.slice(index, index + 128));
    if (next !== undefined) await this.#storage.setAlarm(next);
  }
}

function readClaim(text: string): { key: string; ttlMs: number } | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const { key, ttlMs } = body as { key?: unknown; ttlMs?: unknown };
  if (typeof key !== 'string' || !KEY_PATTERN.test(key)) return undefined;
  if (typeof ttlMs !== 'number' || !Number.isInteger(ttlMs) || ttlMs < 1 || ttlMs > MAX_CLAIM_TTL_MS) return undefined;
  return { key, ttlMs };
}

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
