import type { FakeModelReply, FakeModelServer, FakeModelServerOptions, FakeRecordedRequest, FakeServerReply } from './fake-model-server-types.js';
import { renderCommonReply, splitText, startFakeHttpServer, streamReply, type RenderedReply } from './internal/start-fake-http-server.js';

/**
 * Starts a loopback server speaking the OpenAI Responses API (`POST /v1/responses`): a response
 * object, or — when the request's `stream` is `true` — the real SSE event sequence
 * (`response.created`, `response.output_item.added`, `response.output_text.delta`,
 * `response.function_call_arguments.delta`, `response.output_item.done`, `response.completed` /
 * `response.incomplete` / `response.failed`). Like the real API it checks replayed input: a
 * `function_call_output` needs its `function_call`, a `function_call` sent with its item id needs
 * the `reasoning` item issued before it, a reasoning item needs its `summary` array and, with
 * `store: false`, the `encrypted_content` it was issued with; message content parts must be of
 * their role's types (`input_text` / `input_image` / `input_file` for users, `output_text` /
 * `refusal` for the assistant), a function `tool_choice` must name a tool, and a `json_schema`
 * `text.format` needs its `name` and `schema` — otherwise HTTP 400. A reply's `reasoning` streams
 * as `response.reasoning_summary_text.delta` events. Node only.
 * @example
 * ```ts
 * const server = await createFakeOpenAIResponsesServer({ replies: [{ text: 'Hello!' }] });
 * const model = createOpenAIResponsesModel({ baseUrl: server.url, apiKey: 'sk-test', model: 'gpt-5-mini' });
 * await server.close();
 * ```
 */
export function createFakeOpenAIResponsesServer(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  // What this server issued: reasoning item id → encrypted content, function-call item id → its reasoning item id.
  const issuedReasoning = new Map<string, string>();
  const reasoningOfCall = new Map<string, string>();
  return startFakeHttpServer(
    {
      path: '/v1/responses',
      render: (reply, request, sequence) => {
        const common = renderCommonReply(reply);
        if (common !== undefined) return common;
        if (reply.type === 'error') return renderError(reply.status, reply.message, reply.retryAfter, reply.headers);
        const problem = checkInput(request, issuedReasoning, reasoningOfCall);
        if (problem !== undefined) return renderError(400, problem);
        const body = request.body as { stream?: unknown; model?: unknown; store?: unknown; include?: unknown } | undefined;
        const response = buildResponse(reply as FakeModelReply, {
          model: typeof body?.model === 'string' ? body.model : 'fake-model',
          sequence,
          encrypted: Array.isArray(body?.include) && body.include.includes('reasoning.encrypted_content'),
        });
        for (const item of response.output) {
          if (item.type === 'reasoning') issuedReasoning.set(item.id, item.encrypted_content ?? '');
        }
        const reasoning = response.output.find((item) => item.type === 'reasoning');
        for (const item of response.output) if (item.type === 'function_call' && reasoning !== undefined) reasoningOfCall.set(item.id, reasoning.id);
        return body?.stream === true ? renderStream(response, reply as FakeModelReply) : renderJson(response, reply as FakeModelReply);
      },
      unscripted: (message, status): FakeServerReply => ({ type: 'error', status, message }),
    },
    options.replies ?? [],
    options.port,
  );
}

type InputItem = { type?: unknown; role?: unknown; id?: unknown; call_id?: unknown; encrypted_content?: unknown; summary?: unknown; content?: unknown };
type RequestBody = { input?: unknown; store?: unknown; tools?: unknown; tool_choice?: unknown; text?: unknown };

const userPartTypes = new Set(['input_text', 'input_image', 'input_file']);
const assistantPartTypes = new Set(['output_text', 'refusal']);

