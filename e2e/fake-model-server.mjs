// A loopback fake model server for the end-to-end tests of the local CLI backends.
// Speaks just enough of the Anthropic Messages API (claude), the OpenAI Responses API (codex),
// OpenAI Chat Completions (opencode) and the Gemini API (gemini) to answer one prompt, as
// described in shared/reference/cli-facts.md. Triggers, found anywhere in a POST body:
//   FAKE_HTTP_<status>  answer with that HTTP status and an error body every SDK accepts
//   FAKE_HANG           (in the latest user message only, so a resumed session whose history
//                       holds it is answered) accept the request and never answer; not when
//                       that message also says `[Request interrupted by user]` (Claude Code
//                       merges an interrupted message into the next turn's)
//   FAKE_SHELL[<cmd>]   (in the latest user message) answer with one call of the client's shell
//                       tool (found by name in the request's tools) running <cmd>; the tool's
//                       result comes back as a later request, answered `PONG from fake (after tool)`
// Every request is recorded in `requests` (method, url, headers, parsed body).
import { createServer } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import * as zlib from 'node:zlib';

const DEFAULT_REPLY = 'PONG from fake';

// Tool call ids are numbered across the whole process, never restarted per reply (some real
// servers do restart them; a fake that did so by accident would hide it).
let callNumber = 0;
const nextCallId = (prefix) => `${prefix}_fake_${(callNumber += 1)}`;

function decode(buffer, encoding) {
  if (encoding === 'gzip') return gunzipSync(buffer);
  if (encoding === 'br') return brotliDecompressSync(buffer);
  if (encoding === 'deflate') return inflateSync(buffer);
  if (encoding === 'zstd' && typeof zlib.zstdDecompressSync === 'function') return zlib.zstdDecompressSync(buffer);
  return buffer;
}

function parseBody(raw) {
  try {
    return raw === '' ? {} : JSON.parse(raw);
  } catch {
    return { unparsed: raw.slice(0, 200) };
  }
}

function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('\n');
}

/** The text of the last user message in an Anthropic, OpenAI (chat or responses) or Gemini body. */
function latestUserText(body) {
  const list = body.messages ?? body.input ?? body.contents;
  if (typeof list === 'string') return list;
  if (!Array.isArray(list)) return '';
  const users = list.filter((item) => item?.role === 'user');
  const last = users.at(-1);
  return last === undefined ? '' : textOf(last.content ?? last.parts);
}

function sse(response, frames) {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const [event, data] of frames) {
    response.write(`${event === undefined ? '' : `event: ${event}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  }
  response.end();
}

function json(response, status, body) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** Names of the shell tools of the engines under test, in order of preference. */
const SHELL_TOOLS = ['Bash', 'bash', 'run_shell_command', 'exec_command', 'shell_command', 'shell'];

/** The command of a `FAKE_SHELL[<cmd>]` trigger in the latest user text, else undefined. */
export function shellCommandRequested(body) {
  return /FAKE_SHELL\[([^\]]+)\]/.exec(latestUserText(body))?.[1];
}

/** The shell tool's name among `names` (the request's tool names), else undefined. */
export function shellToolName(names) {
  return SHELL_TOOLS.find((name) => names.includes(name));
}

/** The reply once a tool's result came back. */
export const AFTER_TOOL_REPLY = 'PONG from fake (after tool)';

/** True when the latest Anthropic user message carries a tool result. */
function anthropicToolResultLast(body) {
  const last = (body.messages ?? []).filter((message) => message?.role === 'user').at(-1);
  return Array.isArray(last?.content) && last.content.some((block) => block?.type === 'tool_result');
}

function anthropic(response, body, reply) {
  const model = body.model ?? 'fake-model';
  const usage = { input_tokens: 12, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const command = shellCommandRequested(body);
  const tool = shellToolName((body.tools ?? []).map((candidate) => candidate?.name));
  if (anthropicToolResultLast(body)) reply = AFTER_TOOL_REPLY;
  else if (command !== undefined && tool !== undefined && body.stream === true) {
    const input = { command, description: 'Run the requested command' };
    return sse(response, [
      ['message_start', { type: 'message_start', message: { id: 'msg_fake_tool', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: nextCallId('toolu'), name: tool, input: {} } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(input) } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 5 } }],
      ['message_stop', { type: 'message_stop' }],
    ]);
  }
  if (body.stream !== true) {
    return json(response, 200, {
      id: 'msg_fake', type: 'message', role: 'assistant', model,
      content: [{ type: 'text', text: reply }], stop_reason: 'end_turn', stop_sequence: null, usage,
    });
  }
  sse(response, [
    ['message_start', { type: 'message_start', message: { id: 'msg_fake', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    ['ping', { type: 'ping' }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: reply } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } }],
    ['message_stop', { type: 'message_stop' }],
  ]);
}

