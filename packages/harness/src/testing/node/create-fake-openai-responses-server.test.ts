import { afterEach, describe, expect, it } from 'vitest';
import { createFakeOpenAIResponsesServer } from './create-fake-openai-responses-server.js';
import type { FakeModelServer } from './fake-model-server-types.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (url: string, body: unknown) => fetch(`${url}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const user = { type: 'message', role: 'user', content: 'Hi' };

describe('createFakeOpenAIResponsesServer', () => {
  it('renders a response object with reasoning, message and function_call items and usage details', async () => {
    server = await createFakeOpenAIResponsesServer({
      replies: [{ reasoning: 'r', text: 'Hi', toolCalls: [{ name: 'search', arguments: { q: 'x' } }], usage: { inputTokens: 3, outputTokens: 4, cachedInputTokens: 1, reasoningTokens: 2 } }],
    });
    const body = (await (await post(server.url, { model: 'gpt-5-mini', input: [user], include: ['reasoning.encrypted_content'] })).json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      id: 'resp_fake_1',
      object: 'response',
      status: 'completed',
      model: 'gpt-5-mini',
      output: [
        { type: 'reasoning', id: 'rs_fake_1', summary: [{ type: 'summary_text', text: 'r' }], encrypted_content: 'gAAAAB_fake_1' },
        { type: 'message', id: 'msg_fake_1', role: 'assistant', content: [{ type: 'output_text', text: 'Hi' }] },
        { type: 'function_call', id: 'fc_fake_1_1', call_id: 'call_fake_1_1', name: 'search', arguments: '{"q":"x"}' },
      ],
      usage: { input_tokens: 3, input_tokens_details: { cached_tokens: 1 }, output_tokens: 4, output_tokens_details: { reasoning_tokens: 2 }, total_tokens: 7 },
    });
  });

  it('streams named events in the documented order', async () => {
    server = await createFakeOpenAIResponsesServer({ replies: [{ text: 'Hello', deltaSize: 10, toolCalls: [{ name: 'search', arguments: { q: 'y' } }] }] });
    const text = await (await post(server.url, { model: 'gpt-5-mini', input: [user], stream: true })).text();
    expect([...text.matchAll(/^event: ([\w.]+)$/gm)].map((match) => match[1])).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
  });

  it('checks replayed input like the API: outputs need calls, call ids need their reasoning, store:false needs encrypted content', async () => {
    server = await createFakeOpenAIResponsesServer({ replies: [{ reasoning: 'r', toolCalls: [{ name: 'search', arguments: {} }] }, { text: 'no' }, { text: 'no' }, { text: 'no' }, { text: 'ok' }] });
    await post(server.url, { model: 'm', input: [user], store: false, include: ['reasoning.encrypted_content'] });
    const call = { type: 'function_call', call_id: 'call_fake_1_1', name: 'search', arguments: '{}' };
    const output = { type: 'function_call_output', call_id: 'call_fake_1_1', output: 'r' };
    const reasoning = { type: 'reasoning', id: 'rs_fake_1', summary: [], encrypted_content: 'gAAAAB_fake_1' };
    const failures = [
      [user, output],
      [user, { ...call, id: 'fc_fake_1_1' }, output],
      [user, { ...reasoning, encrypted_content: undefined }, { ...call, id: 'fc_fake_1_1' }, output],
    ];
    const messages = [];
    for (const input of failures) {
      const response = await post(server.url, { model: 'm', input, store: false });
      expect(response.status).toBe(400);
      messages.push(((await response.json()) as { error: { message: string } }).error.message);
    }
    expect(messages[0]).toContain('No tool call found');
    expect(messages[1]).toContain("without its required 'reasoning' item");
    expect(messages[2]).toContain('not persisted');
    expect((await post(server.url, { model: 'm', input: [user, reasoning, { ...call, id: 'fc_fake_1_1' }, output], store: false })).status).toBe(200);
  });

  it('checks content parts per role, reasoning summaries, a function tool_choice and a json_schema text.format like the API', async () => {
    server = await createFakeOpenAIResponsesServer({ replies: Array.from({ length: 7 }, () => ({ text: 'ok' })) });
    const image = { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'auto' };
    const cases: [unknown, string][] = [
      [{ input: [{ type: 'message', role: 'assistant', content: [{ type: 'input_text', text: 'x' }] }] }, "Invalid value: 'input_text'"],
      [{ input: [{ type: 'message', role: 'user', content: [{ type: 'input_file', file_data: 'data:application/pdf;base64,JVBE' }] }] }, 'filename'],
      [{ input: [{ type: 'message', role: 'user', content: [{ type: 'input_file', filename: 'a.pdf', file_data: 'JVBE' }] }] }, 'Invalid file data'],
      [{ input: [user, { type: 'reasoning', id: 'rs_x' }] }, "'input[1].summary'"],
      [{ input: [user], tools: [{ type: 'function', name: 'a' }], tool_choice: { type: 'function', name: 'b' } }, "Tool choice 'function' not found"],
      [{ input: [user], text: { format: { type: 'json_schema', schema: {} } } }, "'text.format.name'"],
    ];
    for (const [body, message] of cases) {
      const response = await post(server.url, { model: 'm', ...(body as object) });
      expect(response.status, message).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain(message);
    }
    const valid = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }, image, { type: 'input_file', file_url: 'https://example.com/a.pdf' }] };
    expect((await post(server.url, { model: 'm', input: [valid], text: { format: { type: 'json_schema', name: 'a', schema: {} } } })).status).toBe(200);
  });

  it('streams a reasoning summary as response.reasoning_summary_text.delta events', async () => {
    server = await createFakeOpenAIResponsesServer({ replies: [{ reasoning: 'Think hard.', text: 'Hi', deltaSize: 6 }] });
    const text = await (await post(server.url, { model: 'gpt-5-mini', input: [user], stream: true })).text();
    const deltas = [...text.matchAll(/^data: (.*)$/gm)].map((match) => JSON.parse(match[1]!) as { type: string; delta?: string }).filter((event) => event.type === 'response.reasoning_summary_text.delta');
    expect(deltas.map((event) => event.delta)).toEqual(['Think ', 'hard.']);
  });

  it('uses the OpenAI error shape', async () => {
    server = await createFakeOpenAIResponsesServer({ replies: [{ type: 'error', status: 429, message: 'Slow down' }] });
    const response = await post(server.url, {});
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({ error: { message: 'Slow down', type: 'tokens', param: null, code: 'rate_limit_exceeded' } });
  });
});
