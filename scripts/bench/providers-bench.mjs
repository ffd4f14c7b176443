// node scripts/bench/providers-bench.mjs (after `npm run build`) — HTTP provider costs, no network:
// 1. SSE stream throughput through createOpenAICompatibleModel().streamStep (SSE framing + JSON parse +
//    chunk validation + assembly), fed from memory by an injected fetch, vs eventsource-parser alone;
// 2. per-call overhead of nextStep (request build, JSON, validation, mapping) with an in-memory fetch;
// 3. a round trip against the loopback fake server, for scale;
// 4. Ollama NDJSON stream throughput through createOllamaModel().streamStep (line framing + JSON parse +
//    validation + assembly), vs splitting lines and JSON.parse alone;
// 5. OpenAI Responses API and Gemini SSE throughput through their streamStep, vs eventsource-parser
//    alone on the same bytes.
import { createParser } from 'eventsource-parser';
import { createAnthropicModel, createGeminiModel, createOllamaModel, createOpenAICompatibleModel, createOpenAIResponsesModel } from '@agent-assistant/harness';
import { createFakeOpenAICompatibleServer } from '@agent-assistant/harness/testing/node';

const STREAM_MB = Number(process.env.BENCH_STREAM_MB ?? 16);
const CALLS = Number(process.env.BENCH_CALLS ?? 5000);
const encoder = new TextEncoder();

const input = {
  assistantId: 'bench',
  turnId: 'turn-bench',
  message: { id: 'm', text: 'Tell me a long story.', receivedAt: '2026-01-01T00:00:00.000Z' },
  instructions: { systemPrompt: 'You are a storyteller.' },
  transcript: [],
  availableTools: [],
  iteration: 1,
  toolCallCount: 0,
  elapsedMs: 0,
  signal: new AbortController().signal,
};

function openAIStream(targetBytes) {
  const parts = [': OPENROUTER PROCESSING\n\n'];
  let size = 0;
  let index = 0;
  while (size < targetBytes) {
    const event = `data: {"id":"gen-1","object":"chat.completion.chunk","created":1767225600,"model":"bench","choices":[{"index":0,"delta":{"content":"word${index % 100} "},"finish_reason":null}]}\n\n`;
    parts.push(event);
    size += event.length;
    index += 1;
  }
  parts.push('data: {"id":"gen-1","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":99,"cost":0.001}}\n\n', 'data: [DONE]\n\n');
  return { bytes: encoder.encode(parts.join('')), events: index };
}

function anthropicStream(targetBytes) {
  const parts = ['event: message_start\ndata: {"type":"message_start","message":{"id":"msg","content":[],"usage":{"input_tokens":10,"output_tokens":1}}}\n\n',
    'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n'];
  let size = 0;
  let index = 0;
  while (size < targetBytes) {
    const event = `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"word${index % 100} "}}\n\n`;
    parts.push(event);
    size += event.length;
    index += 1;
  }
  parts.push('event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
    'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":99}}\n\n',
    'event: message_stop\ndata: {"type":"message_stop"}\n\n');
  return { bytes: encoder.encode(parts.join('')), events: index };
}

/** A body that delivers `bytes` in 16 KiB chunks, like a socket would. */
function bodyOf(bytes) {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + 16_384));
      offset += 16_384;
    },
  });
}

const fetchStream = (bytes) => async () => new Response(bodyOf(bytes), { headers: { 'content-type': 'text/event-stream' } });

async function timeStream(model, bytes) {
  const started = performance.now();
  let deltas = 0;
  let output;
  for await (const part of model.streamStep(input)) {
    if (part.type === 'text_delta') deltas += 1;
    else output = part.output;
  }
  const seconds = (performance.now() - started) / 1000;
  if (output?.type !== 'final_answer') throw new Error(`unexpected output ${JSON.stringify(output).slice(0, 200)}`);
  return { mbPerSecond: bytes.length / 1e6 / seconds, deltas, seconds };
}

function parserOnly(bytes) {
  const decoder = new TextDecoder();
  let events = 0;
  const parser = createParser({ onEvent: () => (events += 1) });
  const started = performance.now();
  for (let offset = 0; offset < bytes.length; offset += 16_384) parser.feed(decoder.decode(bytes.subarray(offset, offset + 16_384), { stream: true }));
  return { mbPerSecond: bytes.length / 1e6 / ((performance.now() - started) / 1000), events };
}

