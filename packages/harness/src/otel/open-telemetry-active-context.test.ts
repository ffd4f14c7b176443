// The sink's spans start from the context the app made active (baggage, its own span), as a span
// processor sees it in onStart: child spans too, not only the turn span. A context manager on
// AsyncLocalStorage (what @opentelemetry/context-async-hooks does) makes contexts active.
import { AsyncLocalStorage } from 'node:async_hooks';
import { context, propagation, ROOT_CONTEXT, trace, type Context, type ContextManager } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type Span, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import { createFakeToolRegistry } from '../testing/fake-tool-registry.js';
import { createScriptedModel } from '../testing/scripted-model.js';
import { createTurnInput } from '../testing/create-turn-input.js';
import { createOpenTelemetryTraceSink } from './index.js';

class AsyncLocalContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(active: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return this.storage.run(active, () => fn.apply(thisArg, args));
  }
  bind<T>(_context: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.storage.disable();
    return this;
  }
}

/** What each span's parent context carried when the span started (`SpanProcessor.onStart`). */
const tenantAtStart = new Map<string, string | undefined>();
const baggageReader: SpanProcessor = {
  onStart: (span: Span, parentContext: Context) => {
    tenantAtStart.set(span.name, propagation.getBaggage(parentContext)?.getEntry('tenant')?.value);
  },
  onEnd: () => undefined,
  forceFlush: async () => undefined,
  shutdown: async () => undefined,
};
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [baggageReader, new SimpleSpanProcessor(exporter)] });

beforeAll(() => {
  expect(context.setGlobalContextManager(new AsyncLocalContextManager())).toBe(true);
});
afterAll(() => {
  context.disable();
});

describe('the OpenTelemetry sink and the active context', () => {
  it('starts every span — turn, model steps, tools — from the active context: baggage kept, the app span the parent', async () => {
    const tracer = provider.getTracer('active-context-test');
    const harness = createHarness({
      model: createScriptedModel([
        { type: 'tool_request', calls: [{ id: 'call-1', name: 'lookup', input: {} }] },
        { type: 'final_answer', text: 'Done.' },
      ]),
      tools: createFakeToolRegistry({ lookup: () => 'found' }),
      trace: createOpenTelemetryTraceSink({ tracer, model: 'm' }),
    });
    const request = tracer.startSpan('POST /chat');
    const withBaggage = propagation.setBaggage(trace.setSpan(context.active(), request), propagation.createBaggage({ tenant: { value: 'acme' } }));
    const result = await context.with(withBaggage, () => harness.runTurn(createTurnInput()));
    request.end();
    expect(result.outcome).toBe('completed');

    expect(Object.fromEntries(tenantAtStart)).toEqual({
      'POST /chat': undefined,
      invoke_agent: 'acme',
      'chat m': 'acme',
      'execute_tool lookup': 'acme',
    });
    const spans = exporter.getFinishedSpans();
    const byName = (name: string) => spans.filter((span) => span.name === name);
    const [app] = byName('POST /chat') as [ReadableSpan];
    const [turn] = byName('invoke_agent') as [ReadableSpan];
    expect(turn.parentSpanContext?.spanId).toBe(app.spanContext().spanId);
    for (const child of [...byName('chat m'), ...byName('execute_tool lookup')]) {
      expect(child.parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
      expect(child.spanContext().traceId).toBe(app.spanContext().traceId);
    }
    expect(byName('chat m')).toHaveLength(2);
  });
});
