/**
 * Callbacks of signals that fan out through one listener of their own (the harness's turn
 * signals), so watching such a signal costs a `Set` entry instead of an `EventTarget` listener
 * added and removed per model, tool and hook call.
 */
const fanOuts = new WeakMap<AbortSignal, Set<() => void>>();

/** Makes `signal` fan out to callbacks added with {@link watchAbort}; {@link runAbortCallbacks} runs them. */
export function fanOutAbort(signal: AbortSignal): void {
  fanOuts.set(signal, new Set());
}

/** Runs the callbacks of a fan-out signal: call it right after the signal aborts (each runs once, in the order added). */
export function runAbortCallbacks(signal: AbortSignal): void {
  const callbacks = fanOuts.get(signal);
  if (callbacks === undefined) return;
  for (const callback of callbacks) {
    try {
      callback();
    } catch {
      // Like an abort listener that throws: the others still run.
    }
  }
  callbacks.clear();
}

/** Calls `onAbort` once when `signal` aborts, until {@link unwatchAbort} removes it. */
export function watchAbort(signal: AbortSignal, onAbort: () => void): void {
  const callbacks = fanOuts.get(signal);
  if (callbacks === undefined) signal.addEventListener('abort', onAbort, { once: true });
  else callbacks.add(onAbort);
}

/** Stops watching: `onAbort` will not be called for `signal`. */
export function unwatchAbort(signal: AbortSignal, onAbort: () => void): void {
  const callbacks = fanOuts.get(signal);
  if (callbacks === undefined) signal.removeEventListener('abort', onAbort);
  else callbacks.delete(onAbort);
}
