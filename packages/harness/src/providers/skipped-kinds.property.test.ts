import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../__fixtures__/property-runs.js';
import { modelOutputSchema } from '../core/schemas/model-output-schema.js';
import type { HarnessModelAdapter, HarnessModelOutput } from '../core/types/model.js';
import { createModelInput, weatherTool } from './__fixtures__/create-model-input.js';
import { fetchAnswering, sseEvent } from './__fixtures__/wire-bodies.js';
import { createOpenAICompatibleModel } from './openai-compatible/create-openai-compatible-model.js';
import { createOpenAIResponsesModel } from './openai-responses/create-openai-responses-model.js';

// Whatever a provider adds that the adapter does not read — items, parts or events of other types,
// with any fields (objects where we would expect strings, `__proto__` keys) — changes nothing but
// the output's notes: the step reads the same as without them.

const encoder = new TextEncoder();
const readTypes = new Set(['message', 'function_call', 'reasoning', 'output_text', 'refusal', 'text', 'thinking']);
const otherType = fc
  .oneof(fc.constantFrom('tool_search_call', 'web_search_call', 'image_generation_call', 'reference', '__proto__', 'constructor'), fc.string({ maxLength: 20 }))
  .filter((type) => !readTypes.has(type) && !type.startsWith('response.'));
const fields = fc.dictionary(fc.constantFrom('arguments', 'delta', 'text', 'content', 'id', '__proto__', 'query'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
const foreign = fc.tuple(otherType, fields).map(([type, extra]) => ({ ...extra, type }));
/** Where to put each foreign value among `count` known ones. */
const mixedWith = <T>(known: T[], others: fc.Arbitrary<unknown[]>) =>
  others.chain((extra) =>
    fc.array(fc.nat({ max: known.length }), { minLength: extra.length, maxLength: extra.length }).map((at) => {
      const mixed: unknown[] = [...known];
      extra.forEach((value, index) => mixed.splice(Math.min(at[index]!, mixed.length), 0, value));
      return mixed;
    }),
  );

function model(kind: 'responses' | 'chat', text: string, contentType = 'application/json'): HarnessModelAdapter {
  const fetch = fetchAnswering([encoder.encode(text)], { contentType });
  const common = { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'test-key-abcdef', retry: { maxRetries: 0 }, fetch };
  return kind === 'responses' ? createOpenAIResponsesModel({ ...common, model: 'gpt-5-mini' }) : createOpenAICompatibleModel({ ...common, model: 'm' });
}

async function step(adapter: HarnessModelAdapter, stream: boolean): Promise<HarnessModelOutput> {
  const input = createModelInput({ availableTools: [weatherTool] });
  if (!stream) return adapter.nextStep(input);
  let output: HarnessModelOutput | undefined;
  for await (const part of adapter.streamStep!(input)) if (part.type === 'output') output = part.output;
  return output!;
}

/** The output without what differs between two calls (latency, notes). */
function comparable(output: HarnessModelOutput): unknown {
  const { usage, notes: _notes, ...rest } = output;
  const { latencyMs: _latencyMs, ...counted } = usage ?? {};
  const { requestBytes: _requestBytes, ...metadata } = rest.metadata ?? {};
  return JSON.parse(JSON.stringify({ ...rest, metadata, usage: counted })) as unknown;
}

const message = (text: string) => ({ type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] });
const call = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'lookup_weather', arguments: '{"city":"Oslo"}' };
const responseBody = (output: unknown[]) => JSON.stringify({ id: 'resp_1', status: 'completed', output, usage: { input_tokens: 3, output_tokens: 4 } });

