import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import type { HarnessModelAdapter } from '../core/types/model.js';
import type { HarnessResult } from '../core/types/result.js';
import { composeToolRegistries } from '../tools/compose-tool-registries.js';
import { createQuestionToolRegistry } from '../tools/question/create-question-tool-registry.js';
import { createFakeToolRegistry, createTurnInput } from '../testing/index.js';
import { createFakeAnthropicServer, createFakeOpenAICompatibleServer, type FakeModelServer, type FakeServerScript } from '../testing/node/index.js';
import { createAnthropicModel } from './anthropic/create-anthropic-model.js';
import { createOpenAICompatibleModel } from './openai-compatible/create-openai-compatible-model.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const secret = 'question-tool-secret-0123456789';
// Distinctive, so counting it in the request body counts only where the answer was sent.
const answer = 'Bergen-7f3a, please';

const protocols = [
  {
    name: 'OpenAI-compatible',
    start: (replies: FakeServerScript[]) => createFakeOpenAICompatibleServer({ replies }),
    model: (url: string): HarnessModelAdapter => createOpenAICompatibleModel({ baseUrl: url, model: 'fake-model' }),
    /** The request's messages after the system prompt, as role + tool call id + content. */
    tail: (body: unknown) =>
      (body as { messages: { role: string; content: unknown; tool_call_id?: string; tool_calls?: { id: string }[] }[] }).messages
        .slice(1)
        .map((message) => ({
          role: message.role,
          ...(message.tool_call_id === undefined ? {} : { answers: message.tool_call_id }),
          ...(message.tool_calls === undefined ? {} : { calls: message.tool_calls.map((call) => call.id) }),
          ...(message.role === 'tool' ? { content: message.content } : {}),
        })),
  },
  {
    name: 'Anthropic',
    start: (replies: FakeServerScript[]) => createFakeAnthropicServer({ replies }),
    model: (url: string): HarnessModelAdapter => createAnthropicModel({ baseUrl: url, apiKey: 'test-key-0123456789', model: 'claude-test', maxTokens: 256 }),
    tail: (body: unknown) =>
      (body as { messages: { role: string; content: string | { type: string; id?: string; tool_use_id?: string; content?: unknown }[] }[] }).messages.map((message) => {
        const blocks = typeof message.content === 'string' ? [] : message.content;
        const calls = blocks.filter((block) => block.type === 'tool_use').map((block) => block.id);
        const results = blocks.filter((block) => block.type === 'tool_result');
        return {
          role: message.role,
          ...(results.length === 0 ? {} : { answers: results[0]!.tool_use_id, content: results[0]!.content }),
          ...(calls.length === 0 ? {} : { calls }),
        };
      }),
  },
];

const occurrences = (body: unknown, text: string) => JSON.stringify(body).split(JSON.stringify(text).slice(1, -1)).length - 1;

describe.each(protocols)('$name: the model asks the user with the question tool', (protocol) => {
  it.each([false, true])('pauses needs_clarification, resumes with the answer, and sends it once, as the tool result (another harness: %s)', async (fresh) => {
    server = await protocol.start([
      { text: 'Let me ask.', toolCalls: [{ id: 'ask_1', name: 'question', arguments: { question: 'Which city?', choices: ['Oslo', 'Bergen'] } }] },
      { text: 'Bergen it is.' },
    ]);
    const config = () => ({
      model: protocol.model(server!.url),
      tools: composeToolRegistries(createQuestionToolRegistry(), createFakeToolRegistry({ lookup: () => 'x' })),
      continuationSecret: secret,
    });
    const harness = createHarness(config());
    const paused = await harness.runTurn(createTurnInput({ text: 'Weather for my city?' }));
    expect(paused).toMatchObject({
      outcome: 'needs_clarification',
      stopReason: 'clarification_required',
      assistantMessage: { text: 'Which city?' },
      metadata: { clarification: { callId: 'ask_1', toolName: 'question', choices: ['Oslo', 'Bergen'] } },
      continuation: { type: 'clarification', state: { question: 'Which city?', pendingCalls: [{ id: 'ask_1', name: 'question' }] } },
    });
    expect(paused.transcript.at(-1)).toEqual({ type: 'clarification_request', iteration: 1, question: 'Which city?', callId: 'ask_1', choices: ['Oslo', 'Bergen'] });

    const resumer = fresh ? createHarness(config()) : harness;
    const continuation = JSON.parse(JSON.stringify(paused.continuation)) as NonNullable<HarnessResult['continuation']>;
    const resumed = await resumer.resumeTurn(continuation, { type: 'clarification', answer });
    expect(resumed).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Bergen it is.' } });
    expect(resumed.transcript.find((item) => item.type === 'tool_result')).toMatchObject({
      result: { callId: 'ask_1', toolName: 'question', status: 'success', output: answer, structuredOutput: { question: 'Which city?', answer } },
    });

    expect(server.requests).toHaveLength(2);
    const next = server.requests[1]!.body;
    expect(occurrences(next, answer)).toBe(1);
    expect(protocol.tail(next)).toEqual([
      { role: 'user' },
      { role: 'assistant', calls: ['ask_1'] },
      { role: protocol.name === 'Anthropic' ? 'user' : 'tool', answers: 'ask_1', content: answer },
    ]);
  });
});
