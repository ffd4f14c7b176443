import { readBodyText } from '../../shared/read-body-text.js';
import { HarnessConfigError } from '../errors/harness-config-error.js';
import type { HarnessContinuation, HarnessResumeGuard } from '../types/continuation.js';
import { createClaimTokens } from './claim-tokens.js';
import { claimTtlMs as claimLifeMs, readClaimTtlMs, resumeClaimKey } from './resume-claim-key.js';

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
   * How long the claim of a continuation without `expiresAt` lives, in milliseconds (1 ms to 10
   * years); such a continuation resumed after this can run again, so give the harness a
   * `continuationTtlMs` no longer than this.
   * @default 604800000 (7 days)
   */
  claimTtlMs?: number | undefined;
  /** Epoch milliseconds, used to work out how long a claim must live from now. @default Date.now */
  now?: (() => number) | undefined;
}

/** The longest answer (and request) read by the guard and the object. */
const MAX_ANSWER_BYTES = 1024;
const OBJECT_URL = 'https://resume-guard.internal';

/** A resume guard whose claims live in Durable Objects. */
export interface DurableObjectResumeGuard extends HarnessResumeGuard {
  /**
   * Deletes the claim `claim(continuation)` made (the same object), if the object still holds
   * that very claim: `resumeTurn` calls it when nothing ran under the claim.
   */
  release(continuation: HarnessContinuation): Promise<void>;
}

