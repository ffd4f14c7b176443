import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicModel, createHarness, createOpenAICompatibleModel, HarnessConfigError } from '../../index.js';
import { createTurnInput } from '../../testing/index.js';
import { createFakeOpenAICompatibleServer, type FakeModelServer } from '../../testing/node/index.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function chatCompletion(text: string): Response {
  return new Response(
    JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] }),
    { status: 200, headers: { 'content-type': 'application/json' } },
  );
}

describe('endpoint opt-ins', () => {
  it('refuses a docker-compose http host by default and says how to allow that one host', () => {
    expect(() => createOpenAICompatibleModel({ baseUrl: 'http://ollama:11434/v1', model: 'qwen3' })).toThrow(
      expect.objectContaining({ field: 'baseUrl', message: expect.stringContaining("allowInsecureHttp: ['ollama']") }),
    );
  });

  it('allows plain http on exactly the listed hosts', async () => {
    const seen: string[] = [];
    const model = createOpenAICompatibleModel({
      baseUrl: 'http://ollama:11434/v1',
      model: 'qwen3',
      allowInsecureHttp: ['ollama'],
      fetch: async (url) => {
        seen.push(String(url));
        return chatCompletion('hi from ollama');
      },
    });
    const result = await createHarness({ model }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'hi from ollama' } });
    expect(seen).toEqual(['http://ollama:11434/v1/chat/completions']);
    expect(() => createOpenAICompatibleModel({ baseUrl: 'http://other:11434/v1', model: 'm', allowInsecureHttp: ['ollama'] })).toThrow(HarnessConfigError);
    expect(() => createOpenAICompatibleModel({ baseUrl: 'http://ollama/v1', model: 'm', allowInsecureHttp: 'ollama' as never })).toThrow(
      expect.objectContaining({ field: 'allowInsecureHttp' }),
    );
  });

  it('adds fixed query parameters (Azure api-version) to every request, keeping the protocol path', async () => {
    server = await createFakeOpenAICompatibleServer({ replies: [{ text: 'one' }, { text: 'two' }] });
    const model = createOpenAICompatibleModel({
      baseUrl: server.url,
      model: 'gpt',
      apiKey: 'sk-azure-key-1234567890',
      queryParameters: { 'api-version': '2024-10-21' },
    });
    const harness = createHarness({ model });
    await harness.runTurn(createTurnInput());
    await harness.runTurn(createTurnInput());
    expect(server.requests.map((request) => [request.path, request.search])).toEqual([
      ['/v1/chat/completions', '?api-version=2024-10-21'],
      ['/v1/chat/completions', '?api-version=2024-10-21'],
    ]);
  });

  it('points a baseUrl with a query string at queryParameters, and refuses secret-looking parameter names', () => {
    expect(() => createOpenAICompatibleModel({ baseUrl: 'https://x.openai.azure.com/openai?api-version=1', model: 'm' })).toThrow(
      expect.objectContaining({ field: 'baseUrl', message: expect.stringContaining('queryParameters') }),
    );
    for (const name of ['api-key', 'access_token', 'sig', 'client_secret']) {
      expect(() => createAnthropicModel({ apiKey: 'k', model: 'm', maxTokens: 100, queryParameters: { [name]: 'x' } })).toThrow(
        expect.objectContaining({ field: 'queryParameters', message: expect.not.stringContaining('"x"') }),
      );
    }
    expect(() => createAnthropicModel({ apiKey: 'k', model: 'm', maxTokens: 100, queryParameters: { v: 1 as never } })).toThrow(HarnessConfigError);
    expect(() => createAnthropicModel({ apiKey: 'k', model: 'm', maxTokens: 100, queryParameters: [] as never })).toThrow(HarnessConfigError);
  });
});
