/**
 * The small part of the `@opentelemetry/api` surface the trace sink calls, written out
 * structurally so the main entry neither imports nor type-references `@opentelemetry/api`: a
 * `Tracer` from any `@opentelemetry/api` 1.x (`trace.getTracer(...)`) fits these shapes.
 */

/** A span attribute value, as OpenTelemetry accepts it. */
export type OpenTelemetryAttributeValue = string | number | boolean | string[] | number[] | boolean[];

/** Span attributes. */
export interface OpenTelemetryAttributes {
  [key: string]: OpenTelemetryAttributeValue | undefined;
}

/** Identifies a span (OpenTelemetry `SpanContext`). */
export interface OpenTelemetrySpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  isRemote?: boolean | undefined;
}

/** A link from a span to another span (OpenTelemetry `Link`). */
export interface OpenTelemetryLink {
  context: OpenTelemetrySpanContext;
  attributes?: OpenTelemetryAttributes | undefined;
}

/** An OpenTelemetry `Context`: an immutable map keyed by symbols. */
export interface OpenTelemetryContext {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): OpenTelemetryContext;
  deleteValue(key: symbol): OpenTelemetryContext;
}

/** Options of `Tracer.startSpan` that the sink uses. `kind` is `SpanKind` (0 internal, 2 client). */
export interface OpenTelemetrySpanOptions {
  kind?: number | undefined;
  attributes?: OpenTelemetryAttributes | undefined;
  links?: OpenTelemetryLink[] | undefined;
}

/** A span status. `code` is `SpanStatusCode` (0 unset, 1 ok, 2 error). */
export interface OpenTelemetrySpanStatus {
  code: number;
  message?: string | undefined;
}

/** The methods of an OpenTelemetry `Span` the sink calls. */
export interface OpenTelemetrySpan {
  spanContext(): OpenTelemetrySpanContext;
  setAttribute(key: string, value: OpenTelemetryAttributeValue): unknown;
  setAttributes(attributes: OpenTelemetryAttributes): unknown;
  addEvent(name: string, attributes?: OpenTelemetryAttributes): unknown;
  setStatus(status: OpenTelemetrySpanStatus): unknown;
  updateName(name: string): unknown;
  end(): void;
}

/** The method of an OpenTelemetry `Tracer` the sink calls. */
export interface OpenTelemetryTracer {
  startSpan(name: string, options?: OpenTelemetrySpanOptions, context?: OpenTelemetryContext): OpenTelemetrySpan;
}
