import { afterEach, describe, expect, it } from 'vitest';
import { createFakeAnthropicServer } from './create-fake-anthropic-server.js';
import type { FakeModelServer } from './fake-model-server-types.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (url: string, body: unknown) => fetch(`${url}/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('createFakeAnthropicServer', () => {
  it('renders a Messages API response with text and tool_use blocks', async () => {
    server = await createFakeAnthropicServer({ replies: [{ text: 'Hi', toolCalls: [{ name: 'search', arguments: { q: 'x' } }], usage: { inputTokens: 3, outputTokens: 4 } }] });
    expect(await (await post(server.url, { model: 'claude' })).json()).toEqual({
      id: 'msg_fake_1',
      type: 'message',
      role: 'assistant',
      model: 'claude',
      content: [
        { type: 'text', text: 'Hi' },
        { type: 'tool_use', id: 'toolu_fake_1', name: 'search', input: { q: 'x' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 3, output_tokens: 4 },
    });
  });

  it('streams named events in the documented order', async () => {
    server = await createFakeAnthropicServer({ replies: [{ text: 'Hello', deltaSize: 10, toolCalls: [{ id: 't1', name: 'search', arguments: { q: 'y' } }] }] });
    const text = await (await post(server.url, { model: 'claude', stream: true })).text();
    const names = [...text.matchAll(/^event: (\w+)$/gm)].map((match) => match[1]);
    expect(names).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(text).toContain('"type":"input_json_delta"');
  });

  it('uses the Anthropic error shape', async () => {
    server = await createFakeAnthropicServer({ replies: [{ type: 'error', status: 529, message: 'Overloaded' }] });
    const response = await post(server.url, {});
    expect(response.status).toBe(529);
    expect(await response.json()).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  });
});
