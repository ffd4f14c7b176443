import type { HarnessTraceEvent } from '../core/types/trace.js';
import { describeContent, limitText } from './describe-content.js';
import { finishReasonOf, GENAI, HARNESS_ATTRIBUTES as HARNESS, SPAN_KIND, SPAN_STATUS } from './genai-attributes.js';
import type { ResolvedSinkOptions } from './open-telemetry-sink-options.js';
import type { OpenTelemetryContext, OpenTelemetrySpan } from './open-telemetry-types.js';
import { addUsage, usageAttributes, type TurnTotals } from './span-usage.js';

/** A trace event of one type. */
export type EventOf<Type extends HarnessTraceEvent['type']> = Extract<HarnessTraceEvent, { type: Type }>;

export const MAX_NAME_LENGTH = 128;
export const MAX_ID_LENGTH = 256;

/** The open spans of one run of a turn: the turn span, its open step and tool spans, and its totals. */
export interface RunSpans {
  turn: OpenTelemetrySpan;
  context: OpenTelemetryContext;
  step: OpenTelemetrySpan | undefined;
  tools: Map<string, OpenTelemetrySpan>;
  totals: TurnTotals;
}

/** Starts a `chat {model}` span for a model step, ending a step span still open. */
export function startStep(settings: ResolvedSinkOptions, run: RunSpans, event: HarnessTraceEvent): OpenTelemetrySpan {
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

/** Ends the step's span with its finish reason and usage (starting one if the start was missed). */
export function finishStep(settings: ResolvedSinkOptions, run: RunSpans, event: EventOf<'model_step_finished'>): void {
  const step = run.step ?? startStep(settings, run, event);
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

/** Starts an `execute_tool {name}` span for a tool call, ending one still open for the same call id. */
export function startTool(settings: ResolvedSinkOptions, run: RunSpans, callId: string, name: string, input: unknown): OpenTelemetrySpan {
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

/** Ends a tool call's span with its status (and result, with `captureContent`). */
export function finishTool(settings: ResolvedSinkOptions, run: RunSpans, event: EventOf<'tool_finished' | 'tool_failed'>): void {
  const { result } = event;
  const span = run.tools.get(result.callId) ?? startTool(settings, run, result.callId, result.toolName, undefined);
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

/** Ends the open step and tool spans of a run that is ending, marked with why. */
export function closeChildren(run: RunSpans, reason: string): void {
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
