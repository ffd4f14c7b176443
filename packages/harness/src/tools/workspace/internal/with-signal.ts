/** What `withSignal` resolves: the work's value, or that the signal fired first. */
export type SignalOutcome<T> = { aborted: false; value: T } | { aborted: true };

/**
 * Runs `work` and resolves its value, or `{ aborted: true }` as soon as `signal` fires (even if
 * the work never settles). Rejections of `work` propagate. The abort listener is always removed.
 */
export function withSignal<T>(work: () => Promise<T>, signal: AbortSignal): Promise<SignalOutcome<T>> {
  if (signal.aborted) return Promise.resolve({ aborted: true });
  return new Promise<SignalOutcome<T>>((resolve, reject) => {
    const onAbort = () => resolve({ aborted: true });
    signal.addEventListener('abort', onAbort, { once: true });
    let pending: Promise<T>;
    try {
      pending = work();
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve({ aborted: false, value });
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
