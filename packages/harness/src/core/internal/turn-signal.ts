import { fanOutAbort, runAbortCallbacks, unwatchAbort, watchAbort } from '../../shared/watch-abort.js';

/** Why a run was interrupted. */
export type InterruptReason = 'timeout' | 'cancelled';

/** Thrown (internally) when work is abandoned because the turn's signal fired. */
export class TurnInterrupted extends Error {
  constructor(readonly reason: InterruptReason) {
    super(reason === 'timeout' ? 'The turn ran out of time.' : 'The turn was cancelled.');
    this.name = 'TurnInterrupted';
  }
}

/**
 * True when `value` is the harness's own interruption. Safe for any thrown value: a Proxy whose
 * traps throw, or an object with a hostile prototype chain, is simply not an interruption.
 */
export function isTurnInterrupted(value: unknown): value is TurnInterrupted {
  try {
    return value instanceof TurnInterrupted;
  } catch {
    return false;
  }
}

/** The signal every model, tool and hook call of a run receives, plus its deadline timer. */
export interface TurnSignal {
  readonly signal: AbortSignal;
  /** When the deadline timer fires, in `Date.now()` milliseconds. */
  readonly deadline: number;
  /** Set once the signal fired. */
  interruptReason(): InterruptReason | undefined;
  /** Clears the timer and detaches from the caller's signal. Call once the run ends. */
  dispose(): void;
}

/** The longest delay `setTimeout` honours; larger values fire at once (Node, browsers, Workers). */
const MAX_TIMER_DELAY_MS = 2_147_483_647;

/** Links the caller's signal and a `timeoutMs` deadline into one `AbortSignal`. */
export function createTurnSignal(external: AbortSignal | undefined, timeoutMs: number): TurnSignal {
  return new LinkedTurnSignal(external, timeoutMs);
}

/** A class, so a turn allocates its fields rather than a closure per method. */
class LinkedTurnSignal implements TurnSignal {
  readonly signal: AbortSignal;
  readonly deadline: number;
  private readonly controller = new AbortController();
  private reason: InterruptReason | undefined;
  private readonly timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onExternalAbort: (() => void) | undefined;

  constructor(
    private readonly external: AbortSignal | undefined,
    timeoutMs: number,
  ) {
    this.signal = this.controller.signal;
    // Races and typed tools watch the turn through one fan-out, not a listener per call.
    fanOutAbort(this.signal);
    const delayMs = Math.min(Math.max(0, timeoutMs), MAX_TIMER_DELAY_MS);
    this.deadline = Date.now() + delayMs;
    if (external?.aborted) {
      this.fire('cancelled');
    } else if (external !== undefined) {
      this.onExternalAbort = () => this.fire('cancelled');
      external.addEventListener('abort', this.onExternalAbort, { once: true });
    }
    this.timer = this.reason === undefined ? setTimeout(() => this.fire('timeout'), delayMs) : undefined;
  }

  interruptReason(): InterruptReason | undefined {
    return this.reason;
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.onExternalAbort !== undefined) this.external?.removeEventListener('abort', this.onExternalAbort);
  }

  private fire(why: InterruptReason): void {
    if (this.reason !== undefined) return;
    this.reason = why;
    this.controller.abort(new TurnInterrupted(why));
    runAbortCallbacks(this.signal);
  }
}

/**
 * Runs `work` and settles with it — or rejects with `TurnInterrupted` as soon as `signal` fires,
 * even if `work` ignores the signal and never settles.
 */
export function raceSignal<T>(work: () => T | PromiseLike<T>, signal: AbortSignal): Promise<Awaited<T>> {
  if (signal.aborted) return Promise.reject(interruption(signal));
  let pending: Promise<Awaited<T>>;
  try {
    pending = Promise.resolve(work()) as Promise<Awaited<T>>;
  } catch (error) {
    pending = Promise.reject(error);
  }
  // Fired while `work` started: the interruption wins, and what `work` does later is ignored.
  if (signal.aborted) {
    pending.then(undefined, ignore);
    return Promise.reject(interruption(signal));
  }
  return settleFirst(pending, signal);
}

/** `pending`'s outcome, or the interruption if `signal` fires first; the closures hold neither `work` nor its scope. */
function settleFirst<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(interruption(signal));
    watchAbort(signal, onAbort);
    pending.then(
      (value) => {
        unwatchAbort(signal, onAbort);
        resolve(value);
      },
      (error: unknown) => {
        unwatchAbort(signal, onAbort);
        reject(error);
      },
    );
  });
}

function ignore(): void {}

function interruption(signal: AbortSignal): TurnInterrupted {
  return signal.reason instanceof TurnInterrupted ? signal.reason : new TurnInterrupted('cancelled');
}
