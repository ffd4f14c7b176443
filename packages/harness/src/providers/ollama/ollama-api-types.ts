import * as v from '../../shared/validation/index.js';
import { lazySchema, memo } from '../../shared/schemas/lazy-schema.js';

/** A tool call in an Ollama chat message: arguments are a JSON object (not a string). */
export interface OllamaToolCall {
  id?: string;
  function: { name: string; arguments: Record<string, unknown> };
}

/** A message of an Ollama `/api/chat` request. */
export type OllamaMessage =
  | { role: 'system'; content: string }
  /** `images`: base64 image data (no `data:` prefix), for vision models. */
  | { role: 'user'; content: string; images?: string[] }
  | { role: 'assistant'; content: string; tool_calls?: OllamaToolCall[] }
  | { role: 'tool'; content: string; tool_name: string };

/** A tool as Ollama's `/api/chat` describes it (a function with JSON Schema parameters). */
export interface OllamaTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

const schemas = /* @__PURE__ */ memo(() => {
  const count = v.optional(v.nullable(v.number()));
  const toolCall = v.object({
    id: v.optional(v.nullable(v.string())),
    function: v.object({
      name: v.optional(v.nullable(v.string())),
      arguments: v.optional(v.nullable(v.union([v.catchall(v.object({}), v.unknown()), v.string()]))),
    }),
  });
  const message = v.object({
    role: v.optional(v.nullable(v.string())),
    content: v.optional(v.nullable(v.string())),
    thinking: v.optional(v.nullable(v.string())),
    tool_calls: v.optional(v.nullable(v.array(toolCall))),
  });
  /** A whole `/api/chat` response, or one line of a streamed one (the same shape). */
  const chunk = v.object({
    model: v.optional(v.nullable(v.string())),
    created_at: v.optional(v.nullable(v.string())),
    message: v.optional(v.nullable(message)),
    done: v.optional(v.nullable(v.boolean())),
    done_reason: v.optional(v.nullable(v.string())),
    prompt_eval_count: count,
    eval_count: count,
    load_duration: count,
    total_duration: count,
    error: v.optional(v.nullable(v.union([v.string(), v.object({ message: v.optional(v.nullable(v.string())) })]))),
  });
  return { chunk };
});

/** Validates an Ollama `/api/chat` response body or stream line (unknown fields are ignored). */
export const ollamaChatChunkSchema = /* @__PURE__ */ lazySchema(() => schemas().chunk);

/** A parsed Ollama `/api/chat` response or stream line. */
export type OllamaChatChunk = v.infer<ReturnType<typeof schemas>['chunk']>;
