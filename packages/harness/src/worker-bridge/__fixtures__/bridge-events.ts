// Collects a bridge's events and lets a test wait for one (no sleeps).
import type { RelayWorkerBridgeEvent } from '../relay-worker-bridge-options.js';

/** An `onEvent` sink with a wait. */
export function eventLog() {
  const events: RelayWorkerBridgeEvent[] = [];
  const waiters: { match: (event: RelayWorkerBridgeEvent) => boolean; resolve: (event: RelayWorkerBridgeEvent) => void }[] = [];
  return {
    events,
    onEvent(event: RelayWorkerBridgeEvent) {
      events.push(event);
      for (const waiter of [...waiters]) {
        if (waiter.match(event)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(event);
        }
      }
    },
    /** Resolves with the first event (already seen or later) that matches. */
    waitFor<T extends RelayWorkerBridgeEvent['type']>(
      type: T,
      match: (event: Extract<RelayWorkerBridgeEvent, { type: T }>) => boolean = () => true,
    ): Promise<Extract<RelayWorkerBridgeEvent, { type: T }>> {
      const test = (event: RelayWorkerBridgeEvent) => event.type === type && match(event as Extract<RelayWorkerBridgeEvent, { type: T }>);
      const seen = events.find(test);
      if (seen !== undefined) return Promise.resolve(seen as Extract<RelayWorkerBridgeEvent, { type: T }>);
      return new Promise((resolve) => waiters.push({ match: test, resolve: resolve as (event: RelayWorkerBridgeEvent) => void }));
    },
    /** Resolves once `n` events of `type` were seen. */
    waitForCount(type: RelayWorkerBridgeEvent['type'], n: number): Promise<void> {
      let seen = events.filter((event) => event.type === type).length;
      if (seen >= n) return Promise.resolve();
      return new Promise((resolve) =>
        waiters.push({
          match: (event) => event.type === type && ++seen >= n,
          resolve: () => resolve(),
        }),
      );
    },
    count(type: RelayWorkerBridgeEvent['type']) {
      return events.filter((event) => event.type === type).length;
    },
  };
}
