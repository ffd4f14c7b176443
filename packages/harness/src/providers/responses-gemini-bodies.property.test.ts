import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../__fixtures__/property-runs.js';
import { modelOutputSchema } from '../core/schemas/model-output-schema.js';
import type { HarnessModelAdapter, HarnessModelOutput, HarnessModelStreamPart } from '../core/types/model.js';
import { createModelInput, weatherTool } from './__fixtures__/create-model-input.js';
import { findSecret } from './__fixtures__/find-secret.js';
import { encodeJson, fetchAnswering, splitBytes, sseEvent } from './__fixtures__/wire-bodies.js';
import { createGeminiModel } from './gemini/create-gemini-model.js';
import type { FetchFunction } from './http/post-json.js';
import { createOpenAIResponsesModel } from './openai-responses/create-openai-responses-model.js';

type Protocol = 'responses' | 'gemini';
type Escape = (index: number) => 'plain' | 'lower' | 'upper';
interface Reply {
  /** Reasoning summary (Responses) or thought (Gemini) text, streamed in these pieces. */
  reasoningPieces: string[];
  textPieces: string[];
  calls: { id: string; name: string; argumentPieces: string[] }[];
  error?: string;
}

const encoder = new TextEncoder();

function argumentsOf(call: Reply['calls'][number]): unknown {
  try {
    return JSON.parse(call.argumentPieces.join(''));
  } catch {
    return call.argumentPieces.join('');
  }
}

/** The Responses API SSE text for a reply, in the documented event order. */
function responsesStream(reply: Reply, escape?: Escape): string {
  const event = (type: string, data: Record<string, unknown>) => sseEvent(encodeJson({ type, ...data }, escape), type);
  let out = event('response.created', { response: { id: 'resp_1', status: 'in_progress', output: [] } });
  out += event('response.output_item.added', { output_index: 0, item: { type: 'reasoning', id: 'rs_1', summary: [] } });
  for (const piece of reply.reasoningPieces) out += event('response.reasoning_summary_text.delta', { item_id: 'rs_1', output_index: 0, summary_index: 0, delta: piece });
  out += event('response.output_item.done', { output_index: 0, item: reasoningItem(reply) });
  out += event('response.output_item.added', { output_index: 1, item: { type: 'message', id: 'msg_1', role: 'assistant', content: [] } });
  for (const piece of reply.textPieces) out += event('response.output_text.delta', { item_id: 'msg_1', output_index: 1, content_index: 0, delta: piece });
  reply.calls.forEach((call, offset) => {
    const index = offset + 2;
    out += event('response.output_item.added', { output_index: index, item: { type: 'function_call', id: `fc_${index}`, call_id: call.id, name: call.name, arguments: '' } });
    for (const piece of call.argumentPieces) out += event('response.function_call_arguments.delta', { item_id: `fc_${index}`, output_index: index, delta: piece });
  });
  if (reply.error !== undefined) return out + event('error', { code: 'server_error', message: reply.error });
  return out + event('response.completed', { response: { id: 'resp_1', status: 'completed', usage: { input_tokens: 1, output_tokens: 2 } } });
}

function reasoningItem(reply: Reply): Record<string, unknown> {
  return { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: reply.reasoningPieces.join('') }], encrypted_content: 'gAAAAB_enc' };
}

/** A Responses API response object for a reply. */
function responsesJson(reply: Reply, escape?: Escape): string {
  const output: unknown[] = [reasoningItem(reply), { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: reply.textPieces.join('') }] }];
  reply.calls.forEach((call, offset) => output.push({ type: 'function_call', id: `fc_${offset + 2}`, call_id: call.id, name: call.name, arguments: call.argumentPieces.join('') }));
  const failure = reply.error === undefined ? {} : { status: 'failed', error: { code: 'server_error', message: reply.error } };
  return encodeJson({ id: 'resp_1', status: 'completed', output, usage: { input_tokens: 1, output_tokens: 2 }, ...failure }, escape);
}

/** Gemini `streamGenerateContent?alt=sse` text for a reply: text chunks, one chunk of calls, the finish. */
function geminiStream(reply: Reply, escape?: Escape): string {
  const chunk = (parts: unknown[], extra: Record<string, unknown> = {}) =>
    sseEvent(encodeJson({ candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }], modelVersion: 'g' }, escape));
  let out = '';
  for (const piece of reply.reasoningPieces) out += chunk([{ text: piece, thought: true }]);
  for (const piece of reply.textPieces) out += chunk([{ text: piece }]);
  if (reply.calls.length > 0) out += chunk(reply.calls.map(geminiCall));
  if (reply.error !== undefined) return out + sseEvent(encodeJson({ error: { code: 500, message: reply.error, status: 'INTERNAL' } }, escape));
  return out + chunk([{ text: '' }], { finishReason: 'STOP' });
}

