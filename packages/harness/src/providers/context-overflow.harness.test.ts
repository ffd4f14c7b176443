import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { SUMMARY_HEADING } from '../core/compaction/compact-conversation.js';
import { createHarness } from '../core/create-harness.js';
import { memoryTraceSink } from '../core/trace/memory-trace-sink.js';
import type { HarnessModelAdapter } from '../core/types/model.js';
import type { HarnessResult } from '../core/types/result.js';
import type { HarnessHistoryMessage, HarnessTurnInput } from '../shared/types/turn-input.js';
import { createFakeToolRegistry, createTurnInput } from '../testing/index.js';
import {
  createFakeAnthropicServer,
  createFakeGeminiServer,
  createFakeOllamaServer,
  createFakeOpenAICompatibleServer,
  createFakeOpenAIResponsesServer,
  type FakeModelServer,
  type FakeModelServerOptions,
  type FakeRecordedRequest,
  type FakeServerReply,
} from '../testing/node/index.js';
import { createAnthropicModel } from './anthropic/create-anthropic-model.js';
import { createGeminiModel } from './gemini/create-gemini-model.js';
import { createOllamaModel } from './ollama/create-ollama-model.js';
import { createOpenAICompatibleModel } from './openai-compatible/create-openai-compatible-model.js';
import { createOpenAIResponsesModel } from './openai-responses/create-openai-responses-model.js';
import { createOpenRouterModelAdapter } from './openrouter/openrouter-model-adapter.js';
import { createModelFromProfile } from './profiles/create-model-from-profile.js';
import { parseProviderProfiles } from './profiles/parse-provider-profiles.js';

// Issue 25, compaction: each protocol's fake server stands for a model whose context holds
// `SERVER_LIMIT` bytes of request. Past it the server answers with the provider's real
// context-overflow error (the recordings of __fixtures__/real-traffic); the turn compacts once and
// asks again. The summary request (the compaction's own call) is answered with a summary.

const recording = (path: string) => readFileSync(new URL(`./__fixtures__/real-traffic/${path}`, import.meta.url), 'utf8');
const json = (status: number, body: string): FakeServerReply => ({ type: 'http', status, body, headers: { 'content-type': 'application/json' } });

/** The largest request body (bytes of its JSON) the fake model takes. */
const SERVER_LIMIT = 6_000;
/** The window the adapters state: our estimate of the history is under it, the server is stricter. */
const WINDOW = 3_000;
const KEY = 'sk-context-overflow-0123456789';
const fast = { apiKey: KEY, retry: { initialDelayMs: 1, maxDelayMs: 2 } };
const responsesEvent = recording('openai-responses/context-length-exceeded.sse');
const responsesError = JSON.stringify({ error: (JSON.parse(responsesEvent.split('data: ')[1]!) as { error: unknown }).error });

interface Protocol {
  start(options: FakeModelServerOptions): Promise<FakeModelServer>;
  model(url: string, contextWindow?: number): HarnessModelAdapter;
  /** The provider's overflow answer to a request (streamed or not). */
  overflow(streamed: boolean): FakeServerReply;
}

const protocols: Record<string, Protocol> = {
  'openai-chat (OpenAI)': {
    start: createFakeOpenAICompatibleServer,
    model: (url, contextWindow) => createOpenAICompatibleModel({ ...fast, baseUrl: url, model: 'gpt-4o', contextWindow }),
    overflow: () => json(400, recording('openai-chat/openai-context-length-exceeded.400.json')),
  },
  'openai-chat (llama.cpp)': {
    start: createFakeOpenAICompatibleServer,
    model: (url, contextWindow) => createOpenAICompatibleModel({ ...fast, baseUrl: url, model: 'model.gguf', namedToolChoice: 'required', contextWindow }),
    overflow: () => json(400, recording('openai-chat/llamacpp-context-exceeded.400.json')),
  },
  'openai-responses': {
    start: createFakeOpenAIResponsesServer,
    model: (url, contextWindow) => createOpenAIResponsesModel({ ...fast, baseUrl: url, model: 'gpt-5-mini', contextWindow }),
    overflow: (streamed) =>
      streamed ? { type: 'sse', chunks: [responsesEvent], headers: { 'content-type': 'text/event-stream' } } : json(400, responsesError),
  },
  anthropic: {
    start: createFakeAnthropicServer,
    model: (url, contextWindow) => createAnthropicModel({ ...fast, baseUrl: url, model: 'claude-sonnet-4-5', maxTokens: 1024, contextWindow }),
    overflow: () => json(400, recording('anthropic/prompt-too-long.400.json')),
  },
  gemini: {
    start: createFakeGeminiServer,
    model: (url, contextWindow) => createGeminiModel({ ...fast, baseUrl: url, model: 'gemini-2.5-flash', contextWindow }),
    overflow: () => json(400, recording('gemini/input-token-count.400.json')),
  },
  ollama: {
    start: createFakeOllamaServer,
    model: (url, contextWindow) => createOllamaModel({ ...fast, baseUrl: url, model: 'qwen3:8b', contextWindow }),
    overflow: () => json(400, recording('ollama/context-length.400.json')),
  },
};

