import type { HarnessClock } from '../core/types/config.js';

/** A clock that only moves when told to. */
export interface ManualClock extends HarnessClock {
  /** Moves time forward by `ms` milliseconds. */
  advance(ms: number): void;
  /** Sets the time to `epochMs`. */
  set(epochMs: number): void;
}

/**
 * Creates a manual clock for deterministic timestamps, elapsed times and expiry checks.
 * It does not drive the turn's deadline timer, which always uses real time.
 * @param startMs epoch milliseconds to start at; defaults to 2026-01-01T00:00:00.000Z.
 */
export function createManualClock(startMs = Date.UTC(2026, 0, 1)): ManualClock {
  let now = startMs;
  return {
    now: () => now,
    advance(ms) {
      now += ms;
    },
    set(epochMs) {
      now = epochMs;
    },
  };
}