function checkInput(request: FakeRecordedRequest, issuedReasoning: Map<string, string>, reasoningOfCall: Map<string, string>): string | undefined {
  const body = request.body as RequestBody | undefined;
  if (!Array.isArray(body?.input)) return "Missing required parameter: 'input'.";
  const problem = checkOptions(body);
  if (problem !== undefined) return problem;
  const items = body.input as InputItem[];
  const calls = new Set<unknown>();
  const reasoning = new Set<unknown>();
  for (const [index, item] of items.entries()) {
    if (item.type === 'message' || (item.type === undefined && item.role !== undefined)) {
      const content = checkContent(item, index);
      if (content !== undefined) return content;
    }
    if (item.type === 'reasoning') {
      if (!Array.isArray(item.summary)) return `Missing required parameter: 'input[${index}].summary'.`;
      reasoning.add(item.id);
      const issued = typeof item.id === 'string' ? issuedReasoning.get(item.id) : undefined;
      if (issued === undefined) return `Item with id '${String(item.id)}' not found.`;
      if (body.store === false && item.encrypted_content !== issued) {
        return `Item with id '${String(item.id)}' not found. Items are not persisted when \`store\` is set to false.`;
      }
    }
    if (item.type === 'function_call') {
      calls.add(item.call_id);
      const needed = typeof item.id === 'string' ? reasoningOfCall.get(item.id) : undefined;
      if (needed !== undefined && !reasoning.has(needed)) {
        return `Item '${String(item.id)}' of type 'function_call' was provided without its required 'reasoning' item: '${needed}'.`;
      }
    }
    if (item.type === 'function_call_output' && !calls.has(item.call_id)) {
      return `No tool call found for function call output with call_id ${String(item.call_id)}.`;
    }
  }
  return undefined;
}

function checkContent(item: InputItem, index: number): string | undefined {
  if (typeof item.content === 'string') return undefined;
  if (!Array.isArray(item.content)) return `Missing required parameter: 'input[${index}].content'.`;
  const allowed = item.role === 'assistant' ? assistantPartTypes : userPartTypes;
  for (const [at, part] of (item.content as Record<string, unknown>[]).entries()) {
    const where = `input[${index}].content[${at}]`;
    if (typeof part.type !== 'string' || !allowed.has(part.type)) {
      return `Invalid value: '${String(part.type)}'. Supported values are: ${[...allowed].map((type) => `'${type}'`).join(', ')}. ('${where}.type')`;
    }
    if (part.type === 'input_image' && typeof part.image_url !== 'string' && typeof part.file_id !== 'string') return `Missing required parameter: '${where}.image_url'.`;
    if (part.type === 'input_file') {
      if (typeof part.file_data === 'string') {
        if (typeof part.filename !== 'string') return `Missing required parameter: '${where}.filename'.`;
        if (!/^data:[^;,]+;base64,/.test(part.file_data)) return `Invalid file data: '${where}.file_data'. Expected a base64-encoded data URL.`;
      } else if (typeof part.file_url !== 'string' && typeof part.file_id !== 'string') {
        return `Missing required parameter: '${where}.file_data'.`;
      }
    }
  }
  return undefined;
}

function checkOptions(body: RequestBody): string | undefined {
  const choice = body.tool_choice as { type?: unknown; name?: unknown } | string | undefined;
  if (typeof choice === 'object' && choice !== null && choice.type === 'function') {
    const tools = Array.isArray(body.tools) ? (body.tools as { name?: unknown }[]) : [];
    if (!tools.some((tool) => tool.name === choice.name)) return "Tool choice 'function' not found in 'tools' parameter.";
  }
  const format = (body.text as { format?: Record<string, unknown> } | undefined)?.format;
  if (format?.type === 'json_schema') {
    if (typeof format.name !== 'string') return "Missing required parameter: 'text.format.name'.";
    if (typeof format.schema !== 'object' || format.schema === null) return "Missing required parameter: 'text.format.schema'.";
  }
  return undefined;
}

type OutputItem =
  | { type: 'reasoning'; id: string; summary: { type: 'summary_text'; text: string }[]; encrypted_content?: string }
  | { type: 'message'; id: string; status: string; role: 'assistant'; content: ({ type: 'output_text'; text: string; annotations: [] } | { type: 'refusal'; refusal: string })[] }
  | { type: 'function_call'; id: string; status: string; call_id: string; name: string; arguments: string };

interface FakeResponse {
  id: string;
  object: 'response';
  created_at: number;
  status: string;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: string } | null;
  model: string;
  output: OutputItem[];
  usage: Record<string, unknown> | null;
}

