// Any OpenAI-compatible chat-completions server (Ollama, vLLM, llama.cpp, OpenAI …).
// Set OPENAI_COMPATIBLE_BASE_URL (e.g. http://localhost:11434/v1), OPENAI_COMPATIBLE_MODEL and, if the
// server needs one, OPENAI_COMPATIBLE_API_KEY; otherwise it runs against the bundled fake server.
import { createHarness, createOpenAICompatibleModel } from '@agent-assistant/harness';
import { createFakeOpenAICompatibleServer } from '@agent-assistant/harness/testing/node';

const realBaseUrl = process.env.OPENAI_COMPATIBLE_BASE_URL;
const server = realBaseUrl
  ? undefined
  : await createFakeOpenAICompatibleServer({
      replies: [
        { toolCalls: [{ name: 'add', arguments: { a: 19, b: 23 } }], usage: { inputTokens: 80, outputTokens: 10 } },
        { text: '19 + 23 = 42.', usage: { inputTokens: 95, outputTokens: 8 } },
      ],
    });
const baseUrl = realBaseUrl ?? server.url;
console.log(realBaseUrl ? `Using ${baseUrl}.` : `No OPENAI_COMPATIBLE_BASE_URL: using the fake server at ${baseUrl}.`);

const model = createOpenAICompatibleModel({
  baseUrl,
  model: process.env.OPENAI_COMPATIBLE_MODEL ?? 'llama3.1',
  ...(process.env.OPENAI_COMPATIBLE_API_KEY ? { apiKey: { env: 'OPENAI_COMPATIBLE_API_KEY' } } : {}),
  temperature: 0,
  retry: { maxRetries: 2, onRetry: (event) => console.log('retrying after', event) },
});
const tools = {
  listAvailable: () => [
    {
      name: 'add',
      description: 'Adds two numbers',
      inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    },
  ],
  execute: async (call) => ({ callId: call.id, toolName: call.name, status: 'success', output: String(call.input.a + call.input.b) }),
};

try {
  const result = await createHarness({ model, tools }).runTurn({
    assistantId: 'example',
    turnId: 'turn-1',
    message: { id: 'm1', text: 'What is 19 + 23? Use the add tool.', receivedAt: new Date().toISOString() },
    instructions: { systemPrompt: 'You are a careful calculator. Always use tools for arithmetic.' },
  });
  console.log(result.outcome, result.stopReason, '—', result.assistantMessage?.text ?? result.metadata?.error);
  console.log('usage:', result.usage);
} finally {
  await server?.close();
}
