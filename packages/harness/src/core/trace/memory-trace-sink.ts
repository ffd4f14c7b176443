import type { HarnessTraceEvent, HarnessTraceEventType, HarnessTraceSink } from '../types/trace.js';

/** A trace sink that keeps events in memory, for tests and debugging. */
export interface MemoryTraceSink extends HarnessTraceSink {
  /** Every event received, in order. */
  readonly events: HarnessTraceEvent[];
  /** The event types received, in order. */
  types(): HarnessTraceEventType[];
  /** Forgets all events. */
  clear(): void;
}

/**
 * Creates a sink that records every event in `events`.
 * @example
 * ```ts
 * const trace = memoryTraceSink();
 * await createHarness({ model, trace }).runTurn(input);
 * console.log(trace.types());
 * ```
 */
export function memoryTraceSink(): MemoryTraceSink {
  const events: HarnessTraceEvent[] = [];
  return {
    events,
    emit(event) {
      events.push(event);
    },
    types() {
      return events.map((event) => event.type);
    },
    clear() {
      events.length = 0;
    },
  };
}
