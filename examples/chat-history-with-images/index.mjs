// A chat turn with earlier messages (`history`) and an inline image, runnable offline: the bundled
// fake OpenAI-compatible server answers, and its recorded request shows what the model was sent —
// the history as real user/assistant messages, then the message with the PNG as an image_url part.
// Point `baseUrl` at a real vision model (OpenAI, OpenRouter, Ollama's /v1 …) to ask it for real.
import { createHarness, createOpenAICompatibleModel } from '@agent-assistant/harness';
import { createFakeOpenAICompatibleServer } from '@agent-assistant/harness/testing/node';

// A 1×1 PNG, base64-encoded (no `data:` prefix: the media type goes in `mediaType`).
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const server = await createFakeOpenAICompatibleServer({
  replies: [{ text: 'It is a single pixel — too small to show a cat, so I cannot compare it with your cat Miso.', usage: { inputTokens: 120, outputTokens: 22 } }],
});

try {
  const model = createOpenAICompatibleModel({ baseUrl: server.url, model: 'gpt-4o-mini' });
  const harness = createHarness({ model });
  const result = await harness.runTurn({
    assistantId: 'example',
    turnId: 'turn-2',
    instructions: { systemPrompt: 'You are a friendly assistant who looks carefully at pictures.' },
    // The conversation so far, oldest first: replayed as real role messages before the new one.
    history: [
      { role: 'user', text: 'My cat is called Miso.' },
      { role: 'assistant', text: 'Miso is a lovely name! Send me a picture whenever you like.' },
    ],
    message: {
      id: 'm-3',
      text: 'Here is a photo. Is this Miso?',
      receivedAt: new Date().toISOString(),
      attachments: [{ id: 'photo-1', type: 'image', name: 'miso.png', data: PNG_BASE64, mediaType: 'image/png' }],
    },
  });

  console.log(`${result.outcome} / ${result.stopReason}`);
  console.log('answer:', result.assistantMessage?.text ?? result.metadata?.error);

  // What the model received: every message's role, and the parts of the last user message.
  const sent = server.requests[0].body;
  console.log('\nmessages sent:');
  for (const message of sent.messages) {
    const content = typeof message.content === 'string' ? JSON.stringify(message.content) : message.content.map((part) => part.type).join(' + ');
    console.log(`  ${message.role.padEnd(9)} ${content}`);
  }
  const imagePart = sent.messages.at(-1).content.find((part) => part.type === 'image_url');
  const url = imagePart.image_url.url;
  console.log(`\nimage sent: ${url.slice(0, url.indexOf(',') + 1)}… (${url.length} characters, inline: ${url === `data:image/png;base64,${PNG_BASE64}`})`);
} finally {
  await server.close();
}
