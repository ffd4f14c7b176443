import type { HarnessTraceEvent, HarnessTraceSink } from '../core/types/trace.js';
import type { HarnessUsage } from '../shared/types/usage.js';
import { describeContent, limitText } from './describe-content.js';
import { finishReasonOf, GENAI, HARNESS_ATTRIBUTES as HARNESS, SPAN_KIND, SPAN_STATUS } from './genai-attributes.js';
import { resolveSinkOptions, type OpenTelemetryTraceSinkOptions } from './open-telemetry-sink-options.js';
import type { OpenTelemetryAttributes, OpenTelemetryContext, OpenTelemetrySpan, OpenTelemetrySpanContext } from './open-telemetry-types.js';
import { activeContext, contextWithParent } from './span-parent-context.js';

/** A trace sink that turns harness trace events into OpenTelemetry spans. */
export interface OpenTelemetryTraceSink extends HarnessTraceSink {
  /**
   * The span context of the latest run of `turnId` that paused (needs clarification, awaits
   * approval or was deferred), while this sink remembers it (the last 1024 paused turns). Store it
   * beside the continuation to link a resume in another process (see the `resumedFrom` option).
   */
  pausedSpanContext(turnId: string): OpenTelemetrySpanContext | undefined;
}

type EventOf<Type extends HarnessTraceEvent['type']> = Extract<HarnessTraceEvent, { type: Type }>;

interface TurnTotals {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  reasoningTokens: number;
  costUnits: number;
  reported: boolean;
}

interface RunSpans {
  turn: OpenTelemetrySpan;
  context: OpenTelemetryContext;
  step: OpenTelemetrySpan | undefined;
  tools: Map<string, OpenTelemetrySpan>;
  totals: TurnTotals;
}