const SUMMARY = 'SUMMARY: the user planned a trip to Oslo and asked about ferries.';
const bodyText = (request: FakeRecordedRequest) => JSON.stringify(request.body);
const isSummaryRequest = (request: FakeRecordedRequest) => bodyText(request).includes('You compact a conversation');

/** `count` history messages of about 400 characters, each marked `msg-NN`. */
function longHistory(count: number): HarnessHistoryMessage[] {
  return Array.from({ length: count }, (_, index) => ({
    role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
    text: `msg-${String(index).padStart(2, '0')} ${'about the ferries to the islands near Oslo '.repeat(9)}`.trim(),
  }));
}

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * A server that answers summary requests with `SUMMARY`, and other requests with `reply` (the next
 * of them, for a list) when they fit `SERVER_LIMIT` — or always with the overflow (`alwaysOverflow`).
 */
async function modelServer(protocol: Protocol, streamed: boolean, reply: FakeServerReply | FakeServerReply[], options: { alwaysOverflow?: boolean } = {}) {
  const replies = Array.isArray(reply) ? [...reply] : undefined;
  const answer = (request: FakeRecordedRequest): FakeServerReply => {
    if (isSummaryRequest(request)) return { text: SUMMARY, usage: { inputTokens: 700, outputTokens: 20 } };
    if (options.alwaysOverflow === true || bodyText(request).length > SERVER_LIMIT) return protocol.overflow(streamed);
    return replies === undefined ? (reply as FakeServerReply) : replies.shift()!;
  };
  server = await protocol.start({ replies: Array.from({ length: 8 }, () => answer) });
  return server;
}

async function run(harness: ReturnType<typeof createHarness>, input: HarnessTurnInput, streamed: boolean): Promise<HarnessResult> {
  if (!streamed) return harness.runTurn(input);
  const stream = harness.streamTurn(input);
  for await (const _event of stream) {
    // drain
  }
  return stream.result;
}

