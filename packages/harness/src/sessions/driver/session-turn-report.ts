import type {
  ExecutionErrorCode,
  ExecutionNegotiationReason,
  ExecutionResult,
  ExecutionTraceEventType,
} from '../../execution/types.js';

/** What one `execute` call of a session backend records for its result: trace events, notes, degradation. */
export class SessionTurnReport {
  /** Non-blocking negotiation reasons, reported as `degradation`. */
  readonly degradation: ExecutionNegotiationReason[] = [];
  private readonly events: { type: ExecutionTraceEventType; at: string; data?: Record<string, unknown> }[] = [];
  private readonly startedMs = Date.now();
  private readonly startedAt = new Date(this.startedMs).toISOString();

  constructor(private readonly backendId: string) {}

  /** Milliseconds from the start of the `execute` call to the first stream event, once there was one. */
  firstEventMs: number | undefined;

  /** Notes the time of the first stream event. */
  sawEvent(): void {
    this.firstEventMs ??= this.elapsedMs();
  }

  /** Milliseconds since the `execute` call began. */
  elapsedMs(): number {
    return Date.now() - this.startedMs;
  }

  /** A `note` trace event. */
  note(message: string): void {
    this.event('note', { message });
  }

  /** A `model_started` trace event (the engine was given work). */
  modelStarted(): void {
    this.event('model_started');
  }

  /** Notes the messages the engine sent that did not validate, when there were any. */
  protocolErrors(invalidMessages: number, invalidUpdates: number): void {
    if (invalidMessages + invalidUpdates === 0) return;
    this.note(`The engine sent ${invalidMessages} invalid message(s) and ${invalidUpdates} invalid update(s); they were ignored.`);
  }

  /** A trace event of any type. */
  event(type: ExecutionTraceEventType, data?: Record<string, unknown>): void {
    this.events.push({ type, at: new Date().toISOString(), ...(data === undefined ? {} : { data }) });
  }

  /** The result, with the trace and degradation attached. `finalEvent` is added to the trace first. */
  result(fields: Omit<ExecutionResult, 'backendId'>, finalEvent?: ExecutionTraceEventType): ExecutionResult {
    if (finalEvent !== undefined) this.event(finalEvent);
    return {
      backendId: this.backendId,
      ...fields,
      trace: { summary: { startedAt: this.startedAt, completedAt: new Date().toISOString(), degraded: this.degradation.length > 0 }, events: [...this.events] },
      ...(this.degradation.length === 0 ? {} : { degradation: [...this.degradation] }),
    };
  }
}

/** A `failed` result. */
export function failedResult(
  report: SessionTurnReport,
  code: ExecutionErrorCode,
  message: string,
  retryable: boolean,
  metadata?: Record<string, unknown>,
): ExecutionResult {
  return report.result({ status: 'failed', error: { code, message, retryable, ...(metadata === undefined ? {} : { metadata }) } }, 'failure');
}
