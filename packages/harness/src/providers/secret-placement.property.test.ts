import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../__fixtures__/property-runs.js';
import type { HarnessModelAdapter, HarnessModelStreamPart } from '../core/types/model.js';
import { createModelInput, weatherTool } from './__fixtures__/create-model-input.js';
import { findSecret } from './__fixtures__/find-secret.js';
import { anthropicStream, encodeJson, fetchAnswering, ollamaStream, openAIStream, splitBytes } from './__fixtures__/wire-bodies.js';
import { createAnthropicModel } from './anthropic/create-anthropic-model.js';
import { createRedactor } from '../shared/redact-secrets.js';
import { createStreamRedactor } from './http/stream-redactor.js';
import { createOllamaModel } from './ollama/create-ollama-model.js';
import { createOpenAICompatibleModel } from './openai-compatible/create-openai-compatible-model.js';

const encoder = new TextEncoder();
type Escape = 'plain' | 'lower' | 'upper';
type Protocol = 'openai' | 'anthropic' | 'ollama';
type Placement = 'error_body' | 'error_text' | 'stream_text' | 'json_text' | 'stream_arguments' | 'json_arguments' | 'stream_error' | 'call_id' | 'call_name';

/** Secrets with the characters JSON escapes, non-ASCII and astral ones; the prefix keeps them out of our own wording. */
const secretArb = fc
  .string({ minLength: 4, maxLength: 28, unit: fc.constantFrom('a', 'Z', '0', '9', '-', '_', '.', '"', '\\', '/', ' ', 'é', '€', '😀') })
  .map((tail) => `K7q${tail}`);
const escapesArb = fc.array(fc.constantFrom<Escape>('plain', 'plain', 'lower', 'upper'), { minLength: 1, maxLength: 9 });

/** Splits `text` at the given code-unit offsets (a surrogate pair may be split too). */
function splitText(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set([0, ...cuts.map((cut) => cut % (text.length + 1)), text.length])].sort((left, right) => left - right);
  return points.slice(1).map((end, index) => text.slice(points[index], end)).filter((piece) => piece !== '');
}

interface Case {
  protocol: Protocol;
  placement: Placement;
  holder: 'apiKey' | 'header';
  secret: string;
  escapes: Escape[];
  cuts: number[];
  inKey: boolean;
}

