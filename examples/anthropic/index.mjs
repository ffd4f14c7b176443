// The Anthropic Messages API with tools and streaming. Runs for real when ANTHROPIC_API_KEY is set
// (ANTHROPIC_MODEL picks the model); otherwise against the bundled fake server.
import { createAnthropicModel, createHarness } from '@agent-assistant/harness';
import { createFakeAnthropicServer } from '@agent-assistant/harness/testing/node';

const real = Boolean(process.env.ANTHROPIC_API_KEY);
const server = real
  ? undefined
  : await createFakeAnthropicServer({
      replies: [
        { text: 'Let me look that up.', toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }], usage: { inputTokens: 300, outputTokens: 40 } },
        { text: 'It is sunny and 21°C in Oslo.', usage: { inputTokens: 360, outputTokens: 15 } },
      ],
    });
console.log(real ? 'Using the Anthropic API.' : `ANTHROPIC_API_KEY is not set: using the fake server at ${server.url}.`);

const model = createAnthropicModel({
  apiKey: real ? { env: 'ANTHROPIC_API_KEY' } : 'fake-key-for-the-local-server',
  model: process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-5',
  maxTokens: 1024,
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

try {
  const stream = createHarness({ model, tools }).streamTurn({
    assistantId: 'example',
    turnId: 'turn-1',
    message: { id: 'm1', text: 'What is the weather in Oslo?', receivedAt: new Date().toISOString() },
    instructions: { systemPrompt: 'You are a concise weather assistant.' },
  });
  for await (const event of stream) {
    if (event.type === 'text_delta') process.stdout.write(event.text);
    if (event.type === 'tool_started') process.stdout.write(`\n[tool] ${event.call.name}\n`);
  }
  const result = await stream.result;
  console.log(`\n→ ${result.outcome} / ${result.stopReason}`, result.usage);
} finally {
  await server?.close();
}
