import type { HarnessResult } from '../types/result.js';
import type { HarnessStreamEvent, HarnessTurnStream } from '../types/runtime.js';

/**
 * Starts a turn at once and exposes its events as an async iterable (buffered, single consumer).
 * Leaving the loop early (`break`) cancels the turn; `result` still settles.
 */
export function createTurnStream(
  signal: AbortSignal | undefined,
  start: (onEvent: (event: HarnessStreamEvent) => void, signal: AbortSignal) => Promise<HarnessResult>,
): HarnessTurnStream {
  const controller = new AbortController();
  const onCallerAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener('abort', onCallerAbort, { once: true });

  const queue: HarnessStreamEvent[] = [];
  let wake: (() => void) | undefined;
  let finished = false;
  let failure: { error: unknown } | undefined;
  const push = (event: HarnessStreamEvent) => {
    queue.push(event);
    wake?.();
  };
  const result = start(push, controller.signal).then(
    (value) => {
      signal?.removeEventListener('abort', onCallerAbort);
      push({ type: 'result', result: value });
      finished = true;
      wake?.();
      return value;
    },
    (error: unknown) => {
      // Only reachable through a harness bug; end the iteration with the error rather than hang.
      signal?.removeEventListener('abort', onCallerAbort);
      failure = { error };
      finished = true;
      wake?.();
      throw error;
    },
  );
  result.catch(() => undefined);

  return {
    result,
    [Symbol.asyncIterator](): AsyncIterator<HarnessStreamEvent> {
      let closed = false;
      return {
        async next() {
          for (;;) {
            if (closed) return { done: true, value: undefined };
            const event = queue.shift();
            if (event !== undefined) {
              if (event.type === 'result') closed = true;
              return { done: false, value: event };
            }
            if (failure !== undefined) {
              closed = true;
              throw failure.error;
            }
            if (finished) return { done: true, value: undefined };
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
            wake = undefined;
          }
        },
        async return() {
          closed = true;
          if (!finished) controller.abort();
          return { done: true, value: undefined };
        },
      };
    },
  };
}
