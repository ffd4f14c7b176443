import type { FakeModelReply, FakeModelServer, FakeModelServerOptions, FakeServerReply } from './fake-model-server-types.js';
import { renderCommonReply, splitText, startFakeHttpServer, streamReply, type RenderedReply } from './internal/start-fake-http-server.js';

/**
 * Starts a loopback server speaking OpenAI-compatible chat completions (`POST /v1/chat/completions`),
 * JSON or SSE following the request's `stream` flag, in the shapes OpenAI and OpenRouter use
 * (`usage.cost`, `: OPENROUTER PROCESSING` comments, `data: [DONE]`). A reply's `reasoning` comes
 * as OpenRouter sends it: `reasoning` text plus `reasoning_details` (one `reasoning.text` entry with
 * a `signature`), streamed in pieces before the answer. Answers come from a script; an unscripted
 * request gets HTTP 500. Node only.
 * @example
 * ```ts
 * const server = await createFakeOpenAICompatibleServer({ replies: [{ text: 'Hello!' }] });
 * const model = createOpenAICompatibleModel({ baseUrl: server.url, model: 'fake' });
 * // … run a turn, inspect server.requests …
 * await server.close();
 * ```
 */
export function createFakeOpenAICompatibleServer(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  // Numbered across the whole server: some real servers restart at `call_0` in every reply, and a
  // fake doing that by accident would hide it. Script explicit ids to test such a server.
  let callNumber = 0;
  const nextCallId = () => `call_fake_${String((callNumber += 1))}`;
  return startFakeHttpServer(
    {
      path: '/v1/chat/completions',
      render: (reply, request, sequence) => {
        const common = renderCommonReply(reply);
        if (common !== undefined) return common;
        if (reply.type === 'error') return renderError(reply.status, reply.message, reply.retryAfter, reply.headers);
        const body = request.body as { stream?: unknown; model?: unknown } | undefined;
        const model = typeof body?.model === 'string' ? body.model : 'fake-model';
        const calls = toolCalls(reply as FakeModelReply, nextCallId);
        return body?.stream === true ? renderStream(reply as FakeModelReply, calls, model, sequence) : renderJson(reply as FakeModelReply, calls, model, sequence);
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
    body: JSON.stringify({ error: { message, code: status, type: status === 429 ? 'rate_limit_exceeded' : 'fake_error' } }),
  };
}

type WireToolCall = { id: string; type: 'function'; function: { name: string; arguments: string } };

function toolCalls(reply: FakeModelReply, nextCallId: () => string): WireToolCall[] {
  return (reply.toolCalls ?? []).map((call) => ({
    id: call.id ?? nextCallId(),
    type: 'function' as const,
    function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) },
  }));
}

function finishReason(reply: FakeModelReply): string {
  if (reply.finishReason !== undefined) return reply.finishReason;
  if (reply.error !== undefined) return 'error';
  return (reply.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'stop';
}

function usage(reply: FakeModelReply): Record<string, unknown> | undefined {
  if (reply.usage === undefined) return undefined;
  const input = reply.usage.inputTokens ?? 0;
  const output = reply.usage.outputTokens ?? 0;
  return {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: input + output,
    ...(reply.usage.cachedInputTokens === undefined ? {} : { prompt_tokens_details: { cached_tokens: reply.usage.cachedInputTokens } }),
    ...(reply.usage.reasoningTokens === undefined ? {} : { completion_tokens_details: { reasoning_tokens: reply.usage.reasoningTokens } }),
    ...(reply.usage.cost === undefined ? {} : { cost: reply.usage.cost }),
  };
}

const reasoningFormat = 'anthropic-claude-v1';

function renderJson(reply: FakeModelReply, calls: WireToolCall[], model: string, sequence: number): RenderedReply {
  const reasoning =
    reply.reasoning === undefined
      ? {}
      : {
          reasoning: reply.reasoning,
          reasoning_details: [{ type: 'reasoning.text', text: reply.reasoning, signature: `sig_fake_${sequence}`, format: reasoningFormat, index: 0 }],
        };
  const replyUsage = usage(reply);
  const body = {
    id: `chatcmpl-fake-${sequence}`,
    object: 'chat.completion',
    created: 1_700_000_000 + sequence,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text ?? null,
          refusal: reply.refusal ?? null,
          ...reasoning,
          ...(calls.length === 0 ? {} : { tool_calls: calls }),
        },
        finish_reason: finishReason(reply),
      },
    ],
    ...(replyUsage === undefined ? {} : { usage: replyUsage }),
    ...(reply.error === undefined ? {} : { error: reply.error }),
  };
  return { kind: 'body', status: 200, headers: { 'content-type': 'application/json', ...reply.headers }, body: JSON.stringify(body) };
}

function renderStream(reply: FakeModelReply, calls: WireToolCall[], model: string, sequence: number): RenderedReply {
  const size = reply.deltaSize ?? 4;
  const base = { id: `chatcmpl-fake-${sequence}`, object: 'chat.completion.chunk', created: 1_700_000_000 + sequence, model };
  const events: string[] = [': OPENROUTER PROCESSING\n\n'];
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) =>
    events.push(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`);
  chunk({ role: 'assistant', content: '' });
  if (reply.reasoning !== undefined) {
    for (const piece of splitText(reply.reasoning, size)) {
      chunk({ content: null, reasoning: piece, reasoning_details: [{ type: 'reasoning.text', text: piece, format: reasoningFormat, index: 0 }] });
    }
    chunk({ content: null, reasoning_details: [{ type: 'reasoning.text', signature: `sig_fake_${sequence}`, format: reasoningFormat, index: 0 }] });
  }
  if (reply.text !== undefined) for (const piece of splitText(reply.text, size)) chunk({ content: piece });
  if (reply.refusal !== undefined) chunk({ refusal: reply.refusal });
  calls.forEach((call, index) => {
    chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] });
    for (const piece of splitText(call.function.arguments, size)) chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  if (reply.error !== undefined) chunk({ content: '' }, 'error', { error: reply.error });
  else chunk({}, finishReason(reply));
  const replyUsage = usage(reply);
  if (replyUsage !== undefined) events.push(`data: ${JSON.stringify({ ...base, choices: [], usage: replyUsage })}\n\n`);
  events.push('data: [DONE]\n\n');
  return streamReply(events, reply);
}
