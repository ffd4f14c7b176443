import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { closeServer } from './loopback-servers.js';
import { createHarness } from '../core/create-harness.js';
import type { HarnessModelAdapter } from '../core/types/model.js';
import type { HarnessResult } from '../core/types/result.js';
import type { HarnessAssistantStepItem } from '../core/types/transcript.js';
import { createFakeToolRegistry, createTurnInput } from '../testing/index.js';
import { createAnthropicModel } from '../providers/anthropic/create-anthropic-model.js';
import { createGeminiModel } from '../providers/gemini/create-gemini-model.js';
import type { HttpProviderOptions } from '../providers/http/http-provider-options.js';
import type { FetchFunction } from '../providers/http/post-json.js';
import { createOllamaModel } from '../providers/ollama/create-ollama-model.js';
import { createOpenAICompatibleModel } from '../providers/openai-compatible/create-openai-compatible-model.js';
import { createOpenAIResponsesModel } from '../providers/openai-responses/create-openai-responses-model.js';
import { knownFailures } from '../providers/__fixtures__/real-traffic/known-failures.js';

/** The wire protocols the corpus covers (one adapter each). */
export type Protocol = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini' | 'ollama';

/** What a recording must parse to, through `createHarness` with the protocol's adapter. */
export interface ExpectedParse {
  outcome: 'completed' | 'failed' | 'deferred';
  /** The step's text: the final answer, or what the model said before its tool calls. */
  text?: string;
  /** Reasoning parts of the step, in order (only the fields given are compared). */
  reasoning?: { text?: string; signature?: string; data?: string }[];
  /** Tool calls of the step, in order; `id` is compared only where the provider sent one. */
  toolCalls?: { id?: string; name: string; input: Record<string, unknown> }[];
  /** Usage of the step as the harness sums it (`inputTokens` includes cache reads). */
  usage?: { inputTokens?: number; outputTokens?: number; cachedInputTokens?: number; reasoningTokens?: number };
  /** The turn ends `failed` / `model_refused`. */
  refusal?: boolean;
  /** A failed turn: our code, whether running the turn again can help, and the provider's own code. */
  error?: { code?: string; retryable: boolean; providerCode?: string; message?: string };
  /** Exactly this many requests reach the server (a non-retryable error: 1). */
  requests?: number;
  /** At most this many requests reach the server (a retryable error: one step's retry budget). */
  maxRequests?: number;
}

/** One recorded response and where it came from. */
export interface Recording {
  id: string;
  protocol: Protocol;
  vendor: string;
  file: string;
  streaming: boolean;
  status: number;
  contentType: string;
  source: string;
  licence: string;
  changes: string;
  expect: ExpectedParse;
}

const folder = new URL('../providers/__fixtures__/real-traffic/', import.meta.url);

/** The corpus: every recording of manifest.json with its bytes. */
export function loadCorpus(): { recording: Recording; body: Uint8Array }[] {
  const manifest = JSON.parse(readFileSync(new URL('manifest.json', folder), 'utf8')) as { recordings: Recording[] };
  return manifest.recordings.map((recording) => ({ recording, body: new Uint8Array(readFileSync(new URL(recording.file, folder))) }));
}

/** Recordings known to parse wrong today, by id, with the issue 23 items that fix them. */
export function knownFailure(id: string): { items: readonly number[]; note: string } | undefined {
  return knownFailures.get(id);
}

/** Byte offsets worth cutting at: after every line feed and inside every multi-byte UTF-8 character. */
export function interestingCuts(body: Uint8Array): number[] {
  const cuts: number[] = [];
  for (let index = 0; index < body.length; index += 1) {
    const byte = body[index]!;
    if (byte === 0x0a) cuts.push(index + 1);
    else if ((byte & 0xc0) === 0x80) cuts.push(index);
  }
  return cuts;
}

/** Splits `body` at `cuts` (any order, duplicates and out-of-range values ignored). */
export function cutBody(body: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.filter((cut) => cut > 0 && cut < body.length))].sort((left, right) => left - right);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, body.length]) {
    pieces.push(body.subarray(start, point));
    start = point;
  }
  return pieces;
}

const followUpText = 'Done.';