/** A Gemini `GenerateContentResponse` for a reply. */
function geminiJson(reply: Reply, escape?: Escape): string {
  if (reply.error !== undefined) return encodeJson({ error: { code: 500, message: reply.error, status: 'INTERNAL' } }, escape);
  const parts: unknown[] = [{ text: reply.reasoningPieces.join(''), thought: true }, { text: reply.textPieces.join('') }, ...reply.calls.map(geminiCall)];
  return encodeJson({ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 2 } }, escape);
}

/** A function-call part; the first carries a thought signature, as thinking models send it. */
function geminiCall(call: Reply['calls'][number], index: number): Record<string, unknown> {
  return { functionCall: { id: call.id, name: call.name, args: argumentsOf(call) }, ...(index === 0 ? { thoughtSignature: 'c2lnX2Zha2U=' } : {}) };
}

function body(protocol: Protocol, stream: boolean, reply: Reply, escape?: Escape): string {
  if (protocol === 'responses') return stream ? responsesStream(reply, escape) : responsesJson(reply, escape);
  return stream ? geminiStream(reply, escape) : geminiJson(reply, escape);
}

function modelFor(protocol: Protocol, fetch: FetchFunction, secrets: { apiKey: string; headers?: Record<string, string> } = { apiKey: 'test-key-abcdef' }): HarnessModelAdapter {
  const common = { ...secrets, baseUrl: 'http://127.0.0.1:9/v1', retry: { maxRetries: 0 }, fetch };
  return protocol === 'responses' ? createOpenAIResponsesModel({ ...common, model: 'm' }) : createGeminiModel({ ...common, model: 'gemini-test' });
}

async function run(
  model: HarnessModelAdapter,
  stream: boolean,
): Promise<{ parts: HarnessModelStreamPart[]; outputs: HarnessModelOutput[]; deltas: string; reasoning: string; afterOutput: number }> {
  const input = createModelInput({ availableTools: [weatherTool] });
  const parts: HarnessModelStreamPart[] = [];
  if (stream) for await (const part of model.streamStep!(input)) parts.push(part);
  else parts.push({ type: 'output', output: await model.nextStep(input) });
  const outputs = parts.flatMap((part) => (part.type === 'output' ? [part.output] : []));
  const first = parts.findIndex((part) => part.type === 'output');
  return {
    parts,
    outputs,
    deltas: parts.flatMap((part) => (part.type === 'text_delta' ? [part.text] : [])).join(''),
    reasoning: parts.flatMap((part) => (part.type === 'reasoning_delta' ? [part.text] : [])).join(''),
    afterOutput: parts.length - first - 1,
  };
}

function comparable(output: HarnessModelOutput | undefined): unknown {
  if (output === undefined) return undefined;
  const { usage, ...rest } = output;
  const { latencyMs: _latencyMs, ...counted } = usage ?? {};
  // Ids the adapter makes up for calls without usable ids differ between runs.
  return JSON.parse(JSON.stringify({ ...rest, usage: counted }).replace(/(?:call|gemini_local)_[0-9a-f]{24}/g, 'call_generated'));
}

const protocolArb = fc.constantFrom<Protocol>('responses', 'gemini');
const textArb = fc.string({ maxLength: 12, unit: fc.constantFrom('a', 'b', ' ', 'é', '€', '😀', '"', '\\', '\n', '{', ':') });
const piecesOf = (json: string) =>
  fc.array(fc.nat({ max: json.length }), { maxLength: 4 }).map((cuts) => {
    const points = [...new Set([0, ...cuts, json.length])].sort((left, right) => left - right);
    return points.slice(1).map((end, index) => json.slice(points[index], end));
  });
const replyArb: fc.Arbitrary<Reply> = fc.record({
  reasoningPieces: fc.array(textArb, { maxLength: 4 }),
  textPieces: fc.array(textArb, { maxLength: 5 }).map((pieces) => ['ok ', ...pieces]),
  calls: fc.array(
    fc.record({
      id: fc.constantFrom('call_1', 'fc-1', 'x'),
      name: fc.constant('lookup_weather'),
      argumentPieces: fc.record({ city: textArb, n: fc.integer() }).chain((value) => piecesOf(JSON.stringify(value))),
    }),
    { maxLength: 2 },
  ),
});

