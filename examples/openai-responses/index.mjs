// The OpenAI Responses API with tools, streaming and reasoning carried across the tool step. Runs
// for real when OPENAI_API_KEY is set (OPENAI_MODEL picks the model); otherwise against the
// bundled fake server, which refuses a replayed tool step that lost its reasoning item, as the API does.
import { createHarness, createOpenAIResponsesModel } from '@agent-assistant/harness';
import { createFakeOpenAIResponsesServer } from '@agent-assistant/harness/testing/node';

const real = Boolean(process.env.OPENAI_API_KEY);
const server = real
  ? undefined
  : await createFakeOpenAIResponsesServer({
      replies: [
        {
          reasoning: 'The user wants the weather in Oslo; call lookup_weather.',
          toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }],
          usage: { inputTokens: 300, outputTokens: 80, cachedInputTokens: 256, reasoningTokens: 64 },
        },
        { text: 'It is sunny and 21°C in Oslo.', usage: { inputTokens: 420, outputTokens: 15, cachedInputTokens: 384 } },
      ],
    });
console.log(real ? 'Using the OpenAI Responses API.' : `OPENAI_API_KEY is not set: using the fake server at ${server.url}.`);

const model = createOpenAIResponsesModel({
  apiKey: real ? { env: 'OPENAI_API_KEY' } : 'fake-key-for-the-local-server',
  model: process.env.OPENAI_MODEL ?? 'gpt-5-mini',
  reasoningEffort: 'low',
  maxTokens: 2048,
  // USD per million tokens, so result.usage.totalCostUnits is dollars and budgetLimit works.
  pricing: { inputPerMillionTokens: 0.25, cachedInputPerMillionTokens: 0.025, outputPerMillionTokens: 2 },
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
  const stream = createHarness({ model, tools, limits: { budgetLimit: 0.05 } }).streamTurn({
    assistantId: 'example',
    turnId: 'turn-1',
    message: { id: 'm1', text: 'What is the weather in Oslo?', receivedAt: new Date().toISOString() },
    instructions: { systemPrompt: 'You are a concise weather assistant. Use the tool.' },
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
