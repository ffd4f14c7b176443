import { describe, expect, it } from 'vitest';
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
