// npm start — offline, no keys. A model asks the user a question with the `question` tool: the turn
// pauses `needs_clarification` with the question and its choices, a second harness (as another
// process would) resumes it with the answer, and the model receives that answer once, as the
// result of its `question` call. The bundled fake OpenAI-compatible server plays the model; point
// `baseUrl` at a real server (or use any other provider's model) to let a real model ask.
import {
  composeToolRegistries,
  createHarness,
  createOpenAICompatibleModel,
  createQuestionToolRegistry,
  createToolRegistry,
  defineTool,
} from '@agent-assistant/harness';
import { createFakeOpenAICompatibleServer } from '@agent-assistant/harness/testing/node';

const FORECASTS = { oslo: 'sunny, 18 °C', bergen: 'rain, 9 °C', 'tromsø': 'cloudy, 7 °C' };

const forecast = defineTool({
  name: 'get_forecast',
  description: "Today's weather for a Norwegian city.",
  input: {
    jsonSchema: { type: 'object', properties: { city: { type: 'string', minLength: 1 } }, required: ['city'], additionalProperties: false },
  },
  execute: ({ city }) => `${city}: ${FORECASTS[String(city).toLowerCase()] ?? 'no forecast'}`,
});

const server = await createFakeOpenAICompatibleServer({
  replies: [
    { toolCalls: [{ name: 'question', arguments: { question: 'Which city do you mean?', choices: ['Oslo', 'Bergen', 'Tromsø'] } }] },
    { toolCalls: [{ name: 'get_forecast', arguments: { city: 'Bergen' } }] },
    { text: 'In Bergen today: rain, 9 °C. Take an umbrella.' },
  ],
});

try {
  // Same model, tools and secret on both sides, so another process could resume the turn.
  const config = () => ({
    model: createOpenAICompatibleModel({ baseUrl: server.url, model: 'gpt-4.1-mini' }),
    tools: composeToolRegistries(createQuestionToolRegistry(), createToolRegistry([forecast])),
    continuationSecret: 'example-secret-0123456789',
  });
  const input = {
    assistantId: 'example',
    turnId: 'turn-1',
    instructions: { systemPrompt: 'You are a weather assistant. Ask when you do not know the city.' },
    message: { id: 'm-1', text: 'What is the weather in my city today?', receivedAt: new Date().toISOString() },
  };

  const paused = await createHarness(config()).runTurn(input);
  console.log(`first run: ${paused.outcome} / ${paused.stopReason}`);
  console.log(`question: ${paused.assistantMessage?.text}`);
  console.log(`choices: ${(paused.metadata?.clarification?.choices ?? []).join(', ')}`);

  // The user answers; the continuation is plain JSON, so it could have been stored and read back.
  const stored = JSON.parse(JSON.stringify(paused.continuation));
  const answer = 'Bergen';
  const done = await createHarness(config()).resumeTurn(stored, { type: 'clarification', answer });
  console.log(`after the answer: ${done.outcome}: ${done.assistantMessage?.text}`);

  // What the model was sent next: the answer as the result of its question call, and nowhere else.
  const messages = server.requests[1].body.messages;
  const result = messages.find((message) => message.role === 'tool');
  const times = messages.filter((message) => JSON.stringify(message.content ?? '').includes(answer)).length;
  console.log(`the model got the answer as the result of call ${result.tool_call_id}: ${JSON.stringify(result.content)} (in ${times} message)`);
} finally {
  await server.close();
}
