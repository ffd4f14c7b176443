import type { FakeModelReply, FakeModelServer, FakeModelServerOptions, FakeServerReply } from './fake-model-server-types.js';
import { renderCommonReply, splitText, startFakeHttpServer, streamReply, type RenderedReply } from './internal/start-fake-http-server.js';

const errorTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

/** What the server issued: thinking signatures (→ their text) and redacted-thinking data. */
interface IssuedThinking {
  signatures: Map<string, string>;
  redacted: Set<string>;
}

/**
 * Starts a loopback server speaking the Anthropic Messages API (`POST /v1/messages`), JSON or SSE
 * (`message_start`, `content_block_start`/`_delta`/`_stop` with `text_delta`, `input_json_delta`,
 * `thinking_delta` and `signature_delta`, `message_delta`, `message_stop`, `ping`, `error`)
 * following the request's `stream` flag. A reply's `reasoning` becomes a signed `thinking` block and
 * `redactedReasoning` a `redacted_thinking` block. Like the real API, a model request is refused
 * with HTTP 400 when an assistant message replays a thinking block this server did not issue (or
 * changed), when thinking is on (`thinking.type` other than `disabled`) and the assistant message
 * before the latest tool results does not start with its thinking block, or when thinking is on
 * with a forced `tool_choice` (`any` / `tool`). Answers come from a script; an unscripted request
 * gets HTTP 500. Node only.
 */
export function createFakeAnthropicServer(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  const issued: IssuedThinking = { signatures: new Map(), redacted: new Set() };
  // Numbered across the whole server, as the real API's ids are unique: a fake that restarts at 1
  // in every reply would hide what such servers do to a turn.
  let callNumber = 0;
  const nextCallId = () => `toolu_fake_${String((callNumber += 1))}`;
  return startFakeHttpServer(
    {
      path: '/v1/messages',
      render: (reply, request, sequence) => {
        const common = renderCommonReply(reply);
        if (common !== undefined) return common;
        if (reply.type === 'error') return renderError(reply.status, reply.message, reply.retryAfter, reply.headers);
        const problem = checkRequest(request.body, issued);
        if (problem !== undefined) return renderError(400, problem);
        const body = request.body as { stream?: unknown; model?: unknown } | undefined;
        const model = typeof body?.model === 'string' ? body.model : 'fake-model';
        const blocks = content(reply as FakeModelReply, sequence, nextCallId);
        for (const block of blocks) {
          if (block.type === 'thinking') issued.signatures.set(String(block.signature), String(block.thinking));
          if (block.type === 'redacted_thinking') issued.redacted.add(String(block.data));
        }
        return body?.stream === true ? renderStream(reply as FakeModelReply, blocks, model, sequence) : renderJson(reply as FakeModelReply, blocks, model, sequence);
      },
      unscripted: (message, status): FakeServerReply => ({ type: 'error', status, message }),
    },
    options.replies ?? [],
    options.port,
  );
}

function renderError(status: number, message = `HTTP ${status}`, retryAfter?: string | number, headers: Record<string, string> = {}): RenderedReply {
  return {
    kind: 'body',
    status,
    headers: { 'content-type': 'application/json', ...(retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) }), ...headers },
    body: JSON.stringify({ type: 'error', error: { type: errorTypes[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'), message } }),
  };
}

type Block = Record<string, unknown>;
type RequestMessage = { role?: unknown; content?: unknown };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const blocksOf = (message: RequestMessage | undefined): Block[] => (Array.isArray(message?.content) ? (message.content as unknown[]).map((block) => (isRecord(block) ? block : {})) : []);

/** The checks the real API makes on replayed thinking; the error message when one fails. */
function checkRequest(body: unknown, issued: IssuedThinking): string | undefined {
  if (!isRecord(body)) return undefined;
  const thinking = isRecord(body.thinking) && body.thinking.type !== undefined && body.thinking.type !== 'disabled';
  const forced = isRecord(body.tool_choice) && (body.tool_choice.type === 'any' || body.tool_choice.type === 'tool');
  if (thinking && forced) return 'Thinking may not be enabled when tool_choice forces tool use.';
  const messages: RequestMessage[] = Array.isArray(body.messages) ? body.messages.map((message: unknown) => (isRecord(message) ? message : {})) : [];
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'assistant') continue;
    for (const [at, block] of blocksOf(message).entries()) {
      if (block.type === 'thinking' && issued.signatures.get(String(block.signature)) !== block.thinking) {
        return `messages.${index}.content.${at}: Invalid \`signature\` in \`thinking\` block`;
      }
      if (block.type === 'redacted_thinking' && !issued.redacted.has(String(block.data))) {
        return `messages.${index}.content.${at}: Invalid \`data\` in \`redacted_thinking\` block`;
      }
    }
  }
  let lastUser = messages.length - 1;
  while (lastUser >= 0 && messages[lastUser]!.role !== 'user') lastUser -= 1;
  if (!thinking || lastUser < 1 || !blocksOf(messages[lastUser]).some((block) => block.type === 'tool_result')) return undefined;
  const first = blocksOf(messages[lastUser - 1])[0];
  if (messages[lastUser - 1]?.role !== 'assistant' || first?.type === 'thinking' || first?.type === 'redacted_thinking') return undefined;
  return (
    `messages.${lastUser - 1}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first?.type)}\`. ` +
    'When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). ' +
    'We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`.'
  );
}

