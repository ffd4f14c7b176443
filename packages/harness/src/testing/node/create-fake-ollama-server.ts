import type { FakeModelReply, FakeModelServer, FakeModelServerOptions, FakeServerReply } from './fake-model-server-types.js';
import { renderCommonReply, splitText, startFakeHttpServer, streamReply, type RenderedReply } from './internal/start-fake-http-server.js';

/**
 * Starts a loopback server speaking Ollama's native chat API (`POST /api/chat`): one JSON body, or
 * NDJSON lines (`application/x-ndjson`) when the request's `stream` is not `false` — as Ollama does,
 * streaming is the default. Text arrives in `deltaSize` pieces; tool calls arrive whole in one line
 * (arguments as JSON objects), as Ollama sends them; the last line has `done: true`, `done_reason`
 * and the token counts. A reply's `reasoning` comes first as `message.thinking` (in pieces when
 * streamed), as thinking models send it. `error` replies are `{"error": "…"}` with the status; a model reply's
 * `error` becomes an error line mid-stream (or a 200 error body). `url` is the server root, so
 * configure it as `baseUrl`. Node only.
 * @example
 * ```ts
 * const server = await createFakeOllamaServer({ replies: [{ text: 'Hello!' }] });
 * const model = createOllamaModel({ baseUrl: server.url, model: 'qwen3:8b' });
 * await server.close();
 * ```
 */
export function createFakeOllamaServer(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  return startFakeHttpServer(
    {
      path: '/api/chat',
      basePath: '',
      render: (reply, request) => {
        const common = renderCommonReply(reply);
        if (common !== undefined) return common;
        if (reply.type === 'error') {
          const headers = { 'content-type': 'application/json; charset=utf-8', ...(reply.retryAfter === undefined ? {} : { 'retry-after': String(reply.retryAfter) }), ...reply.headers };
          return { kind: 'body', status: reply.status, headers, body: JSON.stringify({ error: reply.message ?? `HTTP ${reply.status}` }) };
        }
        const body = request.body as { stream?: unknown; model?: unknown } | undefined;
        const model = typeof body?.model === 'string' ? body.model : 'fake-model';
        return body?.stream === false ? renderJson(reply as FakeModelReply, model) : renderStream(reply as FakeModelReply, model);
      },
      unscripted: (message, status): FakeServerReply => ({ type: 'error', status, message }),
    },
    options.replies ?? [],
    options.port,
  );
}

const createdAt = '2026-01-01T00:00:00.000000Z';

function toolCalls(reply: FakeModelReply) {
  return (reply.toolCalls ?? []).map((call, index) => ({
    ...(call.id === undefined ? {} : { id: call.id }),
    function: { index, name: call.name, arguments: call.arguments },
  }));
}

function finalFields(reply: FakeModelReply): Record<string, unknown> {
  return {
    done: true,
    done_reason: reply.finishReason ?? 'stop',
    total_duration: 1_500_000_000,
    load_duration: 2_000_000,
    prompt_eval_count: reply.usage?.inputTokens ?? 0,
    prompt_eval_duration: 100_000_000,
    eval_count: reply.usage?.outputTokens ?? 0,
    eval_duration: 1_000_000_000,
  };
}

function renderJson(reply: FakeModelReply, model: string): RenderedReply {
  const calls = toolCalls(reply);
  const body =
    reply.error === undefined
      ? {
          model,
          created_at: createdAt,
          message: {
            role: 'assistant',
            content: reply.text ?? '',
            ...(reply.reasoning === undefined ? {} : { thinking: reply.reasoning }),
            ...(calls.length === 0 ? {} : { tool_calls: calls }),
          },
          ...finalFields(reply),
        }
      : { error: reply.error.message };
  return { kind: 'body', status: 200, headers: { 'content-type': 'application/json; charset=utf-8', ...reply.headers }, body: JSON.stringify(body) };
}

function renderStream(reply: FakeModelReply, model: string): RenderedReply {
  const lines: string[] = [];
  const line = (message: Record<string, unknown>, extra: Record<string, unknown> = { done: false }) =>
    lines.push(`${JSON.stringify({ model, created_at: createdAt, message: { role: 'assistant', ...message }, ...extra })}\n`);
  if (reply.reasoning !== undefined) for (const piece of splitText(reply.reasoning, reply.deltaSize ?? 4)) line({ content: '', thinking: piece });
  if (reply.text !== undefined) for (const piece of splitText(reply.text, reply.deltaSize ?? 4)) line({ content: piece });
  const calls = toolCalls(reply);
  if (calls.length > 0) line({ content: '', tool_calls: calls });
  if (reply.error !== undefined) lines.push(`${JSON.stringify({ error: reply.error.message })}\n`);
  else line({ content: '' }, finalFields(reply));
  return streamReply(lines, { ...reply, headers: { 'content-type': 'application/x-ndjson', ...reply.headers } });
}