describe.each(Object.entries(protocols))('%s: context overflow', (_name, protocol) => {
  describe.each([false, true])('streamed: %s', (streamed) => {
    it('overflow → one compaction → one retry → completed, the compacted history sent and counted', async () => {
      const fake = await modelServer(protocol, streamed, { text: 'Take the 9:30 ferry.', usage: { inputTokens: 400, outputTokens: 6 } });
      const trace = memoryTraceSink();
      const harness = createHarness({ model: protocol.model(fake.url, WINDOW), trace, compaction: { threshold: 1 } });
      const result = await run(harness, createTurnInput({ history: longHistory(24), text: 'Which ferry should I take?' }), streamed);

      expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Take the 9:30 ferry.' } });
      expect(fake.requests).toHaveLength(3);
      const [first, summary, retry] = fake.requests.map(bodyText);
      expect(first).toContain('msg-00');
      expect(isSummaryRequest(fake.requests[1]!)).toBe(true);
      expect(summary!.length).toBeLessThanOrEqual(SERVER_LIMIT);
      expect(retry).not.toContain('msg-00');
      expect(retry).not.toContain('msg-19');
      expect(retry).toContain('msg-20');
      expect(retry).toContain('msg-23');
      expect(retry).toContain(SUMMARY);
      expect(result.usage).toMatchObject({ modelCalls: 3, totalInputTokens: 1_100, totalOutputTokens: 26 });
      const receipt = result.metadata?.compaction?.receipts[0];
      expect(receipt).toMatchObject({ trigger: 'overflow', compacted: true, iteration: 1, messagesBefore: 24, messagesAfter: 5, summarized: 20, summaryUsage: { inputTokens: 700, outputTokens: 20 } });
      expect(receipt!.bytesAfter).toBeLessThan(receipt!.bytesBefore / 3);
      expect(result.metadata?.compaction?.history[0]!.text).toBe(`${SUMMARY_HEADING}${SUMMARY}`);
      expect(trace.types().filter((type) => type === 'history_compacted')).toHaveLength(1);
      expect(trace.events.find((event) => event.type === 'history_compacted')).toMatchObject({ trigger: 'overflow', contextWindow: WINDOW, summarized: 20 });
      expect(JSON.stringify(result)).not.toContain(KEY);
    });

    it('a second overflow ends the turn failed / context_overflow, not retryable, after exactly one compaction', async () => {
      const fake = await modelServer(protocol, streamed, { text: 'never' }, { alwaysOverflow: true });
      const harness = createHarness({ model: protocol.model(fake.url, WINDOW), compaction: { threshold: 1 } });
      const result = await run(harness, createTurnInput({ history: longHistory(24) }), streamed);

      expect(fake.requests).toHaveLength(3);
      expect(fake.requests.map(isSummaryRequest)).toEqual([false, true, false]);
      expect(result).toMatchObject({ outcome: 'failed', stopReason: 'provider_error', error: { code: 'context_overflow', retryable: false, source: 'model' } });
      expect(result.metadata?.compaction?.receipts).toHaveLength(1);
      expect(result.usage.modelCalls).toBe(3);
    });

    it('without a known window nothing is compacted: the overflow fails the turn at once, saying how to turn compaction on', async () => {
      const fake = await modelServer(protocol, streamed, { text: 'never' });
      const result = await run(createHarness({ model: protocol.model(fake.url) }), createTurnInput({ history: longHistory(24) }), streamed);

      expect(fake.requests).toHaveLength(1);
      expect(result).toMatchObject({ outcome: 'failed', error: { code: 'context_overflow', retryable: false } });
      expect(result.error?.message).toContain('give the model its contextWindow');
      expect(result.metadata?.compaction).toBeUndefined();
    });
  });

  it('threshold: a step whose estimated input passes 80% of the window is compacted before it is sent (no overflow at all)', async () => {
    const fake = await modelServer(protocol, false, { text: 'Ferries leave hourly.' });
    const harness = createHarness({ model: protocol.model(fake.url, WINDOW) });
    const result = await harness.runTurn(createTurnInput({ history: longHistory(30) }));

    expect(result.outcome).toBe('completed');
    expect(fake.requests.map(isSummaryRequest)).toEqual([true, false]);
    const step = bodyText(fake.requests[1]!);
    expect(step.length).toBeLessThanOrEqual(SERVER_LIMIT);
    expect(step).not.toContain('msg-25');
    expect(step).toContain('msg-26');
    expect(result.metadata?.compaction?.receipts).toMatchObject([{ trigger: 'threshold', compacted: true, summarized: 26 }]);
  });

  it('resume carries the compacted history: the resumed step sends the summary, not the old messages, and compacts nothing again', async () => {
    const fake = await modelServer(protocol, false, [{ toolCalls: [{ name: 'book_ferry', arguments: { time: '9:30' } }] }, { text: 'Your ferry is booked.' }]);
    const tools = createFakeToolRegistry({ book_ferry: { requiresApproval: true, execute: () => 'Booked the 9:30 ferry.' } });
    const harness = createHarness({ model: protocol.model(fake.url, WINDOW), tools, continuationSecret: 'compaction-secret-0123456789abcdef' });
    const paused = await harness.runTurn(createTurnInput({ history: longHistory(30), text: 'Book the ferry.' }));

    expect(paused.outcome).toBe('awaiting_approval');
    const carried = JSON.parse(JSON.stringify(paused.continuation)) as { state: { input: { history: HarnessHistoryMessage[] } } };
    expect(carried.state.input.history).toHaveLength(5);
    expect(carried.state.input.history[0]!.text).toBe(`${SUMMARY_HEADING}${SUMMARY}`);

    const [request] = paused.metadata?.approvalRequests as { id: string }[];
    const resumed = await harness.resumeTurn(carried, { type: 'approval', decisions: { [request!.id]: 'approved' } });
    expect(resumed).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Your ferry is booked.' } });
    expect(fake.requests.map(isSummaryRequest)).toEqual([true, false, false]);
    const resumedStep = bodyText(fake.requests[2]!);
    expect(resumedStep).toContain(SUMMARY);
    expect(resumedStep).not.toContain('msg-00');
    expect(resumedStep).toContain('Booked the 9:30 ferry.');
    expect(resumed.metadata?.compaction).toBeUndefined();
  });
});

describe('a request over maxInputBytes (nothing sent)', () => {
  it('is compacted and asked again once, like a provider overflow; the summary call itself fits', async () => {
    server = await createFakeOpenAICompatibleServer({ replies: [{ text: SUMMARY }, { text: 'Take the 9:30 ferry.' }] });
    const model = createOpenAICompatibleModel({ ...fast, baseUrl: server.url, model: 'gpt-4o', maxInputBytes: SERVER_LIMIT, contextWindow: 100_000 });
    const result = await createHarness({ model }).runTurn(createTurnInput({ history: longHistory(24) }));

    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Take the 9:30 ferry.' }, usage: { modelCalls: 3 } });
    expect(server.requests.map(isSummaryRequest)).toEqual([true, false]);
    expect(server.requests.every((request) => bodyText(request).length <= SERVER_LIMIT)).toBe(true);
    expect(result.metadata?.compaction?.receipts).toMatchObject([{ trigger: 'overflow', compacted: true }]);
  });
});