function content(reply: FakeModelReply, sequence: number, nextCallId: () => string): Block[] {
  const text = reply.refusal ?? reply.text;
  return [
    ...(reply.reasoning === undefined ? [] : [{ type: 'thinking', thinking: reply.reasoning, signature: btoa(`sig_fake_${sequence}`) }]),
    ...(reply.redactedReasoning === undefined ? [] : [{ type: 'redacted_thinking', data: reply.redactedReasoning }]),
    ...(text === undefined ? [] : [{ type: 'text', text }]),
    ...(reply.toolCalls ?? []).map((call) => ({
      type: 'tool_use',
      id: call.id ?? nextCallId(),
      name: call.name,
      input: typeof call.arguments === 'string' ? call.arguments : call.arguments,
    })),
  ];
}

function stopReason(reply: FakeModelReply): string {
  if (reply.finishReason !== undefined) return reply.finishReason;
  if (reply.refusal !== undefined) return 'refusal';
  return (reply.toolCalls?.length ?? 0) > 0 ? 'tool_use' : 'end_turn';
}

function renderJson(reply: FakeModelReply, blocks: Block[], model: string, sequence: number): RenderedReply {
  const body = {
    id: `msg_fake_${sequence}`,
    type: 'message',
    role: 'assistant',
    model,
    content: blocks,
    stop_reason: stopReason(reply),
    stop_sequence: null,
    usage: { ...inputUsage(reply), output_tokens: reply.usage?.outputTokens ?? 0 },
  };
  if (reply.error !== undefined) return renderError(500, reply.error.message);
  return { kind: 'body', status: 200, headers: { 'content-type': 'application/json', ...reply.headers }, body: JSON.stringify(body) };
}

function renderStream(reply: FakeModelReply, blocks: Block[], model: string, sequence: number): RenderedReply {
  const size = reply.deltaSize ?? 4;
  const events: string[] = [];
  const event = (type: string, data: Record<string, unknown>) => events.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  event('message_start', {
    message: {
      id: `msg_fake_${sequence}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...inputUsage(reply), output_tokens: 1 },
    },
  });
  event('ping', {});
  blocks.forEach((block, index) => {
    if (block.type === 'thinking') {
      event('content_block_start', { index, content_block: { type: 'thinking', thinking: '' } });
      for (const piece of splitText(String(block.thinking), size)) event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: piece } });
      event('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } });
    } else if (block.type === 'redacted_thinking') {
      event('content_block_start', { index, content_block: block });
    } else if (block.type === 'text') {
      event('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const piece of splitText(String(block.text), size)) event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
    } else {
      event('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      const json = typeof block.input === 'string' ? block.input : JSON.stringify(block.input);
      for (const piece of splitText(json, size)) event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
    }
    event('content_block_stop', { index });
  });
  if (reply.error !== undefined) {
    event('error', { error: { type: typeof reply.error.code === 'string' ? reply.error.code : 'overloaded_error', message: reply.error.message } });
    return streamReply(events, reply);
  }
  event('message_delta', { delta: { stop_reason: stopReason(reply), stop_sequence: null }, usage: { output_tokens: reply.usage?.outputTokens ?? 0 } });
  event('message_stop', {});
  return streamReply(events, reply);
}

/** Anthropic's input usage: `input_tokens` excludes cache reads, which come as `cache_read_input_tokens`. */
function inputUsage(reply: FakeModelReply): Record<string, number> {
  const input = reply.usage?.inputTokens ?? 0;
  const cached = reply.usage?.cachedInputTokens;
  return cached === undefined ? { input_tokens: input } : { input_tokens: Math.max(0, input - cached), cache_read_input_tokens: cached };
}