const best = async (runs, measure) => {
  let top;
  for (let run = 0; run < runs; run += 1) {
    const result = await measure();
    if (top === undefined || result.mbPerSecond > top.mbPerSecond) top = result;
  }
  return top;
};

const openai = openAIStream(STREAM_MB * 1e6);
const anthropic = anthropicStream(STREAM_MB * 1e6);
const openaiModel = createOpenAICompatibleModel({ baseUrl: 'https://bench.invalid/v1', model: 'bench', fetch: fetchStream(openai.bytes) });
const anthropicModel = createAnthropicModel({ baseUrl: 'https://bench.invalid/v1', apiKey: 'bench-key', model: 'bench', maxTokens: 100, fetch: fetchStream(anthropic.bytes) });

const parser = await best(3, async () => parserOnly(openai.bytes));
const openaiStream = await best(3, () => timeStream(openaiModel, openai.bytes));
const anthropicResult = await best(3, () => timeStream(anthropicModel, anthropic.bytes));

const jsonBody = JSON.stringify({ id: 'x', model: 'bench', choices: [{ message: { role: 'assistant', content: 'Hello there.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 3, cost: 0.0001 } });
const jsonModel = createOpenAICompatibleModel({
  baseUrl: 'https://bench.invalid/v1',
  model: 'bench',
  apiKey: 'bench-key',
  fetch: async () => new Response(jsonBody, { headers: { 'content-type': 'application/json' } }),
});
for (let index = 0; index < 200; index += 1) await jsonModel.nextStep(input);
let started = performance.now();
for (let index = 0; index < CALLS; index += 1) await jsonModel.nextStep(input);
const inMemoryMicros = ((performance.now() - started) * 1000) / CALLS;

const server = await createFakeOpenAICompatibleServer();
const loopbackModel = createOpenAICompatibleModel({ baseUrl: server.url, model: 'bench' });
const loopbackCalls = Math.min(CALLS, 500);
server.enqueue(...Array.from({ length: loopbackCalls + 20 }, () => ({ text: 'Hello there.' })));
for (let index = 0; index < 20; index += 1) await loopbackModel.nextStep(input);
started = performance.now();
for (let index = 0; index < loopbackCalls; index += 1) await loopbackModel.nextStep(input);
const loopbackMicros = ((performance.now() - started) * 1000) / loopbackCalls;
await server.close();

function ollamaStream(targetBytes) {
  const parts = [];
  let size = 0;
  let index = 0;
  while (size < targetBytes) {
    const line = `{"model":"bench","created_at":"2026-01-01T00:00:00.000000Z","message":{"role":"assistant","content":"word${index % 100} "},"done":false}\n`;
    parts.push(line);
    size += line.length;
    index += 1;
  }
  parts.push('{"model":"bench","created_at":"2026-01-01T00:00:00.000000Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":10,"eval_count":99}\n');
  return { bytes: encoder.encode(parts.join('')), events: index };
}

function ndjsonBaseline(bytes) {
  const decoder = new TextDecoder();
  let lines = 0;
  let pending = '';
  const started = performance.now();
  for (let offset = 0; offset < bytes.length; offset += 16_384) {
    const text = pending + decoder.decode(bytes.subarray(offset, offset + 16_384), { stream: true });
    const split = text.split('\n');
    pending = split.pop() ?? '';
    for (const line of split) if (line !== '') { JSON.parse(line); lines += 1; }
  }
  return { mbPerSecond: bytes.length / 1e6 / ((performance.now() - started) / 1000), lines };
}

const ollama = ollamaStream(STREAM_MB * 1e6);
const ollamaModel = createOllamaModel({
  baseUrl: 'https://bench.invalid',
  model: 'bench',
  fetch: async () => new Response(bodyOf(ollama.bytes), { headers: { 'content-type': 'application/x-ndjson' } }),
});
const ndjsonSplitParse = await best(3, async () => ndjsonBaseline(ollama.bytes));
const ollamaResult = await best(3, () => timeStream(ollamaModel, ollama.bytes));

// 5. OpenAI Responses API and Gemini SSE through their streamStep (event JSON, validation, assembly).
function responsesStream(targetBytes) {
  const event = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const parts = [
    event('response.created', { sequence_number: 0, response: { id: 'resp_bench', object: 'response', status: 'in_progress', model: 'bench', output: [] } }),
    event('response.output_item.added', { sequence_number: 1, output_index: 0, item: { id: 'msg_bench', type: 'message', status: 'in_progress', role: 'assistant', content: [] } }),
  ];
  let size = 0;
  let index = 0;
  while (size < targetBytes) {
    const piece = event('response.output_text.delta', { sequence_number: index + 2, item_id: 'msg_bench', output_index: 0, content_index: 0, delta: `word${index % 100} `, logprobs: [] });
    parts.push(piece);
    size += piece.length;
    index += 1;
  }
  parts.push(event('response.completed', { sequence_number: index + 2, response: { id: 'resp_bench', object: 'response', status: 'completed', model: 'bench', output: [], usage: { input_tokens: 10, output_tokens: 99 } } }));
  return { bytes: encoder.encode(parts.join('')), events: index };
}

function geminiStream(targetBytes) {
  const chunk = (parts, extra = {}) =>
    `data: ${JSON.stringify({ candidates: [{ content: { parts, role: 'model' }, index: 0, ...extra }], usageMetadata: { promptTokenCount: 10, totalTokenCount: 12 }, modelVersion: 'gemini-bench', responseId: 'bench' })}\r\n\r\n`;
  const parts = [];
  let size = 0;
  let index = 0;
  while (size < targetBytes) {
    const piece = chunk([{ text: `word${index % 100} ` }]);
    parts.push(piece);
    size += piece.length;
    index += 1;
  }
  parts.push(chunk([{ text: '' }], { finishReason: 'STOP' }));
  return { bytes: encoder.encode(parts.join('')), events: index };
}

const responses = responsesStream(STREAM_MB * 1e6);
const responsesModel = createOpenAIResponsesModel({ baseUrl: 'https://bench.invalid/v1', apiKey: 'bench-key', model: 'bench', fetch: fetchStream(responses.bytes) });
const responsesParser = await best(3, async () => parserOnly(responses.bytes));
const responsesResult = await best(3, () => timeStream(responsesModel, responses.bytes));
const gemini = geminiStream(STREAM_MB * 1e6);
const geminiModel = createGeminiModel({ baseUrl: 'https://bench.invalid/v1beta', apiKey: 'bench-key', model: 'gemini-bench', fetch: fetchStream(gemini.bytes) });
const geminiParser = await best(3, async () => parserOnly(gemini.bytes));
const geminiResult = await best(3, () => timeStream(geminiModel, gemini.bytes));

console.log(JSON.stringify({
  node: process.version,
  streamMegabytes: Number((openai.bytes.length / 1e6).toFixed(1)),
  sse: {
    eventsourceParserOnlyMBps: Number(parser.mbPerSecond.toFixed(1)),
    openAICompatibleStreamStepMBps: Number(openaiStream.mbPerSecond.toFixed(1)),
    openAICompatibleEventsPerSecond: Math.round(openai.events / openaiStream.seconds),
    anthropicStreamStepMBps: Number(anthropicResult.mbPerSecond.toFixed(1)),
    anthropicEventsPerSecond: Math.round(anthropic.events / anthropicResult.seconds),
    openAIResponsesParserOnlyMBps: Number(responsesParser.mbPerSecond.toFixed(1)),
    openAIResponsesStreamStepMBps: Number(responsesResult.mbPerSecond.toFixed(1)),
    openAIResponsesEventsPerSecond: Math.round(responses.events / responsesResult.seconds),
    geminiParserOnlyMBps: Number(geminiParser.mbPerSecond.toFixed(1)),
    geminiStreamStepMBps: Number(geminiResult.mbPerSecond.toFixed(1)),
    geminiChunksPerSecond: Math.round(gemini.events / geminiResult.seconds),
  },
  ndjson: {
    splitAndJsonParseOnlyMBps: Number(ndjsonSplitParse.mbPerSecond.toFixed(1)),
    ollamaStreamStepMBps: Number(ollamaResult.mbPerSecond.toFixed(1)),
    ollamaLinesPerSecond: Math.round(ollama.events / ollamaResult.seconds),
  },
  nextStepOverheadMicrosInMemory: Number(inMemoryMicros.toFixed(1)),
  nextStepLoopbackRoundTripMicros: Number(loopbackMicros.toFixed(1)),
}, null, 2));
