import type { FetchFunction } from '../http/post-json.js';

/**
 * Serialises `value` as JSON, writing the code units of strings (and keys) chosen by `escape` as
 * `\uXXXX` (upper or lower case hex) instead of literally. Characters JSON requires escaped are
 * escaped regardless.
 */
export function encodeJson(value: unknown, escape: (index: number) => 'plain' | 'lower' | 'upper' = () => 'plain'): string {
  let counter = 0;
  const encodeString = (text: string): string => {
    let out = '"';
    for (let index = 0; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      const mode = escape(counter++);
      const char = text[index]!;
      if (mode !== 'plain' || code < 0x20 || char === '"' || char === '\\' || (code >= 0xd800 && code <= 0xdfff)) {
        const hex = code.toString(16).padStart(4, '0');
        out += `\\u${mode === 'upper' ? hex.toUpperCase() : hex}`;
      } else out += char;
    }
    return `${out}"`;
  };
  const encode = (current: unknown): string => {
    if (typeof current === 'string') return encodeString(current);
    if (Array.isArray(current)) return `[${current.map(encode).join(',')}]`;
    if (typeof current === 'object' && current !== null) {
      return `{${Object.entries(current)
        .map(([key, child]) => `${encodeString(key)}:${encode(child)}`)
        .join(',')}}`;
    }
    return JSON.stringify(current) ?? 'null';
  };
  return encode(value);
}

/** One SSE event whose data is `json` (already encoded). */
export const sseEvent = (json: string, event?: string): string => `${event === undefined ? '' : `event: ${event}\n`}data: ${json}\n\n`;

/** Splits `bytes` at the given cut points (sorted, deduplicated, inside the array). */
export function splitBytes(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => Math.max(0, Math.min(bytes.length, cut))))].sort((left, right) => left - right);
  const parts: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    if (point > start) parts.push(bytes.subarray(start, point));
    start = point;
  }
  return parts;
}

/**
 * A `fetch` that answers every call with a real `Response` whose body streams `chunks` (bytes
 * exactly as given, so cuts may fall inside a UTF-8 character), then ends.
 */
export function fetchAnswering(chunks: readonly Uint8Array[], init: { status?: number; contentType?: string; headers?: Record<string, string> } = {}): FetchFunction {
  return async () => {
    let index = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks[index++];
        if (chunk === undefined) controller.close();
        else controller.enqueue(chunk);
      },
    });
    return new Response(body, {
      status: init.status ?? 200,
      headers: { 'content-type': init.contentType ?? 'text/event-stream', ...init.headers },
    });
  };
}

/** OpenAI-compatible SSE text for a reply: text deltas, tool-call argument deltas, a finish, `[DONE]`. */
export function openAIStream(reply: { textPieces: string[]; calls?: { id: string; name: string; argumentPieces: string[] }[]; error?: string }, escape?: (index: number) => 'plain' | 'lower' | 'upper'): string {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) =>
    sseEvent(encodeJson({ id: 'c1', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }], ...extra }, escape));
  let out = chunk({ role: 'assistant', content: '' });
  for (const piece of reply.textPieces) out += chunk({ content: piece });
  (reply.calls ?? []).forEach((call, index) => {
    out += chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
    for (const piece of call.argumentPieces) out += chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  if (reply.error !== undefined) out += chunk({ content: '' }, 'error', { error: { message: reply.error, code: 502 } });
  else out += chunk({}, (reply.calls?.length ?? 0) > 0 ? 'tool_calls' : 'stop');
  return `${out}data: [DONE]\n\n`;
}

/** Anthropic Messages SSE text for a reply: text deltas, `input_json_delta` parts, `message_stop`. */
export function anthropicStream(reply: { textPieces: string[]; calls?: { id: string; name: string; argumentPieces: string[] }[]; error?: string }, escape?: (index: number) => 'plain' | 'lower' | 'upper'): string {
  const event = (type: string, data: Record<string, unknown>) => sseEvent(encodeJson({ type, ...data }, escape), type);
  let out = event('message_start', { message: { id: 'msg_1', model: 'claude', content: [], usage: { input_tokens: 1 } } });
  out += event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
  for (const piece of reply.textPieces) out += event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: piece } });
  out += event('content_block_stop', { index: 0 });
  (reply.calls ?? []).forEach((call, offset) => {
    const index = offset + 1;
    out += event('content_block_start', { index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } });
    for (const piece of call.argumentPieces) out += event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
    out += event('content_block_stop', { index });
  });
  if (reply.error !== undefined) return out + event('error', { error: { type: 'overloaded_error', message: reply.error } });
  out += event('message_delta', { delta: { stop_reason: (reply.calls?.length ?? 0) > 0 ? 'tool_use' : 'end_turn' }, usage: { output_tokens: 2 } });
  return out + event('message_stop', {});
}

/** Ollama `/api/chat` NDJSON text for a reply: a line per text piece, the tool calls whole in one line, then the `done` line. */
export function ollamaStream(reply: { textPieces: string[]; calls?: { id: string; name: string; argumentPieces: string[] }[]; error?: string }, escape?: (index: number) => 'plain' | 'lower' | 'upper'): string {
  const line = (message: Record<string, unknown>, extra: Record<string, unknown> = { done: false }) =>
    `${encodeJson({ model: 'm', created_at: '2026-01-01T00:00:00Z', message: { role: 'assistant', ...message }, ...extra }, escape)}\n`;
  let out = '';
  for (const piece of reply.textPieces) out += line({ content: piece });
  const calls = reply.calls ?? [];
  if (calls.length > 0) {
    out += line({ content: '', tool_calls: calls.map((call) => ({ id: call.id, function: { name: call.name, arguments: objectOrText(call.argumentPieces.join('')) } })) });
  }
  if (reply.error !== undefined) return `${out}${encodeJson({ error: reply.error }, escape)}\n`;
  return out + line({ content: '' }, { done: true, done_reason: 'stop', prompt_eval_count: 1, eval_count: 2 });
}

/** Ollama sends tool arguments as a JSON object: the parsed text when it is one, else the text itself. */
function objectOrText(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : text;
  } catch {
    return text;
  }
}
