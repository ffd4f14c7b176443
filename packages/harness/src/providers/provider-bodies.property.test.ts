import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../__fixtures__/property-runs.js';
import { modelOutputSchema } from '../core/schemas/model-output-schema.js';
import type { HarnessModelAdapter, HarnessModelOutput } from '../core/types/model.js';
import { executionResultSchema } from '../execution/execution-result-schema.js';
import { createModelInput, weatherTool } from './__fixtures__/create-model-input.js';
import { anthropicStream, encodeJson, fetchAnswering, ollamaStream, openAIStream, splitBytes, sseEvent } from './__fixtures__/wire-bodies.js';
import { createAnthropicModel } from './anthropic/create-anthropic-model.js';
import type { FetchFunction } from './http/post-json.js';
import { createOllamaModel } from './ollama/create-ollama-model.js';
import { createOpenAICompatibleModel } from './openai-compatible/create-openai-compatible-model.js';
import { OpenRouterExecutionAdapter } from './openrouter/openrouter-execution-adapter.js';

const encoder = new TextEncoder();
const common = { apiKey: 'test-key-abcdef', retry: { maxRetries: 0 }, baseUrl: 'http://127.0.0.1:9/v1' };

type Protocol = 'openai' | 'anthropic' | 'ollama';
type Reply = { textPieces: string[]; calls: { id: string; name: string; argumentPieces: string[] }[]; reasoningPieces?: string[] };

/** The `fetch` the models below use for the current case. */
let answer: FetchFunction = fetchAnswering([]);
const viaCurrent: FetchFunction = (input, init) => answer(input, init);
const models: Record<Protocol, HarnessModelAdapter> = {
  openai: createOpenAICompatibleModel({ ...common, model: 'm', fetch: viaCurrent }),
  anthropic: createAnthropicModel({ ...common, model: 'claude', maxTokens: 100, fetch: viaCurrent }),
  ollama: createOllamaModel({ ...common, model: 'qwen3', fetch: viaCurrent }),
};

function modelFor(protocol: Protocol, fetch: FetchFunction): HarnessModelAdapter {
  answer = fetch;
  return models[protocol];
}

/**
 * The reasoning a reply streams before its answer: OpenRouter `reasoning` + `reasoning_details`
 * chunks, or Ollama `thinking` lines (Anthropic thinking is not generated here).
 */
function reasoningPrefix(protocol: Protocol, reply: Reply): string {
  const pieces = reply.reasoningPieces ?? [];
  if (protocol === 'openai') {
    return pieces
      .map((piece) => sseEvent(encodeJson({ id: 'c1', model: 'm', choices: [{ index: 0, delta: { reasoning: piece, reasoning_details: [{ type: 'reasoning.text', text: piece, index: 0 }] }, finish_reason: null }] })))
      .join('');
  }
  if (protocol === 'ollama') return pieces.map((piece) => `${encodeJson({ model: 'm', message: { role: 'assistant', content: '', thinking: piece }, done: false })}\n`).join('');
  return '';
}

/** A complete JSON response body for `reply`. */
function jsonBody(protocol: Protocol, reply: Reply): string {
  const text = reply.textPieces.join('');
  const reasoning = (reply.reasoningPieces ?? []).join('');
  if (protocol === 'openai') {
    const toolCalls = reply.calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.argumentPieces.join('') } }));
    const thought = reasoning === '' ? {} : { reasoning, reasoning_details: [{ type: 'reasoning.text', text: reasoning, index: 0 }] };
    return encodeJson({
      id: 'c1',
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: text, ...thought, ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }) }, finish_reason: toolCalls.length === 0 ? 'stop' : 'tool_calls' }],
      usage: { prompt_tokens: 1, completion_tokens: 2 },
    });
  }
  if (protocol === 'ollama') {
    const toolCalls = reply.calls.map((call) => ({ id: call.id, function: { name: call.name, arguments: call.argumentPieces.join('') } }));
    return encodeJson({
      model: 'm',
      message: { role: 'assistant', content: text, ...(reasoning === '' ? {} : { thinking: reasoning }), ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }) },
      done: true,
      done_reason: 'stop',
      prompt_eval_count: 1,
      eval_count: 2,
    });
  }
  const blocks: unknown[] = [{ type: 'text', text }];
  for (const call of reply.calls) {
    let input: unknown;
    try {
      input = JSON.parse(call.argumentPieces.join(''));
    } catch {
      input = call.argumentPieces.join('');
    }
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input });
  }
  return encodeJson({ id: 'msg_1', model: 'claude', content: blocks, stop_reason: reply.calls.length === 0 ? 'end_turn' : 'tool_use', usage: { input_tokens: 1, output_tokens: 2 } });
}

async function run(
  model: HarnessModelAdapter,
  stream: boolean,
): Promise<{ outputs: HarnessModelOutput[]; deltas: string[]; reasoning: string[]; partsAfterOutput: number }> {
  const input = createModelInput({ availableTools: [weatherTool] });
  if (!stream) return { outputs: [await model.nextStep(input)], deltas: [], reasoning: [], partsAfterOutput: 0 };
  const outputs: HarnessModelOutput[] = [];
  const deltas: string[] = [];
  const reasoning: string[] = [];
  let partsAfterOutput = 0;
  for await (const part of model.streamStep!(input)) {
    if (outputs.length > 0) partsAfterOutput += 1;
    if (part.type === 'text_delta') deltas.push(part.text);
    else if (part.type === 'reasoning_delta') reasoning.push(part.text);
    else if (part.type === 'output') outputs.push(part.output);
  }
  return { outputs, deltas, reasoning, partsAfterOutput };
}

