import { unwatchAbort, watchAbort } from '../../shared/watch-abort.js';

/** An `AbortController` that also aborts when a parent signal does, detachable with `dispose`. */
export interface LinkedAbort {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
  /** Detaches from the parent. Call when the work is done. */
  dispose(): void;
}

/** Creates a controller linked to `parent` (if any). */
export function linkAbortSignal(parent: AbortSignal | undefined): LinkedAbort {
  const controller = new AbortController();
  const onAbort = () => controller.abort(parent?.reason);
  if (parent?.aborted) controller.abort(parent.reason);
  else if (parent !== undefined) watchAbort(parent, onAbort);
  return {
    signal: controller.signal,
    abort: (reason) => controller.abort(reason),
    dispose: () => {
      if (parent !== undefined) unwatchAbort(parent, onAbort);
    },
  };
}

/**
 * Waits `ms` milliseconds unless `signal` fires first. Resolves `true` when the time passed and
 * `false` when aborted; never rejects, and leaves no timer behind.
 */
export function abortableDelay(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