function buildResponse(reply: FakeModelReply, { model, sequence, encrypted }: { model: string; sequence: number; encrypted: boolean }): FakeResponse {
  const output: OutputItem[] = [];
  if (reply.reasoning !== undefined) {
    output.push({
      type: 'reasoning',
      id: `rs_fake_${sequence}`,
      summary: [{ type: 'summary_text', text: reply.reasoning }],
      ...(encrypted ? { encrypted_content: `gAAAAB_fake_${sequence}` } : {}),
    });
  }
  if (reply.text !== undefined || reply.refusal !== undefined) {
    output.push({
      type: 'message',
      id: `msg_fake_${sequence}`,
      status: 'completed',
      role: 'assistant',
      content: reply.refusal !== undefined ? [{ type: 'refusal', refusal: reply.refusal }] : [{ type: 'output_text', text: reply.text ?? '', annotations: [] }],
    });
  }
  (reply.toolCalls ?? []).forEach((call, index) => {
    output.push({
      type: 'function_call',
      id: `fc_fake_${sequence}_${index + 1}`,
      status: 'completed',
      call_id: call.id ?? `call_fake_${sequence}_${index + 1}`,
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    });
  });
  const incomplete = reply.finishReason === 'max_output_tokens' || reply.finishReason === 'content_filter';
  return {
    id: `resp_fake_${sequence}`,
    object: 'response',
    created_at: 1_767_225_600 + sequence,
    status: reply.error !== undefined ? 'failed' : incomplete ? 'incomplete' : (reply.finishReason ?? 'completed'),
    error: reply.error === undefined ? null : { code: String(reply.error.code ?? 'server_error'), message: reply.error.message },
    incomplete_details: incomplete ? { reason: reply.finishReason! } : null,
    model,
    output,
    usage: usage(reply),
  };
}

function usage(reply: FakeModelReply): Record<string, unknown> | null {
  if (reply.usage === undefined) return null;
  const input = reply.usage.inputTokens ?? 0;
  const output = reply.usage.outputTokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: reply.usage.cachedInputTokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reply.usage.reasoningTokens ?? 0 },
    total_tokens: input + output,
  };
}

function renderError(status: number, message = `HTTP ${status}`, retryAfter?: string | number, headers: Record<string, string> = {}): RenderedReply {
  return {
    kind: 'body',
    status,
    headers: { 'content-type': 'application/json', ...(retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) }), ...headers },
    body: JSON.stringify({
      error: { message, type: status === 429 ? 'tokens' : status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code: status === 429 ? 'rate_limit_exceeded' : null },
    }),
  };
}

function renderJson(response: FakeResponse, reply: FakeModelReply): RenderedReply {
  return { kind: 'body', status: 200, headers: { 'content-type': 'application/json', ...reply.headers }, body: JSON.stringify(response) };
}

function renderStream(response: FakeResponse, reply: FakeModelReply): RenderedReply {
  const size = reply.deltaSize ?? 4;
  const events: string[] = [];
  let sequenceNumber = 0;
  const emit = (type: string, fields: Record<string, unknown>) => {
    events.push(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequenceNumber, ...fields })}\n\n`);
    sequenceNumber += 1;
  };
  const pending = { ...response, status: 'in_progress', error: null, incomplete_details: null, output: [], usage: null };
  emit('response.created', { response: pending });
  emit('response.in_progress', { response: pending });
  response.output.forEach((item, outputIndex) => {
    const at = { item_id: item.id, output_index: outputIndex };
    switch (item.type) {
      case 'reasoning':
        emit('response.output_item.added', { output_index: outputIndex, item: { ...item, summary: [] } });
        for (const piece of splitText(item.summary[0]?.text ?? '', size)) emit('response.reasoning_summary_text.delta', { ...at, summary_index: 0, delta: piece });
        break;
      case 'message':
        emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } });
        item.content.forEach((part, contentIndex) => {
          const where = { ...at, content_index: contentIndex };
          if (part.type === 'output_text') {
            emit('response.content_part.added', { ...where, part: { type: 'output_text', text: '', annotations: [] } });
            for (const piece of splitText(part.text, size)) emit('response.output_text.delta', { ...where, delta: piece, logprobs: [] });
            emit('response.output_text.done', { ...where, text: part.text, logprobs: [] });
          } else {
            emit('response.content_part.added', { ...where, part: { type: 'refusal', refusal: '' } });
            for (const piece of splitText(part.refusal, size)) emit('response.refusal.delta', { ...where, delta: piece });
            emit('response.refusal.done', { ...where, refusal: part.refusal });
          }
          emit('response.content_part.done', { ...where, part });
        });
        break;
      case 'function_call':
        emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', arguments: '' } });
        for (const piece of splitText(item.arguments, size)) emit('response.function_call_arguments.delta', { ...at, delta: piece });
        emit('response.function_call_arguments.done', { ...at, arguments: item.arguments });
        break;
    }
    emit('response.output_item.done', { output_index: outputIndex, item });
  });
  const terminal = response.status === 'failed' ? 'response.failed' : response.status === 'incomplete' ? 'response.incomplete' : 'response.completed';
  emit(terminal, { response });
  return streamReply(events, reply);
}