describe('Anthropic with thinking: a compacted tool loop the API accepts', () => {
  it('folds old tool steps whole, drops their thinking, keeps the newest step signed; every request passes the server checks', async () => {
    let step = 0;
    const answer = (request: FakeRecordedRequest): FakeServerReply => {
      if (isSummaryRequest(request)) return { text: SUMMARY };
      step += 1;
      return step <= 4 ? { reasoning: `Page ${String(step)} next.`, toolCalls: [{ name: 'read_page', arguments: { page: step } }] } : { reasoning: 'Enough.', text: 'The ferry leaves at 9:30.' };
    };
    server = await createFakeAnthropicServer({ replies: Array.from({ length: 10 }, () => answer) });
    const model = createAnthropicModel({ ...fast, baseUrl: server.url, model: 'claude-sonnet-4-5', maxTokens: 1024, contextWindow: 2_500, extraBody: { thinking: { type: 'enabled', budget_tokens: 1024 } } });
    const tools = createFakeToolRegistry({ read_page: ({ page }) => `page ${String(page)}: ${'timetable row '.repeat(150)}` });
    const result = await createHarness({ model, tools, compaction: { keepRecent: 2 } }).runTurn(createTurnInput({ text: 'When does the ferry leave?' }));

    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'The ferry leaves at 9:30.' } });
    expect(server.requests.filter(isSummaryRequest).length).toBeGreaterThanOrEqual(1);
    expect(result.transcript[0]).toMatchObject({ type: 'compaction', summary: SUMMARY });
    const last = server.requests.at(-1)!.body as { messages: { role: string; content: { type: string }[] }[] };
    const text = JSON.stringify(last);
    expect(text).toContain(SUMMARY);
    expect(text).not.toContain('"page":1}');
    // Each kept tool_use has its tool_result right after it.
    last.messages.forEach((message, index) => {
      if (message.role === 'assistant' && message.content.some((block) => block.type === 'tool_use')) {
        expect(last.messages[index + 1]!.content.some((block) => block.type === 'tool_result')).toBe(true);
      }
    });
  });
});

describe('contextWindow on every model factory and on profiles', () => {
  it('each factory states the window it was given (and none without it)', () => {
    for (const protocol of Object.values(protocols)) {
      expect(protocol.model('http://127.0.0.1:9/v1', 32_768).contextWindow).toBe(32_768);
      expect(protocol.model('http://127.0.0.1:9/v1').contextWindow).toBeUndefined();
    }
    expect(createOpenRouterModelAdapter({ apiKey: KEY, contextWindow: 200_000 }).contextWindow).toBe(200_000);
  });

  it('an ollama-chat profile with contextWindow sets num_ctx, turns truncation off, and compacts after the overflow, stamping a receipt on the summary call too', async () => {
    server = await createFakeOllamaServer({ replies: [json(400, recording('ollama/context-length.400.json')), { text: SUMMARY }, { text: 'Take the 9:30 ferry.' }] });
    const set = parseProviderProfiles({ profiles: [{ id: 'local', provider: 'ollama', protocol: 'ollama-chat', model: 'qwen3:8b', endpoint: server.url, authMode: 'none', contextWindow: 8_192 }] });
    const model = createModelFromProfile(set, 'local', { retry: fast.retry });
    expect(model.contextWindow).toBe(8_192);
    const result = await createHarness({ model }).runTurn(createTurnInput({ history: longHistory(12) }));

    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Take the 9:30 ferry.' } });
    const first = server.requests[0]!.body as { options?: { num_ctx?: number }; truncate?: boolean };
    expect(first.options?.num_ctx).toBe(8_192);
    expect(first.truncate).toBe(false);
    expect(result.metadata?.modelReceipts).toHaveLength(3);
  });

  it("ollama: the caller's own num_ctx and truncate win", async () => {
    server = await createFakeOllamaServer({ replies: [{ text: 'ok' }] });
    const model = createOllamaModel({ baseUrl: server.url, model: 'qwen3:8b', contextWindow: 8_192, modelOptions: { num_ctx: 4_096 }, extraBody: { truncate: true } });
    await createHarness({ model }).runTurn(createTurnInput());
    expect(server.requests[0]!.body).toMatchObject({ options: { num_ctx: 4_096 }, truncate: true });
  });
});
