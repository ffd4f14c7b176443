import * as v from '../../shared/validation/index.js';
import { lazySchema, memo } from '../../shared/schemas/lazy-schema.js';

/** The wire schemas, built on first use so importing the package constructs nothing. */
export const anthropicSchemas = /* @__PURE__ */ memo(() => {
  const optionalString = v.optional(v.nullable(v.string()));

  /**
   * A content block of a response (`text`, `tool_use`, `thinking` with `thinking` and `signature`,
   * `redacted_thinking` with `data` …). Unknown fields are ignored.
   */
  const anthropicContentBlockSchema = v.object({
    type: v.string(),
    text: optionalString,
    id: optionalString,
    name: optionalString,
    input: v.optional(v.unknown()),
    thinking: optionalString,
    signature: optionalString,
    data: optionalString,
  });

  /** The body of a non-streamed `POST /v1/messages` response (and `message_start.message`). */
  const anthropicMessageSchema = v.object({
    id: optionalString,
    model: optionalString,
    content: v.optional(v.nullable(v.array(anthropicContentBlockSchema))),
    stop_reason: optionalString,
    /** Read leniently: a refusal may carry `{ explanation }`. */
    stop_details: v.optional(v.unknown()),
    /** Read leniently by `readAnthropicUsage`. */
    usage: v.optional(v.unknown()),
  });

  /**
   * One streamed event (`message_start`, `content_block_start`, `content_block_delta` with
   * `text_delta`, `input_json_delta`, `thinking_delta` or `signature_delta`, `content_block_stop`,
   * `message_delta`, `message_stop`, `ping`, `error`), validated loosely and dispatched on `type`.
   */
  const anthropicStreamEventSchema = v.object({
    type: v.string(),
    index: v.optional(v.number()),
    message: v.optional(anthropicMessageSchema),
    content_block: v.optional(anthropicContentBlockSchema),
    delta: v.optional(
      v.object({
        type: optionalString,
        text: optionalString,
        partial_json: optionalString,
        thinking: optionalString,
        signature: optionalString,
        stop_reason: optionalString,
        stop_details: v.optional(v.unknown()),
      }),
    ),
    usage: v.optional(v.unknown()),
    error: v.optional(v.object({ type: optionalString, message: optionalString })),
  });
  return { optionalString, anthropicContentBlockSchema, anthropicMessageSchema, anthropicStreamEventSchema };
});

/** Validates with `anthropicContentBlockSchema`, built on first use. */
export const anthropicContentBlockSchema = /* @__PURE__ */ lazySchema(() => anthropicSchemas().anthropicContentBlockSchema);

/** Validates with `anthropicMessageSchema`, built on first use. */
export const anthropicMessageSchema = /* @__PURE__ */ lazySchema(() => anthropicSchemas().anthropicMessageSchema);

/** Validates with `anthropicStreamEventSchema`, built on first use. */
export const anthropicStreamEventSchema = /* @__PURE__ */ lazySchema(() => anthropicSchemas().anthropicStreamEventSchema);

/** A parsed response message. */
export type AnthropicMessage = v.infer<ReturnType<typeof anthropicSchemas>['anthropicMessageSchema']>;
/** A parsed stream event. */
export type AnthropicStreamEvent = v.infer<ReturnType<typeof anthropicSchemas>['anthropicStreamEventSchema']>;

/** Where the bytes of an image or document block are: inline base64, an address, or (documents) plain text. */
export type AnthropicSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string }
  | { type: 'text'; media_type: 'text/plain'; data: string };

/** A content block of a request message. */
export type AnthropicRequestContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: Extract<AnthropicSource, { type: 'base64' | 'url' }> }
  | { type: 'document'; source: AnthropicSource; title?: string }
  /** Replayed unchanged from an earlier response: the API checks `signature` against `thinking`. */
  | { type: 'thinking'; thinking: string; signature: string }
  /** Replayed unchanged from an earlier response. */
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean };

/** A request message. */
export interface AnthropicRequestMessage {
  role: 'user' | 'assistant';
  content: AnthropicRequestContentBlock[];
}

/** The Messages API `tool_choice`. */
export type AnthropicToolChoice = { type: 'auto' } | { type: 'any' } | { type: 'none' } | { type: 'tool'; name: string };

/** A tool as the Messages API describes it. */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
}
