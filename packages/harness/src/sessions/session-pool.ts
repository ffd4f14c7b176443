import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import { HarnessError, type HarnessErrorOptions } from '../core/errors/harness-error.js';
import { hasErrorMarker } from '../core/errors/has-error-marker.js';

/** What the pool needs from a live engine session. */
export interface PooledSession {
  /** False once the engine process has ended. */
  readonly alive: boolean;
  /**
   * True while the engine waits for an approval answer the harness has not given yet (the turn
   * paused `awaiting_approval`). Such a session is never stopped for being idle, and at
   * `maxLiveSessions` it makes room only when no other idle session can.
   */
  readonly awaitingApproval?: boolean | undefined;
  /** Settles when the engine process has ended, for whatever reason. Never rejects. */
  readonly exited: Promise<unknown>;
  /** Stops the engine and resolves once no process of it is left. Never rejects. */
  dispose(): Promise<unknown>;
}

/** Limits of a {@link SessionPool}. */
export interface SessionPoolOptions {
  /** Most live engine processes at once (default 4). At the cap the least recently used idle one is stopped. */
  maxLiveSessions?: number | undefined;
  /**
   * An idle session (no turn running) is stopped after this many milliseconds (default 600 000,
   * ten minutes) — unless it waits for an approval answer, which may take a person longer.
   */
  idleTimeoutMs?: number | undefined;
}

/** What `acquire` hands back. */
export interface SessionLease<S extends PooledSession> {
  session: S;
  /** True when an already running session was reused. */
  reused: boolean;
  /** True when this key's previous session had died on its own (a crash) and a new one was started. */
  restarted: boolean;
}

const marker = Symbol.for('agent-assistant.error.SessionPoolError');

/**
 * Thrown by `SessionPool.acquire` when it cannot hand out a session. Code
 * `HARNESS_ERR_SESSION_POOL`; the engine-session adapters return it as a `failed` result.
 */
export class SessionPoolError extends HarnessError {
  /** `busy`: the session runs a turn; `full`: every live session is busy; `disposed`: the pool was disposed. */
  readonly reason: 'busy' | 'full' | 'disposed';

  constructor(reason: SessionPoolError['reason'], message: string, options: HarnessErrorOptions = {}) {
    super('HARNESS_ERR_SESSION_POOL', message, options);
    Object.defineProperty(this, marker, { value: true });
    this.name = 'SessionPoolError';
    this.reason = reason;
  }

  /** True for any `SessionPoolError`, even one from another copy of this package. */
  static override isInstance(value: unknown): value is SessionPoolError {
    return hasErrorMarker(value, marker);
  }
}

/** The pool's defaults, in one place; the docs quote these. */
export const DEFAULT_SESSION_POOL_OPTIONS = /* @__PURE__ */ Object.freeze({
  maxLiveSessions: 4,
  idleTimeoutMs: 600_000,
});

interface Entry<S> {
  session?: S;
  /** Called when the turn holding the session lets go (or the entry is dropped). */
  waiters: (() => void)[];
  starting?: Promise<S>;
  busy: boolean;
  lastUsed: number;
  idleTimer?: ReturnType<typeof setTimeout> | undefined;
  stoppedByPool: boolean;
}

const MAX_REMEMBERED_CRASHES = 256;

/**
 * One live engine process per session key, reused across the turns of that session. A session is
 * busy while a turn holds it (`acquire` … `release`); an idle one is stopped after
 * `idleTimeoutMs`; at `maxLiveSessions` the least recently used idle one makes room. A session
 * whose process died is noticed, dropped, and started afresh on the next `acquire`
 * (`restarted: true`). `dispose()` stops everything and resolves once no process is left.
 */
export class SessionPool<S extends PooledSession> {
  private readonly entries = new Map<string, Entry<S>>();
  private readonly crashed = new Set<string>();
  private readonly maxLive: number;
  private readonly idleTimeoutMs: number;
  private disposed = false;
  private clock = 0;

  /** @throws HarnessConfigError when a limit is not a positive integer. */
  constructor(options: SessionPoolOptions = {}) {
    this.maxLive = positiveInteger(options.maxLiveSessions, 'maxLiveSessions') ?? DEFAULT_SESSION_POOL_OPTIONS.maxLiveSessions;
    this.idleTimeoutMs = positiveInteger(options.idleTimeoutMs, 'idleTimeoutMs') ?? DEFAULT_SESSION_POOL_OPTIONS.idleTimeoutMs;
  }

  /** Live (or starting) sessions. */
  get size(): number {
    return this.entries.size;
  }

  /** The live session under `key`, busy or not, without acquiring it. */
  peek(key: string): S | undefined {
    const session = this.entries.get(key)?.session;
    return session?.alive === true ? session : undefined;
  }

