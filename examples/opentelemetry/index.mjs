// A turn recorded as OpenTelemetry spans (GenAI semantic conventions), printed from the SDK's
// in-memory exporter. Runs offline with a scripted model and a fake tool.
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createHarness, createOpenTelemetryTraceSink } from '@agent-assistant/harness';
import { createFakeToolRegistry, createScriptedModel, createTurnInput } from '@agent-assistant/harness/testing';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

const harness = createHarness({
  model: createScriptedModel([
    { type: 'tool_request', calls: [{ id: 'call-1', name: 'lookup_weather', input: { city: 'Lisbon' } }], usage: { inputTokens: 40, outputTokens: 12 } },
    { type: 'final_answer', text: 'It is sunny in Lisbon.', usage: { inputTokens: 70, outputTokens: 9 } },
  ]),
  tools: createFakeToolRegistry({ lookup_weather: ({ city }) => `Sunny in ${city}` }),
  trace: createOpenTelemetryTraceSink({ tracer: provider.getTracer('example'), agentName: 'weather', model: 'scripted', provider: 'example' }),
});

const result = await harness.runTurn(createTurnInput({ text: 'Weather in Lisbon?' }));
await provider.forceFlush();
console.log(`${result.outcome}: ${result.assistantMessage?.text}`);
for (const span of exporter.getFinishedSpans()) {
  const usage = span.attributes['gen_ai.usage.input_tokens'];
  console.log(`span ${span.name}${usage === undefined ? '' : ` (input tokens ${usage})`}`);
}
await provider.shutdown();
