// npm start — offline, no keys. A long chat that no longer fits the model's context window.
// The loopback fake OpenAI-compatible server stands for a model that takes 6,000 bytes of request:
// past that it answers with OpenAI's real context_length_exceeded error.
// 1. harness.compact: a stored 40-message history folded into a summary before the next turn.
// 2. A turn with the whole history: the provider says overflow, the harness compacts once and asks
//    again; the result carries the compacted history to store for the next turn.
import { createHarness, createOpenAICompatibleModel, memoryTraceSink } from '@agent-assistant/harness';
import { createFakeOpenAICompatibleServer } from '@agent-assistant/harness/testing/node';

const LIMIT = 6_000;
const topics = ['the ferry to Bergen', 'a cabin near the fjord', 'rain gear for hiking', 'the night train', 'the museum pass'];
const history = Array.from({ length: 40 }, (_, index) => ({
  role: index % 2 === 0 ? 'user' : 'assistant',
  text:
    index % 2 === 0
      ? `Question ${index / 2 + 1}: tell me more about ${topics[(index / 2) % topics.length]} — prices, times and what to book first. `.repeat(2)
      : `Answer ${(index + 1) / 2}: for ${topics[((index - 1) / 2) % topics.length]}, book a week ahead; it costs about 450 NOK and leaves at 9:30. `.repeat(2),
}));
// The user said this once, at the start; pinned, it is never folded into a summary.
history[0] = { role: 'user', text: 'I travel with a wheelchair: every plan must be step-free.', pinned: true };

// A real model decides its answers; this one summarises when asked, and otherwise answers.
const server = await createFakeOpenAICompatibleServer();
const model = (request) => {
  const body = JSON.stringify(request.body);
  if (body.includes('You compact a conversation')) {
    return { text: 'The user plans a week in Norway (ferry to Bergen, a fjord cabin, the night train) and books about a week ahead; typical prices are around 450 NOK.', usage: { inputTokens: Math.ceil(body.length / 4), outputTokens: 40 } };
  }
  if (body.length > LIMIT) {
    return { type: 'http', status: 400, body: { error: { message: `This model's maximum context length is 1500 tokens. However, your messages resulted in ${Math.ceil(body.length / 4)} tokens.`, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } } };
  }
  return { text: 'Take the 9:30 ferry; the Bergen terminal is step-free.', usage: { inputTokens: Math.ceil(body.length / 4), outputTokens: 12 } };
};
server.enqueue(...Array.from({ length: 10 }, () => model));

try {
  // The window the model states turns automatic compaction on (a profile's `contextWindow` does too).
  const harness = createHarness({ model: createOpenAICompatibleModel({ baseUrl: server.url, model: 'gpt-4o-mini', contextWindow: 128_000 }), trace: memoryTraceSink() });

  // 1. On demand, between turns.
  const { history: shorter, receipt } = await harness.compact(history, { keepRecent: 4 });
  console.log(`compact: ${receipt.messagesBefore} → ${receipt.messagesAfter} messages, ${receipt.bytesBefore} → ${receipt.bytesAfter} bytes`);
  console.log(`  summary call: ${receipt.summaryUsage.inputTokens} input + ${receipt.summaryUsage.outputTokens} output tokens`);
  console.log(`  kept: ${shorter.map((message) => (message.pinned ? 'pinned' : message.text.startsWith('[Summary') ? 'summary' : message.role)).join(', ')}`);

  // 2. In a turn: overflow → compaction → one retry.
  const input = {
    assistantId: 'travel',
    turnId: 'turn-41',
    message: { id: 'm-41', text: 'So which ferry do I take?', receivedAt: new Date().toISOString() },
    instructions: { systemPrompt: 'You are a careful travel assistant.' },
    history,
  };
  const result = await harness.runTurn(input);
  console.log(`\nturn: ${result.outcome} / ${result.stopReason}: ${result.assistantMessage?.text}`);
  const [compaction] = result.metadata.compaction.receipts;
  console.log(`  ${compaction.trigger} at step ${compaction.iteration}: ${compaction.summarized} messages summarised, ${compaction.bytesBefore} → ${compaction.bytesAfter} bytes`);
  console.log(`  model calls: ${result.usage.modelCalls} (the refused step, the summary, the retry); requests sent: ${server.requests.length - 1}`);
  console.log(`  store for the next turn: ${result.metadata.compaction.history.length} messages (then add this turn's message and answer)`);
} finally {
  await server.close();
}