/** The wire body (status, content type, bytes) that carries the secret where `c.placement` says. */
function bodyFor(c: Case): { status: number; contentType: string; text: string } {
  const escape = (index: number) => c.escapes[index % c.escapes.length]!;
  const said = `before ${c.secret} after`;
  const args = JSON.parse(encodeJson(c.inKey ? { [c.secret]: 'v' } : { city: said })) as Record<string, unknown>;
  const argumentText = encodeJson(args, escape);
  const call = (id = 'call_1', name = 'lookup_weather') => ({ id, name, argumentPieces: splitText(argumentText, c.cuts) });
  const stream = (reply: Parameters<typeof openAIStream>[0]) => ({
    status: 200,
    contentType: c.protocol === 'ollama' ? 'application/x-ndjson' : 'text/event-stream',
    text: { openai: openAIStream, anthropic: anthropicStream, ollama: ollamaStream }[c.protocol](reply, escape),
  });
  switch (c.placement) {
    case 'error_body':
      return { status: 400, contentType: 'application/json', text: encodeJson({ error: { message: said, code: c.secret, type: c.secret } }, escape) };
    case 'error_text':
      return { status: 401, contentType: 'text/plain', text: encodeJson(said, escape).slice(1, -1) };
    case 'stream_text':
      return stream({ textPieces: splitText(said, c.cuts) });
    case 'stream_error':
      return stream({ textPieces: ['ok'], error: said });
    case 'stream_arguments':
      return stream({ textPieces: [], calls: [call()] });
    case 'call_id':
      return stream({ textPieces: [], calls: [call(`id-${c.secret}`)] });
    case 'call_name':
      return stream({ textPieces: [], calls: [call('call_1', c.secret)] });
    case 'json_text':
    case 'json_arguments': {
      const text = c.placement === 'json_text' ? said : '';
      const body =
        c.protocol === 'ollama'
          ? {
              model: 'm',
              message: { role: 'assistant', content: text, tool_calls: [{ id: 'call_1', function: { name: 'lookup_weather', arguments: args } }] },
              done: true,
              done_reason: 'stop',
            }
          : c.protocol === 'openai'
          ? {
              id: 'c1',
              choices: [
                {
                  index: 0,
                  message: { role: 'assistant', content: text, refusal: c.placement === 'json_text' ? said : null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup_weather', arguments: argumentText } }] },
                  finish_reason: 'tool_calls',
                },
              ],
            }
          : { id: 'm1', content: [{ type: 'text', text }, { type: 'tool_use', id: 'toolu_1', name: 'lookup_weather', input: args }], stop_reason: 'tool_use' };
      return { status: 200, contentType: 'application/json', text: encodeJson(body, escape) };
    }
  }
}

function modelFor(c: Case, chunks: Uint8Array[], status: number, contentType: string): HarnessModelAdapter {
  const fetch = fetchAnswering(chunks, { status, contentType });
  const secrets = c.holder === 'apiKey' ? { apiKey: c.secret } : { apiKey: 'test-key-abcdef', headers: { 'x-custom-token': c.secret } };
  const common = { ...secrets, baseUrl: 'http://127.0.0.1:9/v1', retry: { maxRetries: 0 }, fetch };
  if (c.protocol === 'ollama') return createOllamaModel({ ...common, model: 'qwen3' });
  return c.protocol === 'openai' ? createOpenAICompatibleModel({ ...common, model: 'm' }) : createAnthropicModel({ ...common, model: 'claude', maxTokens: 100 });
}

const caseArb: fc.Arbitrary<Case> = fc.record({
  protocol: fc.constantFrom<Protocol>('openai', 'anthropic', 'ollama'),
  placement: fc.constantFrom<Placement>('error_body', 'error_text', 'stream_text', 'json_text', 'stream_arguments', 'json_arguments', 'stream_error', 'call_id', 'call_name'),
  holder: fc.constantFrom<'apiKey' | 'header'>('apiKey', 'header'),
  secret: secretArb,
  escapes: escapesArb,
  cuts: fc.array(fc.nat({ max: 80 }), { maxLength: 8 }),
  inKey: fc.boolean(),
});

describe('a secret is never visible, wherever the provider puts it', () => {
  it('in error bodies (escaped or not), split text deltas, tool-call arguments, ids and names, and stream errors', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, fc.array(fc.nat(), { maxLength: 6 }), async (c, byteCuts) => {
        const { status, contentType, text } = bodyFor(c);
        const bytes = encoder.encode(text);
        const model = modelFor(c, splitBytes(bytes, byteCuts.map((cut) => cut % (bytes.length + 1))), status, contentType);
        const input = createModelInput({ availableTools: [weatherTool] });
        const parts: HarnessModelStreamPart[] = [];
        if (contentType !== 'application/json' && contentType !== 'text/plain') for await (const part of model.streamStep!(input)) parts.push(part);
        else parts.push({ type: 'output', output: await model.nextStep(input) });
        const deltas = parts.flatMap((part) => (part.type === 'text_delta' ? [part.text] : []));
        expect(findSecret(parts, c.secret)).toEqual([]);
        expect(findSecret(deltas.join(''), c.secret)).toEqual([]);
        expect(parts.at(-1)?.type).toBe('output');
      }),
      { numRuns: propertyRuns() },
    );
  }, 600_000);

  it('the stream redactor never lets a secret through, however the text is cut', () => {
    fc.assert(
      fc.property(fc.array(secretArb, { minLength: 1, maxLength: 3 }), fc.array(fc.string({ maxLength: 6 }), { maxLength: 4 }), fc.array(fc.nat({ max: 200 }), { maxLength: 12 }), (secrets, fillers, cuts) => {
        const text = fillers.reduce((joined, filler, index) => `${joined}${filler}${secrets[index % secrets.length]}`, secrets[0]!);
        const stream = createStreamRedactor(createRedactor(secrets));
        const released = splitText(text, cuts).map((piece) => stream.push(piece)).join('') + stream.flush();
        for (const secret of secrets) expect(released).not.toContain(secret);
        // With one secret, holding back changes nothing: the release is the whole text redacted at once.
        if (secrets.length === 1) expect(released).toBe(createRedactor(secrets).exact(text));
      }),
      { numRuns: propertyRuns() },
    );
  }, 600_000);
});