describe('kinds an adapter does not read change nothing but notes', () => {
  it('Responses: foreign output items and content parts, JSON and in response.completed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        mixedWith([message('Sunny.'), call], fc.array(foreign, { maxLength: 4 })),
        fc.array(foreign, { maxLength: 3 }),
        async (stream, items, parts) => {
          const withParts = items.map((item) => ((item as { type?: unknown }).type === 'message' ? { ...message('Sunny.'), content: [...parts, ...message('Sunny.').content] } : item));
          const render = (output: unknown[]) =>
            stream ? sseEvent(JSON.stringify({ type: 'response.completed', response: JSON.parse(responseBody(output)) as unknown }), 'response.completed') : responseBody(output);
          const type = stream ? 'text/event-stream' : 'application/json';
          const plain = await step(model('responses', render([message('Sunny.'), call]), type), stream);
          const mixed = await step(model('responses', render(withParts), type), stream);
          expect(modelOutputSchema.safeParse(mixed).success).toBe(true);
          expect(comparable(mixed)).toEqual(comparable(plain));
          expect(mixed.type).toBe('tool_request');
          // One note per foreign item (each has its own index); foreign parts of one type share one.
          expect((mixed.notes ?? []).length).toBe(items.length - 2 + new Set(parts.map((part) => part.type)).size);
        },
      ),
      { numRuns: propertyRuns() },
    );
  });

  it('Responses: foreign stream events with any fields between the events it reads', async () => {
    const known = [
      sseEvent(JSON.stringify({ type: 'response.output_item.added', output_index: 0, item: { ...message(''), content: [] } })),
      sseEvent(JSON.stringify({ type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'Sun' })),
      sseEvent(JSON.stringify({ type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'ny.' })),
    ];
    const end = sseEvent(JSON.stringify({ type: 'response.completed', response: { id: 'resp_1', status: 'completed', usage: { input_tokens: 3, output_tokens: 4 } } }));
    const foreignEvent = fc
      .tuple(fc.string({ maxLength: 16 }).map((name) => `response.${name}`), fields)
      .filter(([type]) => type !== 'response.completed' && type !== 'response.incomplete' && type !== 'response.failed' && !type.includes('delta') && !type.startsWith('response.output_'))
      .map(([type, extra]) => sseEvent(JSON.stringify({ ...extra, type })));
    await fc.assert(
      fc.asyncProperty(mixedWith(known, fc.array(foreignEvent, { maxLength: 5 })), async (events) => {
        const plain = await step(model('responses', [...known, end].join(''), 'text/event-stream'), true);
        const mixed = await step(model('responses', [...(events as string[]), end].join(''), 'text/event-stream'), true);
        expect(mixed).toMatchObject({ type: 'final_answer', text: 'Sunny.' });
        expect(comparable(mixed)).toEqual(comparable(plain));
      }),
      { numRuns: propertyRuns() },
    );
  });

  it('chat completions: foreign content parts, streamed and not', async () => {
    const textParts = [{ type: 'text', text: 'Sunny' }, { type: 'thinking', thinking: [{ type: 'text', text: 'Hm.' }] }, { type: 'text', text: ' today.' }];
    await fc.assert(
      fc.asyncProperty(fc.boolean(), mixedWith(textParts, fc.array(foreign, { maxLength: 4 })), async (stream, content) => {
        const render = (parts: unknown[]) =>
          stream
            ? sseEvent(JSON.stringify({ choices: [{ index: 0, delta: { content: parts }, finish_reason: 'stop' }] })) + sseEvent('[DONE]')
            : JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: parts }, finish_reason: 'stop' }] });
        const type = stream ? 'text/event-stream' : 'application/json';
        const plain = await step(model('chat', render(textParts), type), stream);
        const mixed = await step(model('chat', render(content), type), stream);
        expect(mixed).toMatchObject({ type: 'final_answer', text: 'Sunny today.', reasoning: [{ text: 'Hm.' }] });
        expect(comparable(mixed)).toEqual(comparable(plain));
        expect((mixed.notes ?? []).length > 0).toBe(content.length > textParts.length);
      }),
      { numRuns: propertyRuns() },
    );
  });
});
