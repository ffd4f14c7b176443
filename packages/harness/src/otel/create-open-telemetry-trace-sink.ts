import type { HarnessTraceEvent, HarnessTraceSink } from '../core/types/trace.js';
import { limitText } from './describe-content.js';
import { GENAI, HARNESS_ATTRIBUTES as HARNESS } from './genai-attributes.js';
import { resolveSinkOptions, type OpenTelemetryTraceSinkOptions } from './open-telemetry-sink-options.js';
import type { OpenTelemetrySpanContext } from './open-telemetry-types.js';
import { RunSpanRegistry } from './run-span-registry.js';
import { finishStep, finishTool, MAX_ID_LENGTH, MAX_NAME_LENGTH, startStep, startTool, type EventOf } from './run-spans.js';
import { addUsage, usageAttributes } from './span-usage.js';

/** A trace sink that turns harness trace events into OpenTelemetry spans. */
export interface OpenTelemetryTraceSink extends HarnessTraceSink {
  /**
   * The span context of the latest run of `turnId` that paused (needs clarification, awaits
   * approval or was deferred), while this sink remembers it (the last 1024 paused turns). Store it
   * beside the continuation to link a resume in another process (see the `resumedFrom` option).
   */
  pausedSpanContext(turnId: string): OpenTelemetrySpanContext | undefined;
}

/**
 * Creates a trace sink that records each turn as OpenTelemetry spans in the GenAI semantic
 * conventions: an `invoke_agent` span per run of a turn, a `chat {model}` child span per model
 * step (token usage, finish reasons) and an `execute_tool {name}` child span per tool call.
 * Failures set span status `ERROR` and `error.type`; the outcome and stop reason are attributes;
 * a resumed run links to the run that paused. Content (tool arguments and results, questions) is
 * recorded only with `captureContent: true`.
 *
 * The sink only calls methods on the tracer you give it; it does not import `@opentelemetry/api`,
 * so it works in Workers and anywhere a tracer exists.
 * @throws HarnessConfigError when the options are invalid (e.g. no tracer).
 * @example
 * ```ts
 * import { trace } from '@opentelemetry/api';
 * const harness = createHarness({
 *   model,
 *   trace: createOpenTelemetryTraceSink({ tracer: trace.getTracer('my-app'), model: 'gpt-4.1-mini', provider: 'openai' }),
 * });
 * ```
 */
export function createOpenTelemetryTraceSink(options: OpenTelemetryTraceSinkOptions): OpenTelemetryTraceSink {
  const settings = resolveSinkOptions(options);
  const runs = new RunSpanRegistry(settings);

  // Events without a handler (added to the harness later) become span events on the turn span.
  const handlers: Partial<{
    [Type in HarnessTraceEvent['type']]: (event: EventOf<Type>) => void;
  }> = {
    turn_started: (event) => runs.startTurn(event),
    model_step_started: (event) => runs.withRun(event, (run) => startStep(settings, run, event)),
    model_step_finished: (event) => runs.withRun(event, (run) => finishStep(settings, run, event)),
    tool_requested: (event) =>
      runs.withRun(event, (run) =>
        run.turn.addEvent('agent_assistant.tool_requested', {
          [GENAI.toolName]: event.calls.map((call) => limitText(call.name, MAX_NAME_LENGTH)),
        }),
      ),
    tool_started: (event) => runs.withRun(event, (run) => startTool(settings, run, event.call.id, event.call.name, event.call.input)),
    tool_finished: (event) => runs.withRun(event, (run) => finishTool(settings, run, event)),
    tool_failed: (event) => runs.withRun(event, (run) => finishTool(settings, run, event)),
    clarification_requested: (event) =>
      runs.withRun(event, (run) =>
        run.turn.addEvent(
          'agent_assistant.clarification_requested',
          settings.captureContent
            ? {
                [HARNESS.question]: limitText(event.question, settings.maxContentLength),
              }
            : {},
        ),
      ),
    approval_requested: (event) =>
      runs.withRun(event, (run) =>
        run.turn.addEvent('agent_assistant.approval_requested', {
          [HARNESS.approvalIds]: event.requests.map((request) => limitText(String(request.id), MAX_ID_LENGTH)),
        }),
      ),
    limit_reached: (event) =>
      runs.withRun(event, (run) =>
        run.turn.addEvent('agent_assistant.limit_reached', {
          [HARNESS.stopReason]: event.stopReason,
        }),
      ),
    // The summary call is a model call of the turn: its usage counts in the turn's totals.
    history_compacted: (event) =>
      runs.withRun(event, (run) => {
        addUsage(run.totals, event.summaryUsage);
        run.turn.addEvent('agent_assistant.history_compacted', {
          [HARNESS.compactionTrigger]: event.trigger,
          [HARNESS.compactionBytesBefore]: event.bytesBefore,
          [HARNESS.compactionBytesAfter]: event.bytesAfter,
          [HARNESS.compactionSummarized]: event.summarized,
          ...usageAttributes(event.summaryUsage),
        });
      }),
    turn_finished: (event) => runs.finishTurn(event),
  };

  return {
    emit(event) {
      const handler = Object.hasOwn(handlers, event.type)
        ? (handlers[event.type] as ((event: HarnessTraceEvent) => void) | undefined)
        : undefined;
      if (handler !== undefined) handler(event);
      else runs.withRun(event, (run) => run.turn.addEvent(`agent_assistant.${limitText(String(event.type), MAX_NAME_LENGTH)}`));
    },
    pausedSpanContext: (turnId) => runs.pausedSpanContext(turnId),
  };
}
