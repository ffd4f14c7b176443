import * as v from '../../shared/validation/index.js';
import { lazySchema, memo } from '../../shared/schemas/lazy-schema.js';
import { openUnion } from '../internal/open-union.js';

/** The wire schemas, built on first use so importing the package constructs nothing. */
export const openAICompatibleSchemas = /* @__PURE__ */ memo(() => {
  const optionalString = v.optional(v.nullable(v.string()));

  const messageToolCallSchema = v.object({
    id: optionalString,
    type: optionalString,
    function: v.object({
      name: optionalString,
      arguments: v.optional(v.nullable(v.union([v.string(), v.catchall(v.object({}), v.unknown())]))),
    }),
  });

  /**
   * `content` as a string, or as an array of parts (OpenAI, Mistral): `text` parts (a part without
   * `type` counts as one) and Mistral's `thinking` parts (`thinking`: text parts, or a string) are
   * read; parts of other kinds read as `OtherKind` (see `readChatContent`).
   */
  const contentSchema = v.optional(
    v.nullable(
      v.union([
        v.string(),
        v.array(
          openUnion(
            {
              text: v.object({ type: v.optional(v.literal('text')), text: optionalString }),
              thinking: v.object({
                type: v.literal('thinking'),
                thinking: v.optional(v.nullable(v.union([v.string(), v.array(openUnion({ text: v.object({ type: v.literal('text'), text: v.string() }) }))]))),
              }),
            },
            { untyped: 'text' },
          ),
        ),
      ]),
    ),
  );

  /** OpenRouter's `reasoning_details`: opaque, read leniently by `readReasoningDetails` (objects kept as they are). */
  const reasoningDetailsSchema = v.optional(v.unknown());

  /** The body of a non-streamed `POST /chat/completions` response. Unknown fields are ignored. */
  const openAICompatibleResponseSchema = v.object({
    id: optionalString,
    model: optionalString,
    choices: v.optional(
      v.nullable(
        v.array(
          v.object({
            message: v.optional(
              v.nullable(
                v.object({
                  content: contentSchema,
                  refusal: optionalString,
                  /** DeepSeek, vLLM. */
                  reasoning_content: optionalString,
                  /** OpenRouter. */
                  reasoning: optionalString,
                  reasoning_details: reasoningDetailsSchema,
                  tool_calls: v.optional(v.nullable(v.array(messageToolCallSchema))),
                }),
              ),
            ),
            finish_reason: optionalString,
          }),
        ),
      ),
    ),
    /** Read leniently by `readOpenAICompatibleUsage`: prompt/completion tokens and OpenRouter's `cost`. */
    usage: v.optional(v.unknown()),
    // Any shape (`{ message, code, type }`, a string …): read by `readProviderError`.
    error: v.optional(v.unknown()),
  });

  /** One `data:` event of a streamed response (`chat.completion.chunk`). */
  const openAICompatibleChunkSchema = v.object({
    id: optionalString,
    model: optionalString,
    choices: v.optional(
      v.nullable(
        v.array(
          v.object({
            delta: v.optional(
              v.nullable(
                v.object({
                  content: contentSchema,
                  refusal: optionalString,
                  reasoning_content: optionalString,
                  reasoning: optionalString,
                  reasoning_details: reasoningDetailsSchema,
                  tool_calls: v.optional(
                    v.nullable(
                      v.array(
                        v.object({
                          index: v.optional(v.nullable(v.number())),
                          id: optionalString,
                          function: v.optional(v.nullable(v.object({ name: optionalString, arguments: optionalString }))),
                        }),
                      ),
                    ),
                  ),
                }),
              ),
            ),
            finish_reason: optionalString,
          }),
        ),
      ),
    ),
    usage: v.optional(v.unknown()),
    // Any shape (`{ message, code, type }`, a string …): read by `readProviderError`.
    error: v.optional(v.unknown()),
  });
  return { optionalString, messageToolCallSchema, contentSchema, openAICompatibleResponseSchema, openAICompatibleChunkSchema };
});


/** Validates with `openAICompatibleResponseSchema`, built on first use. */
export const openAICompatibleResponseSchema = /* @__PURE__ */ lazySchema(() => openAICompatibleSchemas().openAICompatibleResponseSchema);

/** Validates with `openAICompatibleChunkSchema`, built on first use. */
export const openAICompatibleChunkSchema = /* @__PURE__ */ lazySchema(() => openAICompatibleSchemas().openAICompatibleChunkSchema);

/** A parsed non-streamed response. */
export type OpenAICompatibleResponse = v.infer<ReturnType<typeof openAICompatibleSchemas>['openAICompatibleResponseSchema']>;
/** A parsed stream chunk. */
export type OpenAICompatibleChunk = v.infer<ReturnType<typeof openAICompatibleSchemas>['openAICompatibleChunkSchema']>;
/** A parsed message or delta `content`: a string, an array of parts, or nothing. */
export type OpenAICompatibleContent = v.infer<ReturnType<typeof openAICompatibleSchemas>['contentSchema']>;

/** A tool call in an assistant message of the request. */
export interface OpenAICompatibleToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** One part of a user message's `content` array: text, an image (URL or `data:` URL) or an inline file. */
export type OpenAICompatibleContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'file'; file: { filename: string; file_data: string } };

/** One message of the request's `messages`. */
export type OpenAICompatibleMessage =
  | { role: 'system' | 'developer'; content: string }
  | { role: 'user'; content: string | OpenAICompatibleContentPart[] }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: OpenAICompatibleToolCall[];
      /** OpenRouter's reasoning of this step, replayed unchanged (needed for Anthropic and Gemini thinking). */
      reasoning_details?: Record<string, unknown>[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** The request's `tool_choice`. */
export type OpenAICompatibleToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

/** The request's `response_format` for a structured answer. */
export interface OpenAICompatibleResponseFormat {
  type: 'json_schema';
  json_schema: { name: string; schema: Record<string, unknown>; description?: string };
}

/** One entry of the request's `tools`. */
export interface OpenAICompatibleTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}
