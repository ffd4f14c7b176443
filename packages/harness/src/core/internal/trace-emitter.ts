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
export interface TraceIdentity {
  assistantId: string;
  turnId: string;
  workspaceId?: string;
  sessionId?: string;
  userId?: string;
  threadId?: string;
}

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
  private readonly onSinkError = () => {
    this.sinkErrors += 1;
  };

  constructor(
    private readonly sink: HarnessTraceSink | undefined,
    private readonly clock: HarnessClock,
    private readonly identity: TraceIdentity,
    private readonly counters: TraceCounters,
    readonly onStreamEvent?: (event: HarnessStreamEvent) => void,
    /** Steps taken before a resume, so event iterations match the transcript's numbering. */
    private readonly iterationOffset = 0,
  ) {}

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
    try {
      const pending = this.sink.emit(event);
      if (pending !== undefined && typeof (pending as PromiseLike<void>).then === 'function') {
        (pending as Promise<void>).then(undefined, this.onSinkError);
      }
    } catch {
      this.sinkErrors += 1;
    }
  }

  /** Sends an event made elsewhere (a nested turn's) to the sink, as it is. */
  forward(event: { type: string; turnId: string }): void {
    if (this.sink === undefined) return;
    try {
      const pending = this.sink.emit(event as HarnessTraceEvent);
      if (pending !== undefined && typeof (pending as PromiseLike<void>).then === 'function') {
        (pending as Promise<void>).then(undefined, this.onSinkError);
      }
    } catch {
      this.sinkErrors += 1;
    }
  }

  stream(event: HarnessStreamEvent): void {
    this.onStreamEvent?.(event);
  }
}
