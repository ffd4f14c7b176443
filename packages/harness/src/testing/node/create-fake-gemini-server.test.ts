import { afterEach, describe, expect, it } from 'vitest';
import { createFakeGeminiServer } from './create-fake-gemini-server.js';
import type { FakeModelServer } from './fake-model-server-types.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (url: string, path: string, body: unknown) =>
  fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const user = { role: 'user', parts: [{ text: 'Hi' }] };

describe('createFakeGeminiServer', () => {
  it('renders a GenerateContentResponse with merged text, a signed function call and usage', async () => {
    server = await createFakeGeminiServer({
      replies: [{ reasoning: 'Think.', text: 'Hello there', toolCalls: [{ name: 'search', arguments: { q: 'x' } }], usage: { inputTokens: 3, outputTokens: 9, reasoningTokens: 5 } }],
    });
    expect(await (await post(server.url, '/models/gemini-2.5-flash:generateContent', { contents: [user] })).json()).toEqual({
      candidates: [
        {
          content: {
            parts: [{ text: 'Think.', thought: true }, { text: 'Hello there' }, { functionCall: { name: 'search', args: { q: 'x' } }, thoughtSignature: 'c2lnX2Zha2Vf1' }],
            role: 'model',
          },
          index: 0,
          finishReason: 'STOP',
        },
      ],
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 4, totalTokenCount: 12, thoughtsTokenCount: 5 },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'fake-response-1',
    });
  });

  it('streams SSE chunks only with alt=sse, and a JSON array without it', async () => {
    server = await createFakeGeminiServer({ replies: [{ text: 'Hello', deltaSize: 3 }, { text: 'Hello', deltaSize: 3 }] });
    const sse = await post(server.url, '/models/gemini-2.5-flash:streamGenerateContent?alt=sse', { contents: [user] });
    expect(sse.headers.get('content-type')).toBe('text/event-stream');
    expect((await sse.text()).split('\r\n\r\n').filter((event) => event.startsWith('data: '))).toHaveLength(3);
    const array = await post(server.url, '/models/gemini-2.5-flash:streamGenerateContent', { contents: [user] });
    expect(Array.isArray(await array.json())).toBe(true);
  });

  it('rejects a signed call replayed without its signature, and unanswered function calls, like the API', async () => {
    server = await createFakeGeminiServer({ replies: [{ reasoning: 'r', toolCalls: [{ name: 'search', arguments: { q: 'x' } }] }, { text: 'no' }, { text: 'no' }, { text: 'ok' }] });
    await post(server.url, '/models/g:generateContent', { contents: [user] });
    const call = { functionCall: { name: 'search', args: { q: 'x' } } };
    const answer = { role: 'user', parts: [{ functionResponse: { name: 'search', response: { output: 'r' } } }] };
    const unsigned = await post(server.url, '/models/g:generateContent', { contents: [user, { role: 'model', parts: [call] }, answer] });
    expect(unsigned.status).toBe(400);
    expect(await unsigned.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('thought_signature') } });
    const signed = { ...call, thoughtSignature: 'c2lnX2Zha2Vf1' };
    const unanswered = await post(server.url, '/models/g:generateContent', { contents: [user, { role: 'model', parts: [signed, signed] }, answer] });
    expect(await unanswered.json()).toMatchObject({ error: { message: expect.stringContaining('number of function response parts') } });
    expect((await post(server.url, '/models/g:generateContent', { contents: [user, { role: 'model', parts: [signed] }, answer] })).status).toBe(200);
  });

  it('answers other paths with 404 in the Gemini error shape', async () => {
    server = await createFakeGeminiServer({ replies: [] });
    const response = await post(server.url, '/models/g:countTokens', {});
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
  });
});
