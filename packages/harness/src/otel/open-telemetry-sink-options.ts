import * as v from '../shared/validation/index.js';
import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import { formatIssues } from '../shared/schemas/format-issues.js';
import { lazySchema } from '../shared/schemas/lazy-schema.js';
import type { OpenTelemetrySpanContext, OpenTelemetryTracer } from './open-telemetry-types.js';

/** Options of `createOpenTelemetryTraceSink`. */
export interface OpenTelemetryTraceSinkOptions {
  /** Where spans go: `trace.getTracer('my-app')` from `@opentelemetry/api`. */
  tracer: OpenTelemetryTracer;
  /**
   * Record content: tool call arguments and results (`gen_ai.tool.call.arguments`,
   * `gen_ai.tool.call.result`), clarification questions and tool error messages. They can hold
   * personal data or secrets a tool handled, so they are left out unless you opt in.
   * @default false
   */
  captureContent?: boolean | undefined;
  /**
   * Longest content value recorded, in characters; longer ones are cut and marked `…[truncated]`.
   * @default 8192
   */
  maxContentLength?: number | undefined;
  /** `gen_ai.agent.name`, also in the span name `invoke_agent {agentName}`. */
  agentName?: string | undefined;
  /** `gen_ai.request.model`, also in the span name `chat {model}`. Trace events do not carry it. */
  model?: string | undefined;
  /** `gen_ai.provider.name`, e.g. `openai`, `anthropic`, `gcp.gemini`. */
  provider?: string | undefined;
  /**
   * Span context of the run a resumed turn continues, when it ran in another process. Store
   * `sink.pausedSpanContext(turnId)` beside the continuation and return it here; the resumed
   * `invoke_agent` span links to it. Within one process the sink links on its own.
   */
  resumedFrom?: ((turnId: string, continuationId: string) => OpenTelemetrySpanContext | undefined) | undefined;
}

const optionsSchema = /* @__PURE__ */ lazySchema(() =>
  v.object({
    tracer: v.custom<OpenTelemetryTracer>(
      (value) => typeof value === 'object' && value !== null && typeof (value as { startSpan?: unknown }).startSpan === 'function',
      { message: 'expected an OpenTelemetry Tracer (an object with startSpan)' },
    ),
    captureContent: v.optional(v.boolean()),
    maxContentLength: v.optional(v.int().check(v.gte(0), v.lte(1_048_576))),
    agentName: v.optional(v.string().check(v.maxLength(256))),
    model: v.optional(v.string().check(v.maxLength(256))),
    provider: v.optional(v.string().check(v.maxLength(256))),
    resumedFrom: v.optional(v.custom<NonNullable<OpenTelemetryTraceSinkOptions['resumedFrom']>>((value) => typeof value === 'function')),
  }),
);

/** Resolved options. */
export interface ResolvedSinkOptions {
  tracer: OpenTelemetryTracer;
  captureContent: boolean;
  maxContentLength: number;
  agentName: string | undefined;
  model: string | undefined;
  provider: string | undefined;
  resumedFrom: OpenTelemetryTraceSinkOptions['resumedFrom'];
}

/**
 * Checks the sink's options.
 * @throws HarnessConfigError naming the bad option.
 */
export function resolveSinkOptions(options: unknown): ResolvedSinkOptions {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    const path = parsed.error.issues[0]?.path.map(String).join('.') ?? '';
    throw new HarnessConfigError(`Invalid createOpenTelemetryTraceSink options: ${formatIssues(parsed.error.issues)}.`, {
      ...(path === '' ? {} : { field: path }),
    });
  }
  const value = parsed.data;
  return {
    tracer: value.tracer,
    captureContent: value.captureContent ?? false,
    maxContentLength: value.maxContentLength ?? 8192,
    agentName: value.agentName,
    model: value.model,
    provider: value.provider,
    resumedFrom: value.resumedFrom,
  };
}