describe('Responses API and Gemini bodies split and cut at random byte offsets', () => {
  it('always end in exactly one structured output; a split changes nothing; a cut stream is never taken as complete', async () => {
    await fc.assert(
      fc.asyncProperty(protocolArb, fc.boolean(), replyArb, fc.array(fc.nat(), { maxLength: 12 }), fc.option(fc.nat()), async (protocol, stream, reply, cuts, cutAt) => {
        const bytes = encoder.encode(body(protocol, stream, reply));
        const contentType = stream ? 'text/event-stream' : 'application/json';
        const size = Math.max(1, bytes.length);
        const sent = cutAt === null ? bytes : bytes.slice(0, cutAt % size);
        const damaged = await run(modelFor(protocol, fetchAnswering(splitBytes(sent, cuts.map((cut) => cut % size)), { contentType })), stream);
        expect(damaged.outputs).toHaveLength(1);
        expect(damaged.afterOutput).toBe(0);
        expect(modelOutputSchema.safeParse(damaged.outputs[0]).success).toBe(true);
        const whole = await run(modelFor(protocol, fetchAnswering([bytes], { contentType })), stream);
        expect(whole.outputs[0]!.type).not.toBe('invalid');
        if (cutAt === null || damaged.outputs[0]!.type !== 'invalid') {
          // Split losslessly, or cut after the terminal event: it reads exactly as the whole body.
          expect(comparable(damaged.outputs[0])).toEqual(comparable(whole.outputs[0]));
          if (cutAt === null) expect(damaged.deltas).toBe(whole.deltas);
          if (cutAt === null) expect(damaged.reasoning).toBe(whole.reasoning);
        }
      }),
      { numRuns: propertyRuns() },
    );
  }, 600_000);
});

type Placement = 'error_body' | 'stream_text' | 'json_text' | 'stream_reasoning' | 'json_reasoning' | 'stream_arguments' | 'json_arguments' | 'stream_error' | 'call_id' | 'call_name';
const secretArb = fc
  .string({ minLength: 4, maxLength: 28, unit: fc.constantFrom('a', 'Z', '0', '9', '-', '_', '.', '"', '\\', '/', ' ', 'é', '€', '😀') })
  .map((tail) => `K7q${tail}`);

describe('a secret is never visible in Responses API or Gemini outputs, wherever the provider puts it', () => {
  it('in error bodies, split text and reasoning deltas, arguments (escaped, in keys or values), call ids and names, and stream errors', async () => {
    const placementArb = fc.constantFrom<Placement>(
      'error_body',
      'stream_text',
      'json_text',
      'stream_reasoning',
      'json_reasoning',
      'stream_arguments',
      'json_arguments',
      'stream_error',
      'call_id',
      'call_name',
    );
    const escapesArb = fc.array(fc.constantFrom<'plain' | 'lower' | 'upper'>('plain', 'plain', 'lower', 'upper'), { minLength: 1, maxLength: 9 });
    await fc.assert(
      fc.asyncProperty(
        protocolArb,
        placementArb,
        fc.boolean(),
        secretArb,
        escapesArb,
        fc.array(fc.nat({ max: 80 }), { maxLength: 8 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (protocol, placement, inHeader, secret, escapes, cuts, inKey, byteCuts) => {
          const escape: Escape = (index) => escapes[index % escapes.length]!;
          const said = `before ${secret} after`;
          const argumentsText = JSON.stringify(inKey ? { [secret]: 'v' } : { city: said });
          const pieces = (text: string) => {
            const points = [...new Set([0, ...cuts.map((cut) => cut % (text.length + 1)), text.length])].sort((left, right) => left - right);
            return points.slice(1).map((end, index) => text.slice(points[index], end)).filter((piece) => piece !== '');
          };
          const call = { id: placement === 'call_id' ? `id-${secret}` : 'call_1', name: placement === 'call_name' ? secret : 'lookup_weather', argumentPieces: pieces(argumentsText) };
          const stream = placement.startsWith('stream') || placement === 'call_id' || placement === 'call_name';
          let status = 200;
          let text: string;
          if (placement === 'error_body') {
            status = 400;
            text = encodeJson({ error: { message: said, code: 400, status: secret, type: secret } }, escape);
          } else {
            const reply: Reply = {
              reasoningPieces: placement.endsWith('_reasoning') ? pieces(said) : [],
              textPieces: placement.endsWith('_text') ? pieces(said) : ['ok'],
              calls: placement.endsWith('_arguments') || placement === 'call_id' || placement === 'call_name' ? [call] : [],
              ...(placement === 'stream_error' ? { error: said } : {}),
            };
            text = body(protocol, stream, reply, escape);
          }
          const bytes = encoder.encode(text);
          const fetch = fetchAnswering(splitBytes(bytes, byteCuts.map((cut) => cut % (bytes.length + 1))), { status, contentType: stream ? 'text/event-stream' : 'application/json' });
          const secrets = inHeader ? { apiKey: 'test-key-abcdef', headers: { 'x-custom-token': secret } } : { apiKey: secret };
          const result = await run(modelFor(protocol, fetch, secrets), stream);
          expect(findSecret(result.parts, secret)).toEqual([]);
          expect(findSecret(result.deltas, secret)).toEqual([]);
          expect(result.parts.at(-1)?.type).toBe('output');
        },
      ),
      { numRuns: propertyRuns() },
    );
  }, 600_000);
});
