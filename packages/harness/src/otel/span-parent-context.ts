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

/**
 * Where `@opentelemetry/api` 1.x registers its globals (`context` is the context manager set with
 * `context.setGlobalContextManager`): `Symbol.for`, like the API's own lookup across copies.
 */
const API_GLOBAL_KEY = Symbol.for('opentelemetry.js.api.1');

/**
 * The active OpenTelemetry context (what the API's `context.active()` returns: baggage, the
 * caller's span, whatever the app set), or `undefined` when no context manager is registered or it
 * misbehaves.
 */
export function activeContext(): OpenTelemetryContext | undefined {
  try {
    const api = (globalThis as Record<symbol, { context?: { active?: unknown } } | undefined>)[API_GLOBAL_KEY];
    const manager = api?.context;
    const active: unknown = typeof manager?.active === 'function' ? (manager.active as () => unknown).call(manager) : undefined;
    const candidate = active as Partial<OpenTelemetryContext> | null | undefined;
    return typeof candidate?.getValue === 'function' && typeof candidate.setValue === 'function' && typeof candidate.deleteValue === 'function'
      ? (candidate as OpenTelemetryContext)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A context whose active span is `parent`, so spans started with it become its children: `base`
 * (the active context when the turn started) with the span set, so baggage and every other value
 * span processors read stay; a context holding only the span when there is no base.
 */
export function contextWithParent(parent: OpenTelemetrySpan, base: OpenTelemetryContext | undefined): OpenTelemetryContext {
  if (base !== undefined) {
    try {
      return base.setValue(SPAN_KEY, parent);
    } catch {
      // A context that cannot be extended: fall back to one holding only the span.
    }
  }
  return new SinkContext(new Map([[SPAN_KEY, parent]]));
}
