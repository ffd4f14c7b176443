import { turnIdentity, type TurnIdentity } from '../../shared/turn-identity.js';
import type { HarnessClock } from '../types/config.js';
import type { HarnessStreamEvent } from '../types/runtime.js';
import type { HarnessBaseTraceEvent, HarnessTraceEvent, HarnessTraceSink } from '../types/trace.js';

/** An event minus the fields the emitter fills in. */
export type TraceEventBody = HarnessTraceEvent extends infer Event
  ? Event extends HarnessTraceEvent
    ? Omit<Event, keyof HarnessBaseTraceEvent>
    : never
  : never;

/** Identity of the run, stamped on every event. */
export type TraceIdentity = TurnIdentity;

/** Counters read at emit time. */
export interface TraceCounters {
  iteration: number;
  toolCallCount: number;
  startedAt: number;
}

/** Delivers trace events to the sink without ever letting the sink affect the turn. */
export class TraceEmitter {
  lastEventType = 'none';
  sinkErrors = 0;
  /** Stamped on every event; made only when there is a sink. */
  private readonly identity: TraceIdentity | undefined;

  constructor(
    private readonly sink: HarnessTraceSink | undefined,
    private readonly clock: HarnessClock,
    input: TraceIdentity,
    private readonly counters: TraceCounters,
    readonly onStreamEvent?: (event: HarnessStreamEvent) => void,
    /** Steps taken before a resume, so event iterations match the transcript's numbering. */
    private readonly iterationOffset = 0,
  ) {
    this.identity = sink === undefined ? undefined : turnIdentity(input);
  }

  emit(body: TraceEventBody): void {
    if (body.type !== 'turn_finished') this.lastEventType = body.type;
    if (this.sink === undefined) return;
    const now = this.clock.now();
    const event = Object.assign(
      {
        timestamp: new Date(now).toISOString(),
        iteration: this.iterationOffset + this.counters.iteration,
        toolCallCount: this.counters.toolCallCount,
        elapsedMs: Math.max(0, now - this.counters.startedAt),
      },
      this.identity,
      body,
    ) as HarnessTraceEvent;
    this.deliver(this.sink, event);
  }

  /** Sends an event made elsewhere (a nested turn's) to the sink, as it is. */
  forward(event: { type: string; turnId: string }): void {
    if (this.sink !== undefined) this.deliver(this.sink, event as HarnessTraceEvent);
  }

  stream(event: HarnessStreamEvent): void {
    this.onStreamEvent?.(event);
  }

  private deliver(sink: HarnessTraceSink, event: HarnessTraceEvent): void {
    try {
      const pending = sink.emit(event);
      if (pending !== undefined && typeof (pending as PromiseLike<void>).then === 'function') {
        (pending as Promise<void>).then(undefined, () => {
          this.sinkErrors += 1;
        });
      }
    } catch {
      this.sinkErrors += 1;
    }
  }
}