  /**
   * The session under `key`, marked busy: the live one when there is one, otherwise one made by
   * `start`. While the session runs another turn, waits for it when `signal` is given (until the
   * signal aborts); without a signal, or once it aborted, rejects with `SessionPoolError` `busy`.
   * Also rejects with `SessionPoolError` when every live session
   * is busy at the cap, or after `dispose`; rejects with `start`'s error when starting failed.
   */
  async acquire(key: string, start: () => Promise<S>, signal?: AbortSignal): Promise<SessionLease<S>> {
    if (this.disposed) throw new SessionPoolError('disposed', 'The session pool was disposed.');
    let existing = this.entries.get(key);
    while (existing?.busy === true && signal !== undefined && !signal.aborted) {
      await this.released(existing, signal);
      if (this.disposed) throw new SessionPoolError('disposed', 'The session pool was disposed.');
      existing = this.entries.get(key);
    }
    if (existing !== undefined) {
      if (existing.busy) throw new SessionPoolError('busy', 'This session is running another turn.');
      if (existing.session?.alive === true) {
        this.markBusy(existing);
        return { session: existing.session, reused: true, restarted: false };
      }
      if (existing.session !== undefined && !existing.stoppedByPool) this.crashed.add(key);
      this.forget(key, existing);
    }
    await this.makeRoom();
    if (this.disposed) throw new SessionPoolError('disposed', 'The session pool was disposed.');
    if (this.entries.has(key)) throw new SessionPoolError('busy', 'This session is being started by another turn.');
    const restarted = this.crashed.delete(key);
    const entry: Entry<S> = { busy: true, waiters: [], lastUsed: ++this.clock, stoppedByPool: false };
    const starting = start();
    entry.starting = starting;
    this.entries.set(key, entry);
    let session: S;
    try {
      session = await starting;
    } catch (error) {
      if (this.entries.get(key) === entry) this.entries.delete(key);
      throw error;
    }
    entry.starting = undefined;
    entry.session = session;
    void session.exited.then(() => this.onExit(key, entry));
    if (this.disposed || this.entries.get(key) !== entry) {
      await session.dispose();
      throw new SessionPoolError('disposed', 'The session pool was disposed.');
    }
    return { session, reused: false, restarted };
  }

  /** Ends a turn's hold on `key`'s session; the idle timer starts. */
  release(key: string, session: S): void {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.session !== session) return;
    entry.busy = false;
    entry.lastUsed = ++this.clock;
    this.clearIdle(entry);
    if (!session.alive) {
      this.forget(key, entry);
      return;
    }
    if (session.awaitingApproval !== true) {
      const timer = setTimeout(() => void this.stop(key, entry), this.idleTimeoutMs);
      (timer as { unref?: () => void }).unref?.();
      entry.idleTimer = timer;
    }
    this.wakeWaiters(entry);
  }

  /** Stops `key`'s session (if it is `session`, or any session when `session` is absent). */
  async discard(key: string, session?: S): Promise<void> {
    const entry = this.entries.get(key);
    if (entry === undefined || (session !== undefined && entry.session !== session)) return;
    await this.stop(key, entry);
  }

  /** Stops every session; resolves once no engine process is left. Later `acquire` calls reject. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const stopping: Promise<unknown>[] = [];
    for (const [key, entry] of [...this.entries]) stopping.push(this.stop(key, entry));
    await Promise.all(stopping);
  }

  private released(entry: Entry<S>, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        signal.removeEventListener('abort', done);
        resolve();
      };
      entry.waiters.push(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  private wakeWaiters(entry: Entry<S>): void {
    for (const wake of entry.waiters.splice(0)) wake();
  }

  private markBusy(entry: Entry<S>): void {
    entry.busy = true;
    entry.lastUsed = ++this.clock;
    this.clearIdle(entry);
  }

  private async makeRoom(): Promise<void> {
    if (this.entries.size < this.maxLive) return;
    // The least recently used idle session; one waiting for an approval answer only when no other is idle.
    let oldest: [string, Entry<S>] | undefined;
    const rank = (entry: Entry<S>) => (entry.session?.awaitingApproval === true ? 1 : 0);
    for (const pair of this.entries) {
      if (pair[1].busy) continue;
      if (oldest === undefined || rank(pair[1]) < rank(oldest[1]) || (rank(pair[1]) === rank(oldest[1]) && pair[1].lastUsed < oldest[1].lastUsed)) oldest = pair;
    }
    if (oldest === undefined) {
      throw new SessionPoolError('full', `All ${this.maxLive} live sessions are running turns.`);
    }
    await this.stop(oldest[0], oldest[1]);
  }

  private async stop(key: string, entry: Entry<S>): Promise<void> {
    entry.stoppedByPool = true;
    this.forget(key, entry);
    const session = entry.session ?? (await entry.starting?.catch(() => undefined));
    await session?.dispose();
  }

  private onExit(key: string, entry: Entry<S>): void {
    if (entry.stoppedByPool || this.disposed) return;
    this.forget(key, entry);
    this.crashed.add(key);
    if (this.crashed.size > MAX_REMEMBERED_CRASHES) {
      const first = this.crashed.values().next();
      if (first.done !== true) this.crashed.delete(first.value);
    }
  }

  private forget(key: string, entry: Entry<S>): void {
    this.clearIdle(entry);
    if (this.entries.get(key) === entry) this.entries.delete(key);
    this.wakeWaiters(entry);
  }

  private clearIdle(entry: Entry<S>): void {
    if (entry.idleTimer !== undefined) clearTimeout(entry.idleTimer);
    entry.idleTimer = undefined;
  }
}

function positiveInteger(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 2_147_483_647) {
    throw new HarnessConfigError(`SessionPool ${field} must be a positive integer, got ${String(value)}.`, { field });
  }
  return value;
}
