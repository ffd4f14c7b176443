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

  it('streams thoughts as thought parts and signs a call-less answer on its last part', async () => {
    server = await createFakeGeminiServer({ replies: [{ reasoning: 'Think hard.', text: 'Hi', deltaSize: 6 }, { reasoning: 'Think hard.', text: 'Hi', deltaSize: 6 }] });
    const sse = await (await post(server.url, '/models/g:streamGenerateContent?alt=sse', { contents: [user] })).text();
    const parts = sse
      .split('\r\n\r\n')
      .filter((event) => event.startsWith('data: '))
      .flatMap((event) => (JSON.parse(event.slice(6)) as { candidates: { content: { parts: unknown[] } }[] }).candidates[0]!.content.parts);
    expect(parts).toEqual([{ text: 'Think ', thought: true }, { text: 'hard.', thought: true }, { text: 'Hi' }, { text: '', thoughtSignature: 'dGV4dF9zaWdf1' }]);
    const json = (await (await post(server.url, '/models/g:generateContent', { contents: [user] })).json()) as { candidates: { content: { parts: unknown[] } }[] };
    expect(json.candidates[0]!.content.parts).toEqual([{ text: 'Think hard.', thought: true }, { text: 'Hi', thoughtSignature: 'dGV4dF9zaWdf2' }]);
  });

  it('checks inline / file data, the function-calling config and the JSON schema options like the API', async () => {
    server = await createFakeGeminiServer({ replies: Array.from({ length: 9 }, () => ({ text: 'ok' })) });
    const tools = [{ functionDeclarations: [{ name: 'search' }] }];
    const cases: [unknown, string][] = [
      [{ contents: [{ role: 'user', parts: [{ inlineData: { data: 'AA==' } }] }] }, 'inline_data'],
      [{ contents: [{ role: 'user', parts: [{ fileData: { fileUri: 'https://example.com/a' } }] }] }, 'file_data'],
      [{ contents: [user], tools, toolConfig: { functionCallingConfig: { mode: 'AUTO', allowedFunctionNames: ['search'] } } }, 'only allowed when mode is ANY'],
      [{ contents: [user], tools, toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['other'] } } }, 'not declared'],
      [{ contents: [user], generationConfig: { responseJsonSchema: { type: 'object' } } }, 'response_mime_type'],
      [{ contents: [user], generationConfig: { responseMimeType: 'application/json', responseJsonSchema: {}, responseSchema: {} } }, 'cannot both be set'],
      [{ contents: [user], tools, generationConfig: { responseMimeType: 'application/json', responseJsonSchema: {} } }, 'Function calling with a response mime type'],
    ];
    for (const [body, message] of cases) {
      const response = await post(server.url, '/models/g:generateContent', body);
      expect(response.status, message).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain(message);
    }
    const valid = {
      contents: [{ role: 'user', parts: [{ text: 'Hi' }, { inlineData: { mimeType: 'image/png', data: 'AA==' } }, { fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/a' } }] }],
      tools,
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['search'] } },
      generationConfig: { responseMimeType: 'application/json', responseJsonSchema: { type: 'object' } },
    };
    expect((await post(server.url, '/models/gemini-3-flash:generateContent', valid)).status).toBe(200);
  });

  it('answers other paths with 404 in the Gemini error shape', async () => {
    server = await createFakeGeminiServer({ replies: [] });
    const response = await post(server.url, '/models/g:countTokens', {});
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
  });
});
