import { afterEach, describe, expect, it } from 'vitest';
import { createFakeOpenAICompatibleServer } from './create-fake-openai-compatible-server.js';
import type { FakeModelServer } from './fake-model-server-types.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (url: string, body: unknown) =>
  fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer k' }, body: JSON.stringify(body) });

describe('createFakeOpenAICompatibleServer', () => {
  it('answers from the script in order, as JSON, and records requests', async () => {
    server = await createFakeOpenAICompatibleServer({ replies: [{ text: 'one', usage: { inputTokens: 1, outputTokens: 2, cost: 0.5 } }] });
    server.enqueue((request) => ({ text: `echo ${String((request.body as { model: string }).model)}` }));
    expect(server.pending()).toBe(2);
    const first = (await (await post(server.url, { model: 'm1', messages: [] })).json()) as Record<string, unknown>;
    expect(first).toMatchObject({
      object: 'chat.completion',
      model: 'm1',
      choices: [{ message: { role: 'assistant', content: 'one' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3, cost: 0.5 },
    });
    const second = (await (await post(server.url, { model: 'm2', messages: [] })).json()) as { choices: { message: { content: string } }[] };
    expect(second.choices[0]!.message.content).toBe('echo m2');
    expect(server.requests.map((request) => [request.method, request.path, request.headers.authorization])).toEqual([
      ['POST', '/v1/chat/completions', 'Bearer k'],
      ['POST', '/v1/chat/completions', 'Bearer k'],
    ]);
  });

  it('numbers tool call ids across the whole server, not per reply (JSON and SSE)', async () => {
    const lookup = { name: 'lookup', arguments: {} };
    server = await createFakeOpenAICompatibleServer({ replies: [{ toolCalls: [lookup, lookup] }, { toolCalls: [lookup] }, { toolCalls: [{ ...lookup, id: 'call_0' }] }] });
    const first = (await (await post(server.url, { model: 'm' })).json()) as { choices: { message: { tool_calls: { id: string }[] } }[] };
    expect(first.choices[0]!.message.tool_calls.map((call) => call.id)).toEqual(['call_fake_1', 'call_fake_2']);
    expect(await (await post(server.url, { model: 'm', stream: true })).text()).toContain('"id":"call_fake_3"');
    expect(await (await post(server.url, { model: 'm', stream: true })).text()).toContain('"id":"call_0"');
  });

  it('streams SSE with a comment, chunks, a usage chunk and [DONE]', async () => {
    server = await createFakeOpenAICompatibleServer({ replies: [{ text: 'abcdef', deltaSize: 3, usage: { outputTokens: 2 } }] });
    const response = await post(server.url, { model: 'm', stream: true });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const text = await response.text();
    expect(text.startsWith(': OPENROUTER PROCESSING\n\n')).toBe(true);
    expect(text).toContain('"delta":{"content":"abc"}');
    expect(text).toContain('"delta":{"content":"def"}');
    expect(text).toContain('"finish_reason":"stop"');
    expect(text).toContain('"choices":[],"usage"');
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it("sends a reply's reasoning as OpenRouter does: reasoning text and reasoning_details with a signature", async () => {
    server = await createFakeOpenAICompatibleServer({ replies: [{ reasoning: 'Hmm.', text: 'Yes.' }, { reasoning: 'abcdef', text: 'ok', deltaSize: 3 }] });
    const json = (await (await post(server.url, { model: 'm' })).json()) as { choices: { message: Record<string, unknown> }[] };
    expect(json.choices[0]!.message).toMatchObject({
      content: 'Yes.',
      reasoning: 'Hmm.',
      reasoning_details: [{ type: 'reasoning.text', text: 'Hmm.', signature: 'sig_fake_1', format: 'anthropic-claude-v1', index: 0 }],
    });
    const text = await (await post(server.url, { model: 'm', stream: true })).text();
    expect(text).toContain('"reasoning":"abc","reasoning_details":[{"type":"reasoning.text","text":"abc"');
    expect(text).toContain('"reasoning":"def"');
    expect(text).toContain('"signature":"sig_fake_2"');
    expect(text.indexOf('"reasoning":"def"')).toBeLessThan(text.indexOf('"content":"ok"'));
  });

  it('answers unscripted requests with 500 and unknown paths with 404, in the OpenAI error shape', async () => {
    server = await createFakeOpenAICompatibleServer();
    const unscripted = await post(server.url, {});
    expect(unscripted.status).toBe(500);
    expect(await unscripted.json()).toMatchObject({ error: { message: expect.stringContaining('no scripted reply') } });
    const wrong = await fetch(`${server.url}/models`);
    expect(wrong.status).toBe(404);
  });

  it('sends Retry-After with error replies and raw bodies as given', async () => {
    server = await createFakeOpenAICompatibleServer({
      replies: [
        { type: 'error', status: 429, message: 'slow', retryAfter: 7 },
        { type: 'http', status: 502, body: '<html>bad gateway</html>' },
      ],
    });
    const limited = await post(server.url, {});
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    const raw = await post(server.url, {});
    expect(raw.status).toBe(502);
    expect(await raw.text()).toBe('<html>bad gateway</html>');
  });
});