/**
 * A resume guard for Cloudflare Workers: each claim goes to the {@link ResumeGuardDurableObject}
 * named by its claim key (one object per continuation, so claims scale out), which records it in
 * a storage transaction; exactly one claim of a continuation sees `true`, from any Worker in any
 * location. The claim lives as long as the continuation can still be resumed (until its
 * `expiresAt` plus `RESUME_CLAIM_GRACE_MS`; `claimTtlMs` without an expiry); then an alarm
 * deletes it. An object that cannot be reached, or answers
 * anything but a claim, makes the claim throw, so the resume is refused (fail closed). Each claim
 * carries a random token, so `release` deletes only the claim it made.
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
): DurableObjectResumeGuard {
  if (typeof namespace !== 'object' || namespace === null || typeof namespace.idFromName !== 'function' || typeof namespace.get !== 'function') {
    throw new HarnessConfigError('createDurableObjectResumeGuard needs a Durable Object namespace binding (with idFromName and get).', {
      field: 'namespace',
    });
  }
  const claimTtlMs = readClaimTtlMs(options.claimTtlMs);
  const now = options.now ?? Date.now;
  const tokens = createClaimTokens();
  /** Sends `body` to the object named by `key` and resolves its `claimed` / `released` answer. */
  const ask = async (key: string, path: '/claim' | '/release', body: Record<string, unknown>): Promise<boolean> => {
    const stub = namespace.get(namespace.idFromName(key));
    const response = (await stub.fetch(`${OBJECT_URL}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key, ...body }),
    })) as Response;
    const { text } = await readBodyText(response, MAX_ANSWER_BYTES);
    const answer = readAnswer(response.status, text, path === '/claim' ? 'claimed' : 'released');
    if (answer === undefined) {
      throw new Error(`The resume guard Durable Object answered ${String(response.status)} without an answer; is the binding a ResumeGuardDurableObject?`);
    }
    return answer;
  };
  return {
    async claim(continuation: HarnessContinuation) {
      const key = await resumeClaimKey(continuation);
      return ask(key, '/claim', { token: tokens.next(continuation), ttlMs: claimLifeMs(continuation, now(), claimTtlMs) });
    },
    async release(continuation: HarnessContinuation) {
      const token = tokens.take(continuation);
      if (token !== undefined) await ask(await resumeClaimKey(continuation), '/release', { token });
    },
  };
}

function readAnswer(status: unknown, text: string, field: string): boolean | undefined {
  if (status !== 200) return undefined;
  try {
    const answer: unknown = (JSON.parse(text) as Record<string, unknown> | null)?.[field];
    return typeof answer === 'boolean' ? answer : undefined;
  } catch {
    return undefined;
  }
}

/** The storage transaction calls the object makes (a Durable Object's `ctx.storage` fits). */
export interface DurableObjectTransactionLike {
  get(key: string): Promise<unknown>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<boolean>;
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
const TOKEN_PATTERN = /^[0-9a-f-]{36}$/;
/** The latest time a `Date` holds. */
const MAX_TIME_MS = 8_640_000_000_000_000;
/** The latest alarm the runtime accepts ("This API doesn't support dates after 2189"). */
const LATEST_ALARM_MS = /* @__PURE__ */ Date.UTC(2189, 0, 1);

/** What the object stores per claim. */
interface StoredClaim {
  expiresAt: number;
  token: string;
}

/**
 * The Durable Object behind {@link createDurableObjectResumeGuard}. Export it from your Worker
 * and bind a namespace to it; it needs no `env`. Each request, sent by the guard, runs in a
 * storage transaction: `POST /claim` with `{ key, token, ttlMs }` answers `{ claimed: false }`
 * while a live claim of the key is stored, else stores this one until `now + ttlMs` and answers
 * `{ claimed: true }`; `POST /release` with `{ key, token }` deletes the claim only if it holds
 * that token. An alarm deletes expired claims. Works on SQLite- and KV-backed storage.
 */
export class ResumeGuardDurableObject {
  readonly #storage: DurableObjectStorageLike;

  constructor(state: DurableObjectStateLike, _env?: unknown) {
    this.#storage = state.storage;
  }

  async fetch(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (request.method !== 'POST' || (path !== '/claim' && path !== '/release')) return answer(404, { error: 'not found' });
    const { text, truncated } = await readBodyText(request, MAX_ANSWER_BYTES);
    const body = truncated ? undefined : readRequest(text, path === '/claim');
    if (body === undefined) return answer(400, { error: 'expected { key: 64 hex characters, token: a UUID, ttlMs: whole milliseconds (claims) }' });
    const storageKey = `${CLAIM_PREFIX}${body.key}`;
    if (path === '/release') {
      const released = await this.#storage.transaction(async (transaction) => {
        const existing = readStored(await transaction.get(storageKey));
        if (existing?.token !== body.token) return false;
        await transaction.delete(storageKey);
        return true;
      });
      return answer(200, { released });
    }
    const time = Date.now();
    const claim: StoredClaim = { expiresAt: Math.min(time + body.ttlMs, MAX_TIME_MS), token: body.token };
    const claimed = await this.#storage.transaction(async (transaction) => {
      const existing = readStored(await transaction.get(storageKey));
      if (existing !== undefined && existing.expiresAt > time) return false;
      await transaction.put(storageKey, claim);
      return true;
    });
    if (claimed) {
      const alarm = await this.#storage.getAlarm();
      if (alarm === null || alarm > claim.expiresAt) await this.#setAlarm(claim.expiresAt, time);
    }
    return answer(200, { claimed });
  }

  /** Deletes expired claims and sets the alarm for the next expiry. */
  async alarm(): Promise<void> {
    const time = Date.now();
    const expired: string[] = [];
    let next: number | undefined;
    for (const [key, value] of await this.#storage.list({ prefix: CLAIM_PREFIX })) {
      const expiresAt = readStored(value)?.expiresAt;
      if (expiresAt === undefined || expiresAt <= time) expired.push(key);
      else next = next === undefined ? expiresAt : Math.min(next, expiresAt);
    }
    for (let index = 0; index < expired.length; index += 128) await this.#storage.delete(expired.slice(index, index + 128));
    if (next !== undefined) await this.#setAlarm(next, time);
  }

  /** Sets the alarm for `at`, or for the latest time the runtime accepts (then it looks again). */
  async #setAlarm(at: number, time: number): Promise<void> {
    const alarm = Math.min(at, LATEST_ALARM_MS);
    if (alarm > time || at <= time) await this.#storage.setAlarm(alarm);
  }
}

function readStored(value: unknown): StoredClaim | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { expiresAt, token } = value as Partial<StoredClaim>;
  return typeof expiresAt === 'number' && typeof token === 'string' ? { expiresAt, token } : undefined;
}

function readRequest(text: string, isClaim: boolean): { key: string; token: string; ttlMs: number } | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const { key, token, ttlMs } = body as { key?: unknown; token?: unknown; ttlMs?: unknown };
  if (typeof key !== 'string' || !KEY_PATTERN.test(key) || typeof token !== 'string' || !TOKEN_PATTERN.test(token)) return undefined;
  if (!isClaim) return { key, token, ttlMs: 0 };
  if (typeof ttlMs !== 'number' || !Number.isSafeInteger(ttlMs) || ttlMs < 1) return undefined;
  return { key, token, ttlMs };
}

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
