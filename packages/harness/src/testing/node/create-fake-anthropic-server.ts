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

/**
 * Starts a loopback server speaking the Anthropic Messages API (`POST /v1/messages`), JSON or SSE
 * (`message_start`, `content_block_start`/`_delta`/`_stop` with `text_delta` and
 * `input_json_delta`, `message_delta`, `message_stop`, `ping`, `error`) following the request's
 * `stream` flag. Answers come from a script; an unscripted request gets HTTP 500. Node only.
 */
export function createFakeAnthropicServer(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  return startFakeHttpServer(
    {
      path: '/v1/messages',
      render: (reply, request, sequence) => {
        const common = renderCommonReply(reply);
        if (common !== undefined) return common;
        if (reply.type === 'error') return renderError(reply.status, reply.message, reply.retryAfter, reply.headers);
        const body = request.body as { stream?: unknown; model?: unknown } | undefined;
        const model = typeof body?.model === 'string' ? body.model : 'fake-model';
        return body?.stream === true ? renderStream(reply as FakeModelReply, model, sequence) : renderJson(reply as FakeModelReply, model, sequence);
      },
      unscripted: (message, status): FakeServerReply => ({ type: 'error', status, message }),
    },
    options.replies ?? [],
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

function content(reply: FakeModelReply): Record<string, unknown>[] {
  const text = reply.refusal ?? reply.text;
  return [
    ...(text === undefined ? [] : [{ type: 'text', text }]),
    ...(reply.toolCalls ?? []).map((call, index) => ({
      type: 'tool_use',
      id: call.id ?? `toolu_fake_${index + 1}`,
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

function renderJson(reply: FakeModelReply, model: string, sequence: number): RenderedReply {
  const body = {
    id: `msg_fake_${sequence}`,
    type: 'message',
    role: 'assistant',
    model,
    content: content(reply),
    stop_reason: stopReason(reply),
    stop_sequence: null,
    usage: { ...inputUsage(reply), output_tokens: reply.usage?.outputTokens ?? 0 },
  };
  if (reply.error !== undefined) return renderError(500, reply.error.message);
  return { kind: 'body', status: 200, headers: { 'content-type': 'application/json', ...reply.headers }, body: JSON.stringify(body) };
}

function renderStream(reply: FakeModelReply, model: string, sequence: number): RenderedReply {
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
  content(reply).forEach((block, index) => {
    if (block.type === 'text') {
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
