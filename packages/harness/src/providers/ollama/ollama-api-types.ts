import * as z from '../../shared/validation/index.js';
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
  const count = z.optional(z.nullable(z.number()));
  const toolCall = z.object({
    id: z.optional(z.nullable(z.string())),
    function: z.object({
      name: z.optional(z.nullable(z.string())),
      arguments: z.optional(z.nullable(z.union([z.catchall(z.object({}), z.unknown()), z.string()]))),
    }),
  });
  const message = z.object({
    role: z.optional(z.nullable(z.string())),
    content: z.optional(z.nullable(z.string())),
    thinking: z.optional(z.nullable(z.string())),
    tool_calls: z.optional(z.nullable(z.array(toolCall))),
  });
  /** A whole `/api/chat` response, or one line of a streamed one (the same shape). */
  const chunk = z.object({
    model: z.optional(z.nullable(z.string())),
    created_at: z.optional(z.nullable(z.string())),
    message: z.optional(z.nullable(message)),
    done: z.optional(z.nullable(z.boolean())),
    done_reason: z.optional(z.nullable(z.string())),
    prompt_eval_count: count,
    eval_count: count,
    load_duration: count,
    total_duration: count,
    error: z.optional(z.nullable(z.union([z.string(), z.object({ message: z.optional(z.nullable(z.string())) })]))),
  });
  return { chunk };
});

/** Validates an Ollama `/api/chat` response body or stream line (unknown fields are ignored). */
export const ollamaChatChunkSchema = /* @__PURE__ */ lazySchema(() => schemas().chunk);

/** A parsed Ollama `/api/chat` response or stream line. */
export type OllamaChatChunk = z.infer<ReturnType<typeof schemas>['chunk']>;