/** True when the last non-instruction item of a Responses `input` is a tool call's output. */
function responsesToolResultLast(body) {
  const items = (Array.isArray(body.input) ? body.input : []).filter((item) => item?.role !== 'system' && item?.role !== 'developer');
  return typeof items.at(-1)?.type === 'string' && items.at(-1).type.endsWith('_call_output');
}

/** A Responses stream with one call of the shell tool (codex's `exec_command` takes `{cmd}`). */
function responsesShellCall(response, tool, command) {
  const args = JSON.stringify(tool === 'exec_command' ? { cmd: command } : { command });
  const item = { id: 'fc_fake', type: 'function_call', status: 'completed', call_id: nextCallId('call'), name: tool, arguments: args };
  const usage = { input_tokens: 24, input_tokens_details: { cached_tokens: 0 }, output_tokens: 12, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 36 };
  const base = { id: 'resp_fake_tool', object: 'response', created_at: Math.floor(Date.now() / 1000), model: 'gpt-5.5' };
  sse(response, [
    ['response.created', { type: 'response.created', response: { ...base, status: 'in_progress', output: [] } }],
    ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', arguments: '' } }],
    ['response.function_call_arguments.delta', { type: 'response.function_call_arguments.delta', item_id: item.id, output_index: 0, delta: args }],
    ['response.function_call_arguments.done', { type: 'response.function_call_arguments.done', item_id: item.id, output_index: 0, arguments: args }],
    ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }],
    ['response.completed', { type: 'response.completed', response: { ...base, status: 'completed', output: [item], usage } }],
  ]);
}

function responses(response, body, reply) {
  const command = shellCommandRequested(body);
  const tool = shellToolName((body.tools ?? []).map((candidate) => candidate?.name));
  if (responsesToolResultLast(body)) reply = AFTER_TOOL_REPLY;
  else if (command !== undefined && tool !== undefined) return responsesShellCall(response, tool, command);
  const item = { id: 'msg_fake', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: reply, annotations: [] }] };
  const usage = { input_tokens: 24, input_tokens_details: { cached_tokens: 0 }, output_tokens: 12, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 36 };
  const base = { id: 'resp_fake', object: 'response', created_at: Math.floor(Date.now() / 1000), model: 'gpt-5.5' };
  sse(response, [
    ['response.created', { type: 'response.created', response: { ...base, status: 'in_progress', output: [] } }],
    ['response.in_progress', { type: 'response.in_progress', response: { ...base, status: 'in_progress', output: [] } }],
    ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', content: [] } }],
    ['response.content_part.added', { type: 'response.content_part.added', item_id: item.id, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }],
    ['response.output_text.delta', { type: 'response.output_text.delta', item_id: item.id, output_index: 0, content_index: 0, delta: reply }],
    ['response.output_text.done', { type: 'response.output_text.done', item_id: item.id, output_index: 0, content_index: 0, text: reply }],
    ['response.content_part.done', { type: 'response.content_part.done', item_id: item.id, output_index: 0, content_index: 0, part: item.content[0] }],
    ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }],
    ['response.completed', { type: 'response.completed', response: { ...base, status: 'completed', output: [item], usage } }],
  ]);
}

/** True when the last Chat Completions message is a tool result. */
function chatToolResultLast(body) {
  return (body.messages ?? []).at(-1)?.role === 'tool';
}

function chat(response, body, reply) {
  const base = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body.model ?? 'fake-model' };
  const usage = { prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 };
  const command = shellCommandRequested(body);
  const tool = shellToolName((body.tools ?? []).map((candidate) => candidate?.function?.name));
  if (chatToolResultLast(body)) reply = AFTER_TOOL_REPLY;
  else if (command !== undefined && tool !== undefined && body.stream === true) {
    const call = { index: 0, id: nextCallId('call'), type: 'function', function: { name: tool, arguments: '' } };
    return sse(response, [
      [undefined, { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: null }] }],
      [undefined, { ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: JSON.stringify({ command, description: 'Run the requested command' }) } }] }, finish_reason: null }] }],
      [undefined, { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }],
      [undefined, { ...base, choices: [], usage }],
      [undefined, '[DONE]'],
    ]);
  }
  if (body.stream !== true) {
    return json(response, 200, { ...base, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }], usage });
  }
  sse(response, [
    [undefined, { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }],
    [undefined, { ...base, choices: [{ index: 0, delta: { content: reply }, finish_reason: null }] }],
    [undefined, { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }],
    [undefined, { ...base, choices: [], usage }],
    [undefined, '[DONE]'],
  ]);
}