const MAX_OPEN_RUNS = 4096;
const MAX_PAUSED_RUNS = 1024;
const MAX_NAME_LENGTH = 128;
const MAX_ID_LENGTH = 256;
const PAUSED_OUTCOMES = new Set(['needs_clarification', 'awaiting_approval', 'deferred']);

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
  const open = new Map<string, RunSpans>();
  const paused = new Map<string, OpenTelemetrySpanContext>();

  // Events without a handler (added to the harness later) become span events on the turn span.
  const handlers: Partial<{
    [Type in HarnessTraceEvent['type']]: (event: EventOf<Type>) => void;
  }> = {
    turn_started: (event) => startTurn(event),
    model_step_started: (event) => withRun(event, (run) => startStep(run, event)),
    model_step_finished: (event) => withRun(event, (run) => finishStep(run, event)),
    tool_requested: (event) =>
      withRun(event, (run) =>
        run.turn.addEvent('agent_assistant.tool_requested', {
          [GENAI.toolName]: event.calls.map((call) => limitText(call.name, MAX_NAME_LENGTH)),
        }),
      ),
    tool_started: (event) => withRun(event, (run) => startTool(run, event.call.id, event.call.name, event.call.input)),
    tool_finished: (event) => withRun(event, (run) => finishTool(run, event)),
    tool_failed: (event) => withRun(event, (run) => finishTool(run, event)),
    clarification_requested: (event) =>
      withRun(event, (run) =>
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
      withRun(event, (run) =>
        run.turn.addEvent('agent_assistant.approval_requested', {
          [HARNESS.approvalIds]: event.requests.map((request) => limitText(String(request.id), MAX_ID_LENGTH)),
        }),
      ),
    limit_reached: (event) =>
      withRun(event, (run) =>
        run.turn.addEvent('agent_assistant.limit_reached', {
          [HARNESS.stopReason]: event.stopReason,
        }),
      ),
    // The summary call is a model call of the turn: its usage counts in the turn's totals.
    history_compacted: (event) =>
      withRun(event, (run) => {
        addUsage(run.totals, event.summaryUsage);
        run.turn.addEvent('agent_assistant.history_compacted', {
          [HARNESS.compactionTrigger]: event.trigger,
          [HARNESS.compactionBytesBefore]: event.bytesBefore,
          [HARNESS.compactionBytesAfter]: event.bytesAfter,
          [HARNESS.compactionSummarized]: event.summarized,
          ...usageAttributes(event.summaryUsage),
        });
      }),
    turn_finished: (event) => finishTurn(event),
  };

  function withRun(event: HarnessTraceEvent, action: (run: RunSpans) => void): void {
    const run = open.get(event.turnId);
    if (run !== undefined) action(run);
  }

  function startTurn(event: EventOf<'turn_started'>): void {
    const previous = open.get(event.turnId);
    if (previous !== undefined) endRun(event.turnId, previous, 'superseded');
    while (open.size >= MAX_OPEN_RUNS) {
      const [oldestId, oldest] = open.entries().next().value as [string, RunSpans];
      endRun(oldestId, oldest, 'trace_incomplete');
    }
    const links = event.resumedFrom === undefined ? [] : linkToPausedRun(event.turnId, event.resumedFrom);
    const conversationId = event.sessionId ?? event.threadId;
    // The turn's span and its children start from the context active now (the caller's span,
    // baggage), so processors see what the app set; children get the turn span as their parent.
    const active = activeContext();
    const turn = settings.tracer.startSpan(
      settings.agentName === undefined ? 'invoke_agent' : `invoke_agent ${settings.agentName}`,
      {
        kind: SPAN_KIND.internal,
        attributes: {
          [GENAI.operationName]: 'invoke_agent',
          [GENAI.agentId]: limitText(event.assistantId, MAX_ID_LENGTH),
          [GENAI.agentName]: settings.agentName,
          [GENAI.providerName]: settings.provider,
          [GENAI.requestModel]: settings.model,
          [GENAI.conversationId]: conversationId === undefined ? undefined : limitText(conversationId, MAX_ID_LENGTH),
          [HARNESS.turnId]: limitText(event.turnId, MAX_ID_LENGTH),
          [HARNESS.resumedFrom]: event.resumedFrom === undefined ? undefined : limitText(event.resumedFrom, MAX_ID_LENGTH),
        },
        links,
      },
      active,
    );
    open.set(event.turnId, {
      turn,
      context: contextWithParent(turn, active),
      step: undefined,
      tools: new Map(),
      totals: {
        inputTokens: 0,
        outputTokens: 0,
        cachedInputTokens: 0,
        reasoningTokens: 0,
        costUnits: 0,
        reported: false,
      },
    });
  }

  function linkToPausedRun(turnId: string, continuationId: string) {
    let context = paused.get(turnId);
    if (context === undefined && settings.resumedFrom !== undefined) {
      try {
        context = settings.resumedFrom(turnId, continuationId);
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

  function startStep(run: RunSpans, event: HarnessTraceEvent): OpenTelemetrySpan {
    run.step?.end();
    const step = settings.tracer.startSpan(
      settings.model === undefined ? 'chat' : `chat ${settings.model}`,
      {
        kind: SPAN_KIND.client,
        attributes: {
          [GENAI.operationName]: 'chat',
          [GENAI.providerName]: settings.provider,
          [GENAI.requestModel]: settings.model,
          [GENAI.conversationId]: conversationOf(event),
          [HARNESS.iteration]: event.iteration,
        },
      },
      run.context,
    );
    run.step = step;
    return step;
  }

  function finishStep(run: RunSpans, event: EventOf<'model_step_finished'>): void {
    const step = run.step ?? startStep(run, event);
    run.step = undefined;
    step.setAttributes({
      [GENAI.finishReasons]: [finishReasonOf(event.outputType)],
      [HARNESS.outputType]: event.outputType,
      ...usageAttributes(event.usage),
    });
    addUsage(run.totals, event.usage);
    if (event.outputType === 'invalid') {
      const kind = event.invalidKind ?? 'invalid_output';
      step.setAttribute(GENAI.errorType, kind);
      step.setStatus({ code: SPAN_STATUS.error, message: kind });
    }
    step.end();
  }

  function startTool(run: RunSpans, callId: string, name: string, input: unknown): OpenTelemetrySpan {
    const toolName = limitText(name, MAX_NAME_LENGTH);
    run.tools.get(callId)?.end();
    const span = settings.tracer.startSpan(
      `execute_tool ${toolName}`,
      {
        kind: SPAN_KIND.internal,
        attributes: {
          [GENAI.operationName]: 'execute_tool',
          [GENAI.toolName]: toolName,
          [GENAI.toolCallId]: limitText(callId, MAX_ID_LENGTH),
          [GENAI.toolType]: 'function',
          [GENAI.toolCallArguments]: settings.captureContent ? describeContent(input, settings.maxContentLength) : undefined,
        },
      },
      run.context,
    );
    run.tools.set(callId, span);
    return span;
  }

  function finishTool(run: RunSpans, event: EventOf<'tool_finished' | 'tool_failed'>): void {
    const { result } = event;
    const span = run.tools.get(result.callId) ?? startTool(run, result.callId, result.toolName, undefined);
    run.tools.delete(result.callId);
    span.setAttribute(HARNESS.toolStatus, result.status);
    if (settings.captureContent) {
      const content = result.output ?? result.structuredOutput ?? result.error?.message;
      if (content !== undefined) span.setAttribute(GENAI.toolCallResult, describeContent(content, settings.maxContentLength));
    }
    if (result.status === 'error') {
      const code = limitText(result.error?.code ?? 'tool_error', MAX_ID_LENGTH);
      span.setAttribute(GENAI.errorType, code);
      const message =
        settings.captureContent && result.error !== undefined ? limitText(result.error.message, settings.maxContentLength) : code;
      span.setStatus({ code: SPAN_STATUS.error, message });
    }
    span.end();
  }

  function finishTurn(event: EventOf<'turn_finished'>): void {
    const run = open.get(event.turnId);
    if (run === undefined) return;
    open.delete(event.turnId);
    closeChildren(run, event.stopReason);
    const { totals } = run;
    run.turn.setAttributes({
      [HARNESS.outcome]: event.outcome,
      [HARNESS.stopReason]: event.stopReason,
      [HARNESS.iteration]: event.iteration,
      [HARNESS.toolCalls]: event.toolCallCount,
      ...(totals.reported
        ? {
            [GENAI.inputTokens]: totals.inputTokens,
            [GENAI.outputTokens]: totals.outputTokens,
            [GENAI.cacheReadInputTokens]: totals.cachedInputTokens,
            [HARNESS.reasoningTokens]: totals.reasoningTokens,
            [HARNESS.costUnits]: totals.costUnits,
          }
        : {}),
    });
    if (event.outcome === 'failed') {
      run.turn.setAttribute(GENAI.errorType, event.stopReason);
      run.turn.setStatus({
        code: SPAN_STATUS.error,
        message: event.stopReason,
      });
    }
    if (PAUSED_OUTCOMES.has(event.outcome)) rememberPaused(event.turnId, run.turn.spanContext());
    run.turn.end();
  }

  function rememberPaused(turnId: string, context: OpenTelemetrySpanContext): void {
    paused.delete(turnId);
    paused.set(turnId, context);
    if (paused.size > MAX_PAUSED_RUNS) paused.delete(paused.keys().next().value as string);
  }

  function endRun(turnId: string, run: RunSpans, reason: string): void {
    open.delete(turnId);
    closeChildren(run, reason);
    run.turn.setAttribute(GENAI.errorType, reason);
    run.turn.setStatus({ code: SPAN_STATUS.error, message: reason });
    run.turn.end();
  }

  return {
    emit(event) {
      const handler = Object.hasOwn(handlers, event.type)
        ? (handlers[event.type] as ((event: HarnessTraceEvent) => void) | undefined)
        : undefined;
      if (handler !== undefined) handler(event);
      else withRun(event, (run) => run.turn.addEvent(`agent_assistant.${limitText(String(event.type), MAX_NAME_LENGTH)}`));
    },
    pausedSpanContext: (turnId) => paused.get(turnId),
  };
}

/** Ends the open step and tool spans of a run that is ending, marked with why. */
function closeChildren(run: RunSpans, reason: string): void {
  const children = [...(run.step === undefined ? [] : [run.step]), ...run.tools.values()];
  run.step = undefined;
  run.tools.clear();
  for (const span of children) {
    span.setAttribute(GENAI.errorType, reason);
    span.setStatus({ code: SPAN_STATUS.error, message: reason });
    span.end();
  }
}

function conversationOf(event: HarnessTraceEvent): string | undefined {
  const id = event.sessionId ?? event.threadId;
  return id === undefined ? undefined : limitText(id, MAX_ID_LENGTH);
}

function usageAttributes(usage: HarnessUsage | undefined): OpenTelemetryAttributes {
  if (usage === undefined) return {};
  return {
    [GENAI.inputTokens]: finite(usage.inputTokens),
    [GENAI.outputTokens]: finite(usage.outputTokens),
    [GENAI.cacheReadInputTokens]: finite(usage.cachedInputTokens),
    [HARNESS.reasoningTokens]: finite(usage.reasoningTokens),
    [HARNESS.costUnits]: finite(usage.costUnits),
  };
}

function addUsage(totals: TurnTotals, usage: HarnessUsage | undefined): void {
  if (usage === undefined) return;
  totals.reported = true;
  totals.inputTokens += finite(usage.inputTokens) ?? 0;
  totals.outputTokens += finite(usage.outputTokens) ?? 0;
  totals.cachedInputTokens += finite(usage.cachedInputTokens) ?? 0;
  totals.reasoningTokens += finite(usage.reasoningTokens) ?? 0;
  totals.costUnits += finite(usage.costUnits) ?? 0;
}

function finite(value: number | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