/** The output without the measured latency, for comparing two runs. */
function comparable(output: HarnessModelOutput | undefined): unknown {
  if (output === undefined) return undefined;
  const { usage, ...rest } = output;
  const { latencyMs: _latencyMs, ...counted } = usage ?? {};
  return { ...rest, usage: counted };
}

const textArb = fc.string({ maxLength: 12, unit: fc.constantFrom('a', 'b', ' ', 'é', '€', '😀', '"', '\\', '\n', '{', ':') });
const argumentsArb = fc
  .record({ city: textArb, n: fc.integer() })
  .chain((value) => {
    const json = JSON.stringify(value);
    return fc.array(fc.nat({ max: json.length }), { maxLength: 4 }).map((cuts) => {
      const points = [...new Set([0, ...cuts, json.length])].sort((left, right) => left - right);
      return points.slice(1).map((end, index) => json.slice(points[index], end));
    });
  });
const replyArb: fc.Arbitrary<Reply> = fc.record({
  textPieces: fc.array(textArb, { maxLength: 5 }).map((pieces) => ['ok ', ...pieces]),
  calls: fc.array(fc.record({ id: fc.constantFrom('call_1', 'toolu_1', 'x'), name: fc.constant('lookup_weather'), argumentPieces: argumentsArb }), { maxLength: 2 }),
  reasoningPieces: fc.array(textArb, { maxLength: 3 }),
});

/** How a body is damaged: split at byte offsets (lossless), cut short, or bytes overwritten. */
const damageArb = fc.oneof(
  fc.record({ kind: fc.constant('split' as const), cuts: fc.array(fc.nat(), { maxLength: 12 }) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), cuts: fc.array(fc.nat(), { maxLength: 4 }) }),
  fc.record({
    kind: fc.constant('corrupt' as const),
    edits: fc.array(fc.record({ at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 6 }),
    cuts: fc.array(fc.nat(), { maxLength: 4 }),
  }),
);

function applyDamage(
  bytes: Uint8Array,
  spec: { kind: 'split'; cuts: number[] } | { kind: 'cut'; at: number; cuts: number[] } | { kind: 'corrupt'; edits: { at: number; byte: number }[]; cuts: number[] },
): Uint8Array[] {
  const size = Math.max(1, bytes.length);
  const cuts = spec.cuts.map((cut) => cut % size);
  if (spec.kind === 'split') return splitBytes(bytes, cuts);
  if (spec.kind === 'cut') {
    const end = spec.at % size;
    return splitBytes(bytes.slice(0, end), cuts);
  }
  const copy = bytes.slice();
  for (const edit of spec.edits) copy[edit.at % size] = edit.byte;
  return splitBytes(copy, cuts);
}

describe('provider bodies cut, split and corrupted at random points', () => {
  it('always end in exactly one structured output; a lossless split changes nothing; a cut stream is never taken as complete', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<Protocol>('openai', 'anthropic', 'ollama'), fc.boolean(), replyArb, damageArb, async (protocol, stream, reply, spec) => {
        const streamText = { openai: openAIStream, anthropic: anthropicStream, ollama: ollamaStream }[protocol];
        const text = stream ? reasoningPrefix(protocol, reply) + streamText(reply) : jsonBody(protocol, reply);
        const bytes = encoder.encode(text);
        const contentType = stream ? (protocol === 'ollama' ? 'application/x-ndjson' : 'text/event-stream') : 'application/json';
        const damaged = await run(modelFor(protocol, fetchAnswering(applyDamage(bytes, spec), { contentType })), stream);
        const whole = () => run(modelFor(protocol, fetchAnswering([bytes], { contentType })), stream);
        expect(damaged.outputs).toHaveLength(1);
        expect(damaged.partsAfterOutput).toBe(0);
        expect(modelOutputSchema.safeParse(damaged.outputs[0]).success).toBe(true);
        const output = damaged.outputs[0]!;
        if (spec.kind === 'split') {
          const intact = await whole();
          expect(intact.outputs[0]!.type).not.toBe('invalid');
          expect(comparable(output)).toEqual(comparable(intact.outputs[0]));
          expect(damaged.deltas.join('')).toBe(intact.deltas.join(''));
          expect(damaged.reasoning.join('')).toBe(intact.reasoning.join(''));
          if (protocol !== 'anthropic' && stream) expect(intact.reasoning.join('')).toBe((reply.reasoningPieces ?? []).join(''));
        } else if (spec.kind === 'cut' && output.type !== 'invalid') {
          // A cut body is either refused or was cut after its terminal event: then it reads as the whole.
          expect(comparable(output)).toEqual(comparable((await whole()).outputs[0]));
        }
      }),
      { numRuns: propertyRuns() },
    );
  }, 600_000);

  it('the OpenRouter execution adapter returns a valid failed or completed result for any damaged JSON body', async () => {
    const adapter = new OpenRouterExecutionAdapter({ ...common, fetch: viaCurrent });
    await fc.assert(
      fc.asyncProperty(replyArb, damageArb, fc.constantFrom(200, 400, 429, 500), async (reply, spec, status) => {
        const bytes = encoder.encode(jsonBody('openai', { ...reply, calls: [] }));
        answer = fetchAnswering(applyDamage(bytes, spec), { status, contentType: 'application/json' });
        const result = await adapter.execute({
          assistantId: 'a',
          turnId: 't',
          message: { id: 'm', text: 'hi', receivedAt: '2026-01-01T00:00:00.000Z' },
          instructions: { systemPrompt: '' },
        });
        expect(executionResultSchema.safeParse(result).success).toBe(true);
        expect(['completed', 'failed']).toContain(result.status);
        if (status !== 200) expect(result.status).toBe('failed');
      }),
      { numRuns: propertyRuns() },
    );
  }, 600_000);
});
