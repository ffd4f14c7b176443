// OpenRouter, three ways: the model adapter under the harness (tools + streaming + budget), the
// execution adapter on its own (negotiate + execute), and the execution adapter as a harness backend.
// Runs for real when OPENROUTER_API_KEY is set; otherwise against the bundled fake server.
import { createHarness, OpenRouterExecutionAdapter, OpenRouterModelAdapter } from '@agent-assistant/harness';
import { createFakeOpenAICompatibleServer } from '@agent-assistant/harness/testing/node';

const model = process.env.OPENROUTER_MODEL ?? 'openai/gpt-5-mini';
const real = Boolean(process.env.OPENROUTER_API_KEY);
const server = real
  ? undefined
  : await createFakeOpenAICompatibleServer({
      replies: [
        { text: 'Let me check.', toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }], usage: { inputTokens: 120, outputTokens: 18, cost: 0.00004 } },
        { text: 'It is sunny and 21°C in Oslo.', usage: { inputTokens: 160, outputTokens: 12, cost: 0.00005 } },
        { text: 'Ship the release on Friday.', usage: { inputTokens: 60, outputTokens: 7, cost: 0.00002 } },
        { text: 'Ship the release on Friday.', usage: { inputTokens: 60, outputTokens: 7, cost: 0.00002 } },
      ],
    });
console.log(real ? `Using OpenRouter (${model}).` : `OPENROUTER_API_KEY is not set: using the fake server at ${server.url}.`);
// With a real key the adapters read OPENROUTER_API_KEY themselves at call time; the fake server takes any key.
const connection = real ? { apiKey: { env: 'OPENROUTER_API_KEY' } } : { apiKey: 'fake-key-for-the-local-server', baseUrl: server.url };

const tools = {
  listAvailable: () => [
    {
      name: 'lookup_weather',
      description: 'Current weather for a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  ],
  execute: async (call) => ({ callId: call.id, toolName: call.name, status: 'success', output: `sunny, 21°C in ${call.input.city}` }),
};
const input = (turnId, text) => ({
  assistantId: 'example',
  turnId,
  message: { id: `${turnId}-m`, text, receivedAt: new Date().toISOString() },
  instructions: { systemPrompt: 'You are a concise assistant. Use tools when they help.' },
});

try {
  console.log('\n=== 1. OpenRouterModelAdapter under createHarness (streaming, budget in USD) ===');
  const harness = createHarness({
    model: new OpenRouterModelAdapter({ ...connection, model, appName: 'agent-assistant example' }),
    tools,
    limits: { budgetLimit: 0.05, maxElapsedMs: 60_000 },
  });
  const stream = harness.streamTurn(input('turn-1', 'What is the weather in Oslo?'));
  for await (const event of stream) {
    if (event.type === 'text_delta') process.stdout.write(event.text);
    if (event.type === 'tool_started') process.stdout.write(`\n[tool] ${event.call.name} ${JSON.stringify(event.call.input)}\n`);
  }
  const result = await stream.result;
  console.log(`\n→ ${result.outcome} / ${result.stopReason}; cost ${result.usage.totalCostUnits} USD, ${result.usage.modelCalls} model calls`);

  console.log('\n=== 2. OpenRouterExecutionAdapter: negotiate, then execute ===');
  const apiKey = process.env.OPENROUTER_API_KEY ?? 'fake-key-for-the-local-server';
  const adapter = new OpenRouterExecutionAdapter({ apiKey, model, ...(real ? {} : { baseUrl: server.url }) });
  const request = { ...input('turn-2', 'Summarise: the release is planned for Friday.'), requirements: { traceDepth: 'standard' } };
  const negotiation = adapter.negotiate(request);
  console.log('negotiation:', negotiation.supported ? 'supported' : 'unsupported', negotiation.reasons.map((reason) => reason.code));
  const executed = await adapter.execute(request);
  console.log('execute:', executed.status, JSON.stringify(executed.output?.text ?? executed.error), executed.usage);

  console.log('\n=== 3. The same adapter as a harness backend ===');
  const backendResult = await createHarness({ backend: adapter }).runTurn(input('turn-3', 'Summarise: the release is planned for Friday.'));
  console.log(`→ ${backendResult.outcome}: ${backendResult.assistantMessage?.text ?? JSON.stringify(backendResult.metadata?.error)}`);
} finally {
  await server?.close();
}
