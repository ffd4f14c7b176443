import type { OpenTelemetryContext, OpenTelemetrySpan } from './open-telemetry-types.js';

/**
 * The key under which `@opentelemetry/api` keeps the active span in a `Context`: it is made with
 * `Symbol.for`, so the same symbol is reachable without importing the API at run time.
 */
const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');

/** An immutable OpenTelemetry `Context` (same contract as the API's `BaseContext`). */
class SinkContext implements OpenTelemetryContext {
  constructor(private readonly values: ReadonlyMap<symbol, unknown>) {}

  getValue(key: symbol): unknown {
    return this.values.get(key);
  }

  setValue(key: symbol, value: unknown): OpenTelemetryContext {
    return new SinkContext(new Map(this.values).set(key, value));
  }

  deleteValue(key: symbol): OpenTelemetryContext {
    const values = new Map(this.values);
    values.delete(key);
    return new SinkContext(values);
  }
}

/** A context whose active span is `parent`, so spans started with it become its children. */
export function contextWithParent(parent: OpenTelemetrySpan): OpenTelemetryContext {
  return new SinkContext(new Map([[SPAN_KEY, parent]]));
}
