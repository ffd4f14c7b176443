// Gemini with tools and streaming; the key goes only in the x-goog-api-key header. Runs for real
// when GEMINI_API_KEY is set (GEMINI_MODEL picks the model); otherwise against the bundled fake
// server, which also shows a safety block ending the turn as model_refused.
import { createHarness, createGeminiModel } from '@agent-assistant/harness';
import { createFakeGeminiServer } from '@agent-assistant/harness/testing/node';

const real = Boolean(process.env.GEMINI_API_KEY);
const server = real
  ? undefined
  : await createFakeGeminiServer({
      replies: [
        {
          reasoning: 'Call the weather tool for Oslo.',
          toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }],
          usage: { inputTokens: 300, outputTokens: 70, reasoningTokens: 50 },
        },
        { text: 'It is sunny and 21°C in Oslo.', usage: { inputTokens: 380, outputTokens: 12 } },
        { blockReason: 'SAFETY' },
      ],
    });
console.log(real ? 'Using the Gemini API.' : `GEMINI_API_KEY is not set: using the fake server at ${server.url}.`);

const model = createGeminiModel({
  apiKey: real ? { env: 'GEMINI_API_KEY' } : 'fake-key-for-the-local-server',
  model: process.env.GEMINI_MODEL ?? 'gemini-2.5-flash',
  maxTokens: 2048,
  pricing: { inputPerMillionTokens: 0.3, outputPerMillionTokens: 2.5 },
  ...(real ? {} : { baseUrl: server.url }),
});
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
const harness = createHarness({ model, tools });
const turn = (turnId, text) => ({
  assistantId: 'example',
  turnId,
  message: { id: `m-${turnId}`, text, receivedAt: new Date().toISOString() },
  instructions: { systemPrompt: 'You are a concise weather assistant. Use the tool.' },
});

try {
  const stream = harness.streamTurn(turn('turn-1', 'What is the weather in Oslo?'));
  for await (const event of stream) {
    if (event.type === 'text_delta') process.stdout.write(event.text);
    if (event.type === 'tool_started') process.stdout.write(`\n[tool] ${event.call.name}\n`);
  }
  const result = await stream.result;
  console.log(`\n→ ${result.outcome} / ${result.stopReason}`, result.usage);
  if (!real) {
    const blocked = await harness.runTurn(turn('turn-2', 'Something the safety filter blocks.'));
    console.log(`blocked prompt → ${blocked.outcome} / ${blocked.stopReason}: ${blocked.metadata?.error?.message ?? blocked.assistantMessage?.text ?? ''}`);
  }
} finally {
  await server?.close();
}
