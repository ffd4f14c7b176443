import type { HarnessTraceEvent } from '../core/types/trace.js';
import { limitText } from './describe-content.js';
import { GENAI, HARNESS_ATTRIBUTES as HARNESS, SPAN_KIND, SPAN_STATUS } from './genai-attributes.js';
import type { ResolvedSinkOptions } from './open-telemetry-sink-options.js';
import type { OpenTelemetryLink, OpenTelemetrySpanContext } from './open-telemetry-types.js';
import { closeChildren, MAX_ID_LENGTH, type EventOf, type RunSpans } from './run-spans.js';
import { activeContext, contextWithParent } from './span-parent-context.js';
import { emptyTotals, totalsAttributes } from './span-usage.js';

const MAX_OPEN_RUNS = 4096;
const MAX_PAUSED_RUNS = 1024;
const PAUSED_OUTCOMES = new Set(['needs_clarification', 'awaiting_approval', 'deferred']);

/**
 * The runs a sink has open (by turn id, at most 4096: the oldest is ended when more start) and the
 * span contexts of the latest paused runs (the last 1024), which a resumed run links to.
 */
export class RunSpanRegistry {
  private readonly open = new Map<string, RunSpans>();
  private readonly paused = new Map<string, OpenTelemetrySpanContext>();

  constructor(private readonly settings: ResolvedSinkOptions) {}

  /** Runs `action` on the open run of the event's turn; events of no open run are dropped. */
  withRun(event: HarnessTraceEvent, action: (run: RunSpans) => void): void {
    const run = this.open.get(event.turnId);
    if (run !== undefined) action(run);
  }

  /** The span context of the latest paused run of `turnId`, while remembered. */
  pausedSpanContext(turnId: string): OpenTelemetrySpanContext | undefined {
    return this.paused.get(turnId);
  }

  /** Starts the turn span of a run, ending a run of the same turn still open and the oldest when too many are. */
  startTurn(event: EventOf<'turn_started'>): void {
    const previous = this.open.get(event.turnId);
    if (previous !== undefined) this.endRun(event.turnId, previous, 'superseded');
    while (this.open.size >= MAX_OPEN_RUNS) {
      const [oldestId, oldest] = this.open.entries().next().value as [string, RunSpans];
      this.endRun(oldestId, oldest, 'trace_incomplete');
    }
    const links = event.resumedFrom === undefined ? [] : this.linkToPausedRun(event.turnId, event.resumedFrom);
    const conversationId = event.sessionId ?? event.threadId;
    // The turn's span and its children start from the context active now (the caller's span,
    // baggage), so processors see what the app set; children get the turn span as their parent.
    const active = activeContext();
    const turn = this.settings.tracer.startSpan(this.settings.agentName === undefined ? 'invoke_agent' : `invoke_agent ${this.settings.agentName}`, {
      kind: SPAN_KIND.internal,
      attributes: {
        [GENAI.operationName]: 'invoke_agent',
        [GENAI.agentId]: limitText(event.assistantId, MAX_ID_LENGTH),
        [GENAI.agentName]: this.settings.agentName,
        [GENAI.providerName]: this.settings.provider,
        [GENAI.requestModel]: this.settings.model,
        [GENAI.conversationId]: conversationId === undefined ? undefined : limitText(conversationId, MAX_ID_LENGTH),
        [HARNESS.turnId]: limitText(event.turnId, MAX_ID_LENGTH),
        [HARNESS.resumedFrom]: event.resumedFrom === undefined ? undefined : limitText(event.resumedFrom, MAX_ID_LENGTH),
      },
      links,
    }, active);
    this.open.set(event.turnId, {
      turn,
      context: contextWithParent(turn, active),
      step: undefined,
      tools: new Map(),
      totals: emptyTotals(),
    });
  }

  private linkToPausedRun(turnId: string, continuationId: string): OpenTelemetryLink[] {
    let context = this.paused.get(turnId);
    if (context === undefined && this.settings.resumedFrom !== undefined) {
      try {
        context = this.settings.resumedFrom(turnId, continuationId);
      } catch {
        context = undefined;
      }
    }
    return context === undefined
      ? []
      : [
          {
            context,
            attributes: {
              [HARNESS.resumedFrom]: limitText(continuationId, MAX_ID_LENGTH),
            },
          },
        ];
  }

  /** Ends a run's turn span with its outcome and totals, remembering it when it paused. */
  finishTurn(event: EventOf<'turn_finished'>): void {
    const run = this.open.get(event.turnId);
    if (run === undefined) return;
    this.open.delete(event.turnId);
    closeChildren(run, event.stopReason);
    const { totals } = run;
    run.turn.setAttributes({
      [HARNESS.outcome]: event.outcome,
      [HARNESS.stopReason]: event.stopReason,
      [HARNESS.iteration]: event.iteration,
      [HARNESS.toolCalls]: event.toolCallCount,
      ...totalsAttributes(totals),
    });
    if (event.outcome === 'failed') {
      run.turn.setAttribute(GENAI.errorType, event.stopReason);
      run.turn.setStatus({
        code: SPAN_STATUS.error,
        message: event.stopReason,
      });
    }
    if (PAUSED_OUTCOMES.has(event.outcome)) this.rememberPaused(event.turnId, run.turn.spanContext());
    run.turn.end();
  }

  private rememberPaused(turnId: string, context: OpenTelemetrySpanContext): void {
    this.paused.delete(turnId);
    this.paused.set(turnId, context);
    if (this.paused.size > MAX_PAUSED_RUNS) this.paused.delete(this.paused.keys().next().value as string);
  }

  private endRun(turnId: string, run: RunSpans, reason: string): void {
    this.open.delete(turnId);
    closeChildren(run, reason);
    run.turn.setAttribute(GENAI.errorType, reason);
    run.turn.setStatus({ code: SPAN_STATUS.error, message: reason });
    run.turn.end();
  }
}
