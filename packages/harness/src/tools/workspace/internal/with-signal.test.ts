import { describe, expect, it } from 'vitest';
import { withSignal } from './with-signal.js';

describe('withSignal', () => {
  it('resolves the value and removes its listener', async () => {
    const controller = new AbortController();
    let listeners = 0;
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof add>) => ((listeners += 1), add(...args))) as typeof add;
    signal.removeEventListener = ((...args: Parameters<typeof remove>) => ((listeners -= 1), remove(...args))) as typeof remove;
    expect(await withSignal(async () => 42, signal)).toEqual({ aborted: false, value: 42 });
    await expect(withSignal(async () => Promise.reject(new Error('boom')), signal)).rejects.toThrow('boom');
    expect(listeners).toBe(0);
  });

  it('does not start work when the signal already fired', async () => {
    const controller = new AbortController();
    controller.abort();
    let started = false;
    expect(await withSignal(async () => (started = true), controller.signal)).toEqual({ aborted: true });
    expect(started).toBe(false);
  });

  it('resolves aborted as soon as the signal fires, even if the work never settles', async () => {
    const controller = new AbortController();
    const pending = withSignal(() => new Promise<never>(() => {}), controller.signal);
    controller.abort();
    expect(await pending).toEqual({ aborted: true });
  });

  it('turns a synchronous throw into a rejection', async () => {
    const work = (): Promise<never> => {
      throw new Error('sync');
    };
    await expect(withSignal(work, new AbortController().signal)).rejects.toThrow('sync');
  });
});
