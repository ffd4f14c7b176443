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

  it('numbers tool_use ids across the whole server, not per reply', async () => {
    const search = { name: 'search', arguments: {} };
    server = await createFakeAnthropicServer({ replies: [{ toolCalls: [search] }, { toolCalls: [search, search] }] });
    const ids = async () => ((await (await post(server!.url, { model: 'claude' })).json()) as { content: { id: string }[] }).content.map((block) => block.id);
    expect(await ids()).toEqual(['toolu_fake_1']);
    expect(await ids()).toEqual(['toolu_fake_2', 'toolu_fake_3']);
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

  it('renders reasoning as a signed thinking block and redactedReasoning as redacted_thinking, before the answer', async () => {
    server = await createFakeAnthropicServer({ replies: [{ reasoning: 'Think.', redactedReasoning: 'b3BhcXVl', text: 'Hi' }] });
    const body = (await (await post(server.url, { model: 'claude' })).json()) as { content: unknown[] };
    expect(body.content).toEqual([
      { type: 'thinking', thinking: 'Think.', signature: btoa('sig_fake_1') },
      { type: 'redacted_thinking', data: 'b3BhcXVl' },
      { type: 'text', text: 'Hi' },
    ]);
  });

  it('streams thinking with the real event sequence: thinking_delta pieces, one signature_delta, redacted_thinking whole', async () => {
    server = await createFakeAnthropicServer({ replies: [{ reasoning: 'Plan it.', redactedReasoning: 'b3BhcXVl', text: 'Ok', deltaSize: 4 }] });
    const text = await (await post(server.url, { model: 'claude', stream: true })).text();
    const events = [...text.matchAll(/^data: (.*)$/gm)].map((match) => JSON.parse(match[1]!) as { type: string; delta?: { type: string }; content_block?: unknown });
    const blockEvents = events.filter((event) => event.type.startsWith('content_block')).slice(0, 7);
    expect(blockEvents).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Plan' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: ' it.' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: btoa('sig_fake_1') } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: 'b3BhcXVl' } },
      { type: 'content_block_stop', index: 1 },
    ]);
  });

  it('refuses replayed thinking it did not issue, a tool loop without its thinking block, and forced tool choice with thinking', async () => {
    // A refused request still uses up its scripted reply.
    const never = { text: 'never' };
    server = await createFakeAnthropicServer({ replies: [{ reasoning: 'Think.', toolCalls: [{ id: 't1', name: 'search', arguments: {} }] }, never, never, never, never, { text: 'ok' }, { text: 'ok' }] });
    const signature = ((await (await post(server.url, {})).json()) as { content: { signature?: string }[] }).content[0]!.signature!;
    const thinking = { type: 'enabled', budget_tokens: 1024 };
    const loop = (assistant: unknown[]) => [
      { role: 'user', content: [{ type: 'text', text: 'Go' }] },
      { role: 'assistant', content: assistant },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'done' }] },
    ];
    const toolUse = { type: 'tool_use', id: 't1', name: 'search', input: {} };
    const changed = await post(server.url, { thinking, messages: loop([{ type: 'thinking', thinking: 'Changed.', signature }, toolUse]) });
    expect(changed.status).toBe(400);
    expect(await changed.json()).toMatchObject({ error: { type: 'invalid_request_error', message: 'messages.1.content.0: Invalid `signature` in `thinking` block' } });
    const missing = await post(server.url, { thinking, messages: loop([toolUse]) });
    expect(((await missing.json()) as { error: { message: string } }).error.message).toContain('Expected `thinking` or `redacted_thinking`, but found `tool_use`');
    const forced = await post(server.url, { thinking, tool_choice: { type: 'any' }, messages: [] });
    expect(((await forced.json()) as { error: { message: string } }).error.message).toBe('Thinking may not be enabled when tool_choice forces tool use.');
    const unknownRedacted = await post(server.url, { messages: loop([{ type: 'redacted_thinking', data: 'bm9wZQ==' }, toolUse]) });
    expect(unknownRedacted.status).toBe(400);
    const hostile = await post(server.url, { thinking: null, tool_choice: 'any', messages: [null, { role: 'assistant', content: [null, 7] }, 'x'] });
    expect(hostile.status).toBe(200);
    const replayed = await post(server.url, { thinking, messages: loop([{ type: 'thinking', thinking: 'Think.', signature }, toolUse]) });
    expect(replayed.status).toBe(200);
    expect(server.requests[6]!.body).toMatchObject({ messages: [{}, { content: [{ type: 'thinking', signature }, toolUse] }, {}] });
  });

  it('uses the Anthropic error shape', async () => {
    server = await createFakeAnthropicServer({ replies: [{ type: 'error', status: 529, message: 'Overloaded' }] });
    const response = await post(server.url, {});
    expect(response.status).toBe(529);
    expect(await response.json()).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  });
});