/** A plain final answer in the protocol, sent for every request after the recording's step. */
function followUp(protocol: Protocol, streaming: boolean): string {
  switch (protocol) {
    case 'openai-chat':
      return streaming
        ? `data: ${JSON.stringify({ id: 'f', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: followUpText }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`
        : JSON.stringify({ id: 'f', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: followUpText }, finish_reason: 'stop' }] });
    case 'openai-responses': {
      const item = { type: 'message', id: 'msg_f', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: followUpText, annotations: [] }] };
      const response = { id: 'resp_f', object: 'response', status: 'completed', output: [item] };
      if (!streaming) return JSON.stringify(response);
      const delta = { type: 'response.output_text.delta', item_id: 'msg_f', output_index: 0, content_index: 0, delta: followUpText };
      return [delta, { type: 'response.completed', response }].map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');
    }
    case 'anthropic': {
      const message = { id: 'msg_f', type: 'message', role: 'assistant', model: 'm', content: [{ type: 'text', text: followUpText }], stop_reason: 'end_turn' };
      if (!streaming) return JSON.stringify(message);
      return [
        { type: 'message_start', message: { ...message, content: [], stop_reason: null } },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: followUpText } },
        { type: 'content_block_stop', index: 0 },
        { type: 'message_delta', delta: { stop_reason: 'end_turn' } },
        { type: 'message_stop' },
      ]
        .map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
        .join('');
    }
    case 'gemini': {
      const body = JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: followUpText }] }, finishReason: 'STOP', index: 0 }] });
      return streaming ? `data: ${body}\r\n\r\n` : body;
    }
    case 'ollama': {
      const body = JSON.stringify({ model: 'm', message: { role: 'assistant', content: followUpText }, done: true, done_reason: 'stop' });
      return streaming ? `${body}\n` : body;
    }
  }
}

/** A loopback server answering the first request (every request, for an error) with the recording cut in `pieces`. */
async function serveRecording(recording: Recording, pieces: readonly Uint8Array[]): Promise<{ server: Server; origin: string; requests: () => number }> {
  let requests = 0;
  const replayEveryTime = recording.expect.outcome !== 'completed';
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      requests += 1;
      if (requests > 1 && !replayEveryTime) {
        response.writeHead(200, { 'content-type': recording.streaming ? recording.contentType : 'application/json' });
        response.end(followUp(recording.protocol, recording.streaming));
        return;
      }
      // No content-length: chunked transfer, one chunk per piece, so the client reads the cuts.
      response.writeHead(recording.status, { 'content-type': recording.contentType });
      for (const piece of pieces) response.write(piece);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests };
}

const retry = { initialDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 50 };

/**
 * `fetch` over the loopback server that hands the adapter the recording's body in exactly
 * `pieces` (fetch itself would merge pieces that arrive together into one read); other bodies
 * (the follow-up answers) pass through as received.
 */
