import { describe, expect, it } from 'vitest';
import { postJson } from './post-json.js';

describe('postJson', () => {
  it('posts JSON with the given headers, signal and dispatcher through an injected fetch', async () => {
    const calls: { url: string; init: RequestInit & { dispatcher?: unknown } }[] = [];
    const dispatcher = { kind: 'agent' };
    const signal = new AbortController().signal;
    const response = await postJson({
      url: 'https://api.example.com/v1/chat/completions',
      headers: { authorization: 'Bearer k', 'x-extra': '1' },
      body: '{"a":1}',
      signal,
      dispatcher,
      fetch: async (url, init) => {
        calls.push({ url, init: init! });
        return new Response('ok');
      },
    });
    expect(await response.text()).toBe('ok');
    expect(calls[0]!.url).toBe('https://api.example.com/v1/chat/completions');
    expect(calls[0]!.init).toMatchObject({ method: 'POST', body: '{"a":1}', signal, dispatcher });
    expect(calls[0]!.init.headers).toEqual({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: 'Bearer k',
      'x-extra': '1',
    });
  });
});
