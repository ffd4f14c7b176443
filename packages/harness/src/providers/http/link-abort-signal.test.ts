import { describe, expect, it, vi } from 'vitest';
import { createTurnSignal } from '../../core/internal/turn-signal.js';
import { abortableDelay, linkAbortSignal } from './link-abort-signal.js';

describe('linkAbortSignal', () => {
  it('follows the parent until disposed', () => {
    const parent = new AbortController();
    const linked = linkAbortSignal(parent.signal);
    parent.abort('why');
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe('why');

    const other = new AbortController();
    const detached = linkAbortSignal(other.signal);
    detached.dispose();
    other.abort();
    expect(detached.signal.aborted).toBe(false);
  });

  it("follows a turn's signal through the turn's fan-out, without an EventTarget listener, until disposed", () => {
    const following = createTurnSignal(undefined, 60_000);
    const add = vi.spyOn(following.signal, 'addEventListener');
    const linked = linkAbortSignal(following.signal);
    expect(add).not.toHaveBeenCalled();
    const caller = new AbortController();
    const cancelled = createTurnSignal(caller.signal, 60_000);
    const detached = linkAbortSignal(cancelled.signal);
    detached.dispose();
    caller.abort();
    expect(detached.signal.aborted).toBe(false);
    following.dispose();
    cancelled.dispose();
    expect(linked.signal.aborted).toBe(false);
  });

  it('aborts with the reason of the turn signal it follows', () => {
    const caller = new AbortController();
    const turn = createTurnSignal(caller.signal, 60_000);
    const linked = linkAbortSignal(turn.signal);
    caller.abort();
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe(turn.signal.reason);
    turn.dispose();
  });

  it('starts aborted under an aborted parent, and aborts on its own', () => {
    const parent = new AbortController();
    parent.abort();
    expect(linkAbortSignal(parent.signal).signal.aborted).toBe(true);
    const own = linkAbortSignal(undefined);
    own.abort(new Error('mine'));
    expect(own.signal.aborted).toBe(true);
  });
});

describe('abortableDelay', () => {
  it('resolves true after the delay and false when aborted', async () => {
    expect(await abortableDelay(0, undefined)).toBe(true);
    const controller = new AbortController();
    const waiting = abortableDelay(60_000, controller.signal);
    controller.abort();
    expect(await waiting).toBe(false);
    expect(await abortableDelay(10, controller.signal)).toBe(false);
  });
});