function fetchInPieces(body: Uint8Array, pieces: readonly Uint8Array[]): FetchFunction {
  return async (url, init) => {
    const response = await fetch(url, init);
    const received = new Uint8Array(await response.arrayBuffer());
    const recorded = received.length === body.length && received.every((byte, index) => byte === body[index]);
    const chunks = recorded ? pieces : [received];
    let next = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks[next++];
        if (chunk === undefined) controller.close();
        else controller.enqueue(chunk.slice());
      },
    });
    return new Response(stream, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

function modelFor(protocol: Protocol, origin: string, fetchFunction: FetchFunction): HarnessModelAdapter {
  const options = { apiKey: 'test-key-real-traffic-0123456789', retry, fetch: fetchFunction } satisfies HttpProviderOptions;
  switch (protocol) {
    case 'openai-chat':
      return createOpenAICompatibleModel({ ...options, baseUrl: `${origin}/v1`, model: 'recorded-model' });
    case 'openai-responses':
      return createOpenAIResponsesModel({ ...options, baseUrl: `${origin}/v1`, model: 'recorded-model' });
    case 'anthropic':
      return createAnthropicModel({ ...options, baseUrl: `${origin}/v1`, model: 'recorded-model', maxTokens: 1024 });
    case 'gemini':
      return createGeminiModel({ ...options, baseUrl: `${origin}/v1beta`, model: 'gemini-2.5-flash' });
    case 'ollama':
      return createOllamaModel({ ...options, baseUrl: origin, model: 'recorded-model' });
  }
}

function concat(pieces: readonly Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(pieces.reduce((total, piece) => total + piece.length, 0));
  let offset = 0;
  for (const piece of pieces) {
    whole.set(piece, offset);
    offset += piece.length;
  }
  return whole;
}

/** What a replayed turn produced. */
export interface Replay {
  result: HarnessResult;
  textDeltas: string[];
  reasoningDeltas: string[];
  requests: number;
}

/**
 * Serves `recording` over loopback (written in `pieces`), hands it to the protocol's adapter in
 * exactly those pieces, and runs one turn through `createHarness`.
 */
export async function replay(recording: Recording, pieces: readonly Uint8Array[]): Promise<Replay> {
  const { server, origin, requests } = await serveRecording(recording, pieces);
  try {
    const tools = createFakeToolRegistry(Object.fromEntries((recording.expect.toolCalls ?? []).map((call) => [call.name, () => 'ok'])));
    const harness = createHarness({ model: modelFor(recording.protocol, origin, fetchInPieces(concat(pieces), pieces)), tools });
    const textDeltas: string[] = [];
    const reasoningDeltas: string[] = [];
    let result: HarnessResult;
    if (recording.streaming) {
      const stream = harness.streamTurn(createTurnInput({ text: 'Replay the recording.' }));
      for await (const event of stream) {
        if (event.type === 'text_delta') textDeltas.push(event.text);
        else if (event.type === 'reasoning_delta') reasoningDeltas.push(event.text);
      }
      result = await stream.result;
    } else {
      result = await harness.runTurn(createTurnInput({ text: 'Replay the recording.' }));
    }
    return { result, textDeltas, reasoningDeltas, requests: requests() };
  } finally {
    await closeServer(server);
  }
}

/** Asserts that `replayed` is the manifest's expected parse of `recording`. */
export function expectParse(recording: Recording, replayed: Replay): void {
  const { expect: expected } = recording;
  const { result } = replayed;
  expect({ outcome: result.outcome, error: result.error }).toMatchObject({ outcome: expected.outcome });
  const step = result.transcript.find((item): item is HarnessAssistantStepItem => item.type === 'assistant_step');
  if (expected.toolCalls !== undefined) {
    expect(step).toMatchObject({ outputType: 'tool_request' });
    expect(step!.calls!.map(({ name, input }) => ({ name, input }))).toEqual(expected.toolCalls.map(({ name, input }) => ({ name, input })));
    expected.toolCalls.forEach((call, index) => {
      if (call.id !== undefined) expect(step!.calls![index]!.id).toBe(call.id);
    });
    expect(result.assistantMessage?.text).toBe(followUpText);
  }
  if (expected.text !== undefined) {
    const said = expected.toolCalls === undefined ? result.assistantMessage?.text : step?.text;
    expect((said ?? '').trim()).toBe(expected.text.trim());
    if (recording.streaming && expected.outcome === 'completed') {
      expect(replayed.textDeltas.join('').trim()).toBe(`${expected.text}${expected.toolCalls === undefined ? '' : followUpText}`.trim());
    }
  }
  if (expected.reasoning !== undefined) {
    expect(step?.reasoning ?? []).toHaveLength(expected.reasoning.length);
    // Reasoning text is compared without surrounding whitespace (adapters may trim what they keep).
    const trimmed = <T extends { text?: string | undefined }>(part: T): T => (part.text === undefined ? part : { ...part, text: part.text.trim() });
    expected.reasoning.forEach((part, index) => expect(trimmed(step!.reasoning![index]!)).toMatchObject(trimmed(part)));
    if (recording.streaming) {
      expect(replayed.reasoningDeltas.join('').trim()).toBe(expected.reasoning.map((part) => part.text ?? '').join('').trim());
    }
  }
  if (expected.usage !== undefined) {
    const { inputTokens, outputTokens, cachedInputTokens, reasoningTokens } = expected.usage;
    expect(result.usage).toMatchObject({
      ...(inputTokens === undefined ? {} : { totalInputTokens: inputTokens }),
      ...(outputTokens === undefined ? {} : { totalOutputTokens: outputTokens }),
      ...(cachedInputTokens === undefined ? {} : { totalCachedInputTokens: cachedInputTokens }),
      ...(reasoningTokens === undefined ? {} : { totalReasoningTokens: reasoningTokens }),
    });
  }
  if (expected.refusal === true) expect(result).toMatchObject({ outcome: 'failed', stopReason: 'model_refused' });
  if (expected.error !== undefined) {
    const { code, retryable, providerCode, message } = expected.error;
    expect(result.error).toMatchObject({ retryable, ...(code === undefined ? {} : { code }) });
    if (message !== undefined) expect(result.error!.message).toContain(message);
    // Field-name agnostic: the provider's own code must reach the result's error (issue 23 item 12).
    if (providerCode !== undefined) expect(JSON.stringify(result.error)).toContain(providerCode);
  }
  if (expected.requests !== undefined) expect(replayed.requests).toBe(expected.requests);
  if (expected.maxRequests !== undefined) expect(replayed.requests).toBeLessThanOrEqual(expected.maxRequests);
}
