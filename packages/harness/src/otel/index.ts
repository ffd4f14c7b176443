// OpenTelemetry export of trace events. Calls only the tracer it is given: no `@opentelemetry/api`
// import, so the root entry stays Worker-safe and the API stays an optional peer.
export { createOpenTelemetryTraceSink, type OpenTelemetryTraceSink } from './create-open-telemetry-trace-sink.js';
export type { OpenTelemetryTraceSinkOptions } from './open-telemetry-sink-options.js';
export type {
  OpenTelemetryAttributeValue,
  OpenTelemetryAttributes,
  OpenTelemetryContext,
  OpenTelemetryLink,
  OpenTelemetrySpan,
  OpenTelemetrySpanContext,
  OpenTelemetrySpanOptions,
  OpenTelemetrySpanStatus,
  OpenTelemetryTracer,
} from './open-telemetry-types.js';
