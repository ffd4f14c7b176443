import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTurnSignal, raceSignal, TurnInterrupted } from './turn-signal.js';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('createTurnSignal', () => {
  it('aborts with a timeout TurnInterrupted when the deadline passes, not before', () => {
    const turn = createTurnSignal(undefined, 1_000);
    vi.advanceTimersByTime(999);
    expect(turn.signal.aborted).toBe(false);
    expect(turn.interruptReason()).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(turn.signal.aborted).toBe(true);
    expect(turn.interruptReason()).toBe('timeout');
    expect(turn.signal.reason).toBeInstanceOf(TurnInterrupted);
    expect((turn.signal.reason as TurnInterrupted).reason).toBe('timeout');
    turn.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('aborts as cancelled when the caller signal aborts, and drops its timer on dispose', () => {
    const caller = new AbortController();
    const turn = createTurnSignal(caller.signal, 1_000);
    expect(vi.getTimerCount()).toBe(1);
    caller.abort(new Error('user pressed stop'));
    expect(turn.signal.aborted).toBe(true);
    expect(turn.interruptReason()).toBe('cancelled');
    expect((turn.signal.reason as TurnInterrupted).reason).toBe('cancelled');
    turn.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('starts cancelled, without a timer, when the caller signal is already aborted', () => {
    const caller = new AbortController();
    caller.abort();
    const turn = createTurnSignal(caller.signal, 1_000);
    expect(turn.signal.aborted).toBe(true);
    expect(turn.interruptReason()).toBe('cancelled');
    expect(vi.getTimerCount()).toBe(0);
    turn.dispose();
  });

  it('keeps the first reason when both the caller and the deadline fire', () => {
    const caller = new AbortController();
    const turn = createTurnSignal(caller.signal, 10);
    vi.advanceTimersByTime(10);
    caller.abort();
    expect(turn.interruptReason()).toBe('timeout');
    turn.dispose();
  });

  it('ignores the caller signal and the deadline after dispose', () => {
    const caller = new AbortController();
    const turn = createTurnSignal(caller.signal, 10);
    turn.dispose();
    caller.abort();
    vi.advanceTimersByTime(100);
    expect(turn.signal.aborted).toBe(false);
    expect(turn.interruptReason()).toBeUndefined();
  });

  it('clamps a deadline beyond the platform timer range instead of firing at once', () => {
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    const turn = createTurnSignal(undefined, 3_000_000_000);
    const delay = setTimeoutSpy.mock.calls[0]?.[1];
    expect(delay).toBeLessThanOrEqual(2_147_483_647);
    expect(delay).toBeGreaterThan(2_000_000_000);
    vi.advanceTimersByTime(60_000);
    expect(turn.signal.aborted).toBe(false);
    turn.dispose();
  });
});

describe('raceSignal', () => {
  it('settles with the work when the signal stays quiet', async () => {
    const controller = new AbortController();
    await expect(raceSignal(() => 42, controller.signal)).resolves.toBe(42);
    await expect(raceSignal(async () => 'async', controller.signal)).resolves.toBe('async');
  });

  it('passes on the work’s own rejection and a synchronous throw', async () => {
    const controller = new AbortController();
    await expect(raceSignal(() => Promise.reject(new Error('nope')), controller.signal)).rejects.toThrow('nope');
    await expect(
      raceSignal(() => {
        throw new Error('sync');
      }, controller.signal),
    ).rejects.toThrow('sync');
  });

  it('rejects with the TurnInterrupted reason as soon as the signal fires, even if the work never settles', async () => {
    const turn = createTurnSignal(undefined, 500);
    const raced = raceSignal(() => new Promise<never>(() => undefined), turn.signal);
    const settled = vi.fn();
    raced.then(settled, settled);
    await vi.advanceTimersByTimeAsync(499);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await expect(raced).rejects.toSatisfy((error) => error instanceof TurnInterrupted && error.reason === 'timeout');
    turn.dispose();
  });

  it('does not start the work when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const work = vi.fn(() => 1);
    await expect(raceSignal(work, controller.signal)).rejects.toBeInstanceOf(TurnInterrupted);
    expect(work).not.toHaveBeenCalled();
  });

  it('rejects with the interruption when the work itself fires the signal, and ignores what the work does after', async () => {
    const turn = createTurnSignal(undefined, 60_000);
    const caller = new AbortController();
    const cancelled = createTurnSignal(caller.signal, 60_000);
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const raced = raceSignal(() => {
        caller.abort();
        return Promise.reject(new Error('after the abort'));
      }, cancelled.signal);
      await expect(raced).rejects.toSatisfy((error) => error instanceof TurnInterrupted && error.reason === 'cancelled');
      // The turn's fan-out holds nothing of a race that settled: a later abort calls no stale callback.
      const settled = vi.fn();
      await raceSignal(() => 'done', turn.signal).then(settled);
      expect(settled).toHaveBeenCalledWith('done');
      await vi.advanceTimersByTimeAsync(60_000);
      expect(turn.signal.aborted).toBe(true);
      await Promise.resolve();
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
      turn.dispose();
      cancelled.dispose();
    }
  });

  it('treats a foreign abort reason as a cancel', async () => {
    const controller = new AbortController();
    const raced = raceSignal(() => new Promise<never>(() => undefined), controller.signal);
    controller.abort(new Error('foreign'));
    await expect(raced).rejects.toSatisfy((error) => error instanceof TurnInterrupted && error.reason === 'cancelled');
  });

  it('removes its abort listener once the work settles', async () => {
    const controller = new AbortController();
    const add = vi.spyOn(controller.signal, 'addEventListener');
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    await raceSignal(() => 'done', controller.signal);
    await raceSignal(() => Promise.reject(new Error('x')), controller.signal).catch(() => undefined);
    expect(add).toHaveBeenCalledTimes(2);
    expect(remove).toHaveBeenCalledTimes(2);
    expect(remove.mock.calls.map((call) => call[1])).toEqual(add.mock.calls.map((call) => call[1]));
  });
});

describe('TurnInterrupted', () => {
  it('names the reason in its message', () => {
    expect(new TurnInterrupted('timeout').message).toMatch(/time/);
    expect(new TurnInterrupted('cancelled').message).toMatch(/cancel/);
    expect(new TurnInterrupted('cancelled').name).toBe('TurnInterrupted');
  });
});
