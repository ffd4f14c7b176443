import { afterEach, describe, expect, it } from 'vitest';
import type { HarnessModelAdapter, HarnessModelOutput } from '../core/types/model.js';
import { createFakeGeminiServer, createFakeOpenAIResponsesServer, type FakeModelServer, type FakeServerScript } from '../testing/node/index.js';
import { createModelInput } from './__fixtures__/create-model-input.js';
import { createGeminiModel } from './gemini/create-gemini-model.js';
import type { HttpProviderOptions } from './http/http-provider-options.js';
import { createOpenAIResponsesModel } from './openai-responses/create-openai-responses-model.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const protocols = [
  {
    name: 'OpenAI Responses',
    start: (replies: FakeServerScript[]) => createFakeOpenAIResponsesServer({ replies }),
    model: (url: string, options: HttpProviderOptions): HarnessModelAdapter => createOpenAIResponsesModel({ apiKey: 'test-key-abcdef', ...options, baseUrl: url, model: 'gpt-5-mini' }),
  },
  {
    name: 'Gemini',
    start: (replies: FakeServerScript[]) => createFakeGeminiServer({ replies }),
    model: (url: string, options: HttpProviderOptions): HarnessModelAdapter => createGeminiModel({ apiKey: 'test-key-abcdef', ...options, baseUrl: url, model: 'gemini-2.5-flash' }),
  },
];
const noRetry = { retry: { maxRetries: 0 } };

async function lastOutput(parts: AsyncIterable<{ type: string; output?: HarnessModelOutput }>): Promise<HarnessModelOutput> {
  let output: HarnessModelOutput | undefined;
  for await (const part of parts) if (part.type === 'output') output = part.output;
  return output!;
}

describe.each(protocols)('$name over the shared HTTP layer', (protocol) => {
  it('a stream that goes silent ends as a retryable provider_timeout and the connection is closed', async () => {
    server = await protocol.start([{ text: 'never finished', stallAfterEvents: 2 }]);
    const model = protocol.model(server.url, { ...noRetry, streamIdleTimeoutMs: 50 });
    expect(await lastOutput(model.streamStep!(createModelInput()))).toMatchObject({ type: 'invalid', retryable: true, code: 'provider_timeout' });
    await server.requests[0]!.closed;
  });

  it('a consumer that stops reading after the first delta closes the connection', async () => {
    server = await protocol.start([{ text: 'a long answer that keeps coming', deltaSize: 2, stallAfterEvents: 6 }]);
    const model = protocol.model(server.url, noRetry);
    for await (const part of model.streamStep!(createModelInput())) {
      if (part.type === 'text_delta') break;
    }
    await server.requests[0]!.closed;
    expect(server.requests[0]!.abortedByClient()).toBe(true);
  });

  it("aborting the turn's signal mid-stream ends the step with one output and closes the connection", async () => {
    server = await protocol.start([{ text: 'a long answer that keeps coming', deltaSize: 2, stallAfterEvents: 6 }]);
    const model = protocol.model(server.url, noRetry);
    const controller = new AbortController();
    const outputs: HarnessModelOutput[] = [];
    for await (const part of model.streamStep!(createModelInput({ signal: controller.signal }))) {
      if (part.type === 'text_delta') controller.abort();
      else if (part.type === 'output') outputs.push(part.output);
    }
    expect(outputs).toHaveLength(1);
    expect(outputs[0]).toMatchObject({ type: 'invalid' });
    await server.requests[0]!.closed;
  });

  it('a stream past maxStreamBytes is cut and ends as a non-retryable response_too_large', async () => {
    server = await protocol.start([{ text: 'x'.repeat(200_000), deltaSize: 1000 }]);
    const model = protocol.model(server.url, { ...noRetry, maxStreamBytes: 32 * 1024 });
    expect(await lastOutput(model.streamStep!(createModelInput()))).toMatchObject({
      type: 'invalid',
      kind: 'provider_error',
      retryable: false,
      metadata: { error: { failure: 'response_too_large' } },
    });
  });

  it('a redirect is not followed', async () => {
    server = await protocol.start([{ type: 'http', status: 307, headers: { location: 'https://attacker.invalid/steal' }, body: {} }]);
    const output = await protocol.model(server.url, noRetry).nextStep(createModelInput());
    expect(output).toMatchObject({ type: 'invalid', retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('a key variable that is not set fails before any request, naming the variable but no value', async () => {
    server = await protocol.start([{ text: 'never' }]);
    const output = await protocol.model(server.url, { apiKey: { env: 'P2_UNSET_KEY_VARIABLE' }, env: {} }).nextStep(createModelInput());
    expect(output).toMatchObject({ type: 'invalid', kind: 'provider_error', retryable: false, reason: expect.stringContaining('P2_UNSET_KEY_VARIABLE') });
    expect(server.requests).toHaveLength(0);
  });
});
