import { describe, expect, it, vi } from 'vitest';
import type { HarnessResult } from '../types/result.js';
import type { HarnessStreamEvent } from '../types/runtime.js';
import { createTurnStream } from './create-turn-stream.js';

const fakeResult = { outcome: 'completed', stopReason: 'answer_finalized', turnId: 't' } as HarnessResult;

/** A start function the test drives by hand. */
function manualStart() {
  let emit: (event: HarnessStreamEvent) => void = () => undefined;
  let finish: (result: HarnessResult) => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  let signal: AbortSignal | undefined;
  const start = vi.fn((onEvent: (event: HarnessStreamEvent) => void, turnSignal: AbortSignal) => {
    emit = onEvent;
    signal = turnSignal;
    return new Promise<HarnessResult>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
  });
  return {
    start,
    emit: (event: HarnessStreamEvent) => emit(event),
    finish: (result: HarnessResult) => finish(result),
    fail: (error: unknown) => fail(error),
    signal: () => signal as AbortSignal,
  };
}

async function collect(stream: AsyncIterable<HarnessStreamEvent>): Promise<HarnessStreamEvent[]> {
  const events: HarnessStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** Settles with 'pending' if `promise` has not settled after the timers and microtasks queued so far. */
async function settledState(promise: Promise<unknown>): Promise<'resolved' | 'rejected' | 'pending'> {
  return Promise.race([
    promise.then(
      () => 'resolved' as const,
      () => 'rejected' as const,
    ),
    new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), 20)),
  ]);
}

describe('createTurnStream', () => {
  it('starts the turn at once and yields events in order, the result last, then ends', async () => {
    const driver = manualStart();
    const stream = createTurnStream(undefined, driver.start);
    expect(driver.start).toHaveBeenCalledTimes(1);
    driver.emit({ type: 'turn_started', turnId: 't' });
    driver.emit({ type: 'step_started', iteration: 1 });
    const collected = collect(stream);
    driver.emit({ type: 'text_delta', iteration: 1, text: 'Hi' });
    driver.finish(fakeResult);
    const events = await collected;
    expect(events.map((event) => event.type)).toEqual(['turn_started', 'step_started', 'text_delta', 'result']);
    expect(events.at(-1)).toEqual({ type: 'result', result: fakeResult });
    await expect(stream.result).resolves.toBe(fakeResult);
    expect(driver.signal().aborted).toBe(false);
  });

  it('buffers every event when the consumer starts after the turn finished', async () => {
    const driver = manualStart();
    const stream = createTurnStream(undefined, driver.start);
    driver.emit({ type: 'turn_started', turnId: 't' });
    driver.finish(fakeResult);
    await stream.result;
    const events = await collect(stream);
    expect(events.map((event) => event.type)).toEqual(['turn_started', 'result']);
  });

  it('cancels the turn when the consumer leaves the loop early; result still settles', async () => {
    const driver = manualStart();
    const stream = createTurnStream(undefined, driver.start);
    driver.emit({ type: 'turn_started', turnId: 't' });
    driver.emit({ type: 'step_started', iteration: 1 });
    for await (const event of stream) {
      expect(event.type).toBe('turn_started');
      break;
    }
    expect(driver.signal().aborted).toBe(true);
    driver.finish(fakeResult);
    await expect(stream.result).resolves.toBe(fakeResult);
  });

  it('does not cancel when the consumer leaves after the result', async () => {
    const driver = manualStart();
    const stream = createTurnStream(undefined, driver.start);
    driver.finish(fakeResult);
    for await (const event of stream) {
      if (event.type === 'result') break;
    }
    expect(driver.signal().aborted).toBe(false);
  });

  it('forwards a caller abort to the turn signal and detaches once the turn ends', async () => {
    const caller = new AbortController();
    const remove = vi.spyOn(caller.signal, 'removeEventListener');
    const driver = manualStart();
    const stream = createTurnStream(caller.signal, driver.start);
    caller.abort();
    expect(driver.signal().aborted).toBe(true);
    driver.finish(fakeResult);
    await stream.result;
    expect(remove).toHaveBeenCalledWith('abort', expect.any(Function));
  });

  it('starts with an aborted signal when the caller signal is already aborted', () => {
    const caller = new AbortController();
    caller.abort();
    const driver = manualStart();
    createTurnStream(caller.signal, driver.start);
    expect(driver.signal().aborted).toBe(true);
  });

  it('ends the iteration with the error instead of hanging when the turn rejects', async () => {
    const driver = manualStart();
    const caller = new AbortController();
    const remove = vi.spyOn(caller.signal, 'removeEventListener');
    const stream = createTurnStream(caller.signal, driver.start);
    driver.emit({ type: 'turn_started', turnId: 't' });
    const seen: string[] = [];
    const iteration = (async () => {
      for await (const event of stream) seen.push(event.type);
    })();
    driver.fail(new Error('boom'));
    expect(await settledState(iteration)).toBe('rejected');
    await expect(iteration).rejects.toThrow('boom');
    await expect(stream.result).rejects.toThrow('boom');
    expect(seen).toEqual(['turn_started']);
    expect(remove).toHaveBeenCalledWith('abort', expect.any(Function));
  });

  it('wakes a waiting consumer for each event', async () => {
    const driver = manualStart();
    const iterator = createTurnStream(undefined, driver.start)[Symbol.asyncIterator]();
    const first = iterator.next();
    driver.emit({ type: 'turn_started', turnId: 't' });
    await expect(first).resolves.toEqual({ done: false, value: { type: 'turn_started', turnId: 't' } });
    const second = iterator.next();
    driver.finish(fakeResult);
    await expect(second).resolves.toEqual({ done: false, value: { type: 'result', result: fakeResult } });
    await expect(iterator.next()).resolves.toEqual({ done: true, value: undefined });
  });
});