function fromSchema(schema) {
  if (schema === undefined || schema === null) return 'fake';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = String(schema.type ?? '').toLowerCase();
  if (type === 'object') return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, value]) => [key, fromSchema(value)]));
  if (type === 'array') return [];
  if (type === 'integer' || type === 'number') return schema.minimum ?? 1;
  if (type === 'boolean') return false;
  return 'fake';
}

/** True when the last Gemini content carries a function response. */
function geminiToolResultLast(body) {
  const parts = (body.contents ?? []).at(-1)?.parts;
  return Array.isArray(parts) && parts.some((part) => part?.functionResponse !== undefined);
}

/** The Gemini functionCall part for a FAKE_SHELL trigger, when the request offers a shell tool. */
function geminiShellCall(body) {
  const command = shellCommandRequested(body);
  const names = (body.tools ?? []).flatMap((tool) => (tool?.functionDeclarations ?? []).map((declaration) => declaration?.name));
  const tool = shellToolName(names);
  if (command === undefined || tool === undefined) return undefined;
  return { functionCall: { name: tool, args: { command, description: 'Run the requested command' } } };
}

function gemini(response, url, body, reply) {
  const jsonMode = body.generationConfig?.responseMimeType === 'application/json';
  if (geminiToolResultLast(body)) reply = AFTER_TOOL_REPLY;
  const shellCall = jsonMode || geminiToolResultLast(body) ? undefined : geminiShellCall(body);
  const text = jsonMode ? JSON.stringify(fromSchema(body.generationConfig?.responseJsonSchema ?? body.generationConfig?.responseSchema)) : reply;
  const chunk = {
    candidates: [{ content: { role: 'model', parts: [shellCall ?? { text }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 5, totalTokenCount: 17 },
  };
  if (url.includes(':streamGenerateContent')) return sse(response, [[undefined, chunk]]);
  return json(response, 200, chunk);
}

/**
 * Starts the fake server on 127.0.0.1 (random port unless `port` is given).
 * @returns {Promise<{ url: string, port: number, requests: object[], close(): Promise<void> }>}
 */
export async function startFakeModelServer({ port = 0, reply = DEFAULT_REPLY } = {}) {
  const requests = [];
  const hanging = new Set();
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const raw = decode(Buffer.concat(chunks), request.headers['content-encoding']).toString('utf8');
      const body = parseBody(raw);
      const url = request.url ?? '/';
      const record = { method: request.method, url, headers: request.headers, body, raw };
      requests.push(record);
      if (request.method === 'POST') {
        const injected = /FAKE_HTTP_(\d{3})/.exec(raw);
        if (injected) {
          const status = Number(injected[1]);
          return json(response, status, {
            type: 'error',
            error: { type: 'invalid_request_error', message: `fake injected HTTP ${status}`, code: status, status: 'INVALID_ARGUMENT' },
          });
        }
        // Claude Code merges an interrupted turn's message into the next one; that next turn is answered.
        if (latestUserText(body).includes('FAKE_HANG') && !latestUserText(body).includes('[Request interrupted by user]')) {
          hanging.add(response);
          response.on('close', () => hanging.delete(response));
          return undefined;
        }
      }
      const path = url.split('?')[0];
      if (request.method === 'POST' && path === '/v1/messages') return anthropic(response, body, reply);
      if (request.method === 'POST' && path === '/v1/messages/count_tokens') return json(response, 200, { input_tokens: 12 });
      if (request.method === 'POST' && path === '/v1/responses') return responses(response, body, reply);
      if (request.method === 'POST' && path === '/v1/chat/completions') return chat(response, body, reply);
      if (request.method === 'POST' && path.startsWith('/v1beta/models/') && /:(stream)?[gG]enerateContent$/.test(path)) {
        return gemini(response, url, body, reply);
      }
      if (request.method === 'POST' && path.startsWith('/v1beta/models/') && path.endsWith(':countTokens')) return json(response, 200, { totalTokens: 12 });
      if (request.method === 'GET' && (path === '/v1/models' || path === '/v1beta/models')) return json(response, 200, { data: [], models: [] });
      record.unhandled = true;
      return json(response, 404, { type: 'error', error: { type: 'not_found_error', message: `fake server: no route for ${request.method} ${path}` } });
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const address = server.address();
  return {
    port: address.port,
    url: `http://127.0.0.1:${address.port}`,
    requests,
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections?.();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
