import * as v from '../../shared/validation/index.js';
import { lazySchema, memo } from '../../shared/schemas/lazy-schema.js';
import { openUnion, type OtherKind } from '../internal/open-union.js';

/** A reasoning item sent back with the step it preceded (rebuilt from the transcript's reasoning parts). */
export interface OpenAIResponsesReasoningItem {
  type: 'reasoning';
  id: string;
  summary: { type: 'summary_text'; text: string }[];
  encrypted_content?: string;
}

/** A content part of a user message: text, an image (https or `data:` URL) or a file (inline or by URL). */
export type OpenAIResponsesInputContent =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' }
  | { type: 'input_file'; filename: string; file_data: string }
  | { type: 'input_file'; file_url: string };

/** An item of a Responses API request's `input`. */
export type OpenAIResponsesInputItem =
  | { type: 'message'; role: 'developer' | 'system'; content: string }
  | { type: 'message'; role: 'user'; content: string | OpenAIResponsesInputContent[] }
  | { type: 'message'; role: 'assistant'; content: string | { type: 'output_text'; text: string }[]; id?: string }
  | { type: 'function_call'; call_id: string; name: string; arguments: string; id?: string }
  | { type: 'function_call_output'; call_id: string; output: string }
  | OpenAIResponsesReasoningItem;

/** A function tool as the Responses API describes it (flat, not nested under `function`). */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  strict: false;
}

const schemas = /* @__PURE__ */ memo(() => {
  const nullableString = v.optional(v.nullable(v.string()));
  const index = v.optional(v.nullable(v.number()));
  // Only the kinds the adapter reads are typed, each with its own fields; any other kind (hosted
  // tool calls, new item or part types) reads as `OtherKind` and is skipped with a note.
  const contentPart = openUnion({
    output_text: v.object({ type: v.literal('output_text'), text: v.string() }),
    refusal: v.object({ type: v.literal('refusal'), refusal: v.string() }),
  });
  const item = openUnion({
    message: v.object({
      type: v.literal('message'),
      id: nullableString,
      content: v.optional(v.nullable(v.array(contentPart))),
    }),
    function_call: v.object({
      type: v.literal('function_call'),
      id: nullableString,
      call_id: nullableString,
      name: nullableString,
      arguments: nullableString,
    }),
    reasoning: v.object({
      type: v.literal('reasoning'),
      id: nullableString,
      summary: v.optional(v.nullable(v.array(v.unknown()))),
      encrypted_content: nullableString,
    }),
  });
  const response = v.object({
    id: nullableString,
    status: nullableString,
    model: nullableString,
    output: v.optional(v.nullable(v.array(item))),
    usage: v.optional(v.unknown()),
    // Read by `readProviderError`, whatever its shape.
    error: v.optional(v.unknown()),
    incomplete_details: v.optional(v.nullable(v.object({ reason: nullableString }))),
  });
  const itemEvent = <T extends string>(type: T) => v.object({ type: v.literal(type), output_index: index, item: v.optional(v.nullable(item)) });
  // Deltas name their item by `output_index` (OpenAI) or only by `item_id` (xAI).
  const partDelta = <T extends string>(type: T) =>
    v.object({ type: v.literal(type), output_index: index, item_id: nullableString, content_index: index, delta: nullableString });
  const terminal = <T extends string>(type: T) => v.object({ type: v.literal(type), response: v.optional(v.nullable(response)) });
  // Only the events the adapter reads are typed, each with its own fields; any other event type
  // reads as `OtherKind` and is skipped (see the assembler).
  const event = openUnion({
    'response.output_item.added': itemEvent('response.output_item.added'),
    'response.output_item.done': itemEvent('response.output_item.done'),
    'response.output_text.delta': partDelta('response.output_text.delta'),
    'response.refusal.delta': partDelta('response.refusal.delta'),
    'response.reasoning_text.delta': partDelta('response.reasoning_text.delta'),
    'response.reasoning_summary_text.delta': v.object({
      type: v.literal('response.reasoning_summary_text.delta'),
      output_index: index,
      summary_index: index,
      delta: nullableString,
    }),
    'response.function_call_arguments.delta': v.object({
      type: v.literal('response.function_call_arguments.delta'),
      output_index: index,
      item_id: nullableString,
      delta: nullableString,
    }),
    'response.function_call_arguments.done': v.object({
      type: v.literal('response.function_call_arguments.done'),
      output_index: index,
      item_id: nullableString,
      arguments: nullableString,
    }),
    'response.completed': terminal('response.completed'),
    'response.incomplete': terminal('response.incomplete'),
    'response.failed': terminal('response.failed'),
    // Code and message at the top level (as documented) or nested in `error` (as sent): read by `readProviderError`.
    error: v.object({ type: v.literal('error'), code: v.optional(v.unknown()), message: v.optional(v.unknown()), error: v.optional(v.unknown()) }),
  });
  return { response, event };
});

/** Validates a Responses API response object (unknown fields are ignored, output items of other kinds read as `OtherKind`). */
export const openAIResponsesResponseSchema = /* @__PURE__ */ lazySchema(() => schemas().response);

/** Validates one Responses API stream event by its `type` (events of other types read as `OtherKind`). */
export const openAIResponsesStreamEventSchema = /* @__PURE__ */ lazySchema(() => schemas().event);

/** A parsed Responses API response. */
export type OpenAIResponsesResponse = v.infer<ReturnType<typeof schemas>['response']>;

/** A parsed output item: one of the kinds the adapter reads, or `OtherKind`. */
export type OpenAIResponsesRawOutputItem = NonNullable<OpenAIResponsesResponse['output']>[number];

/** A content part of an output message that the adapter reads. */
export type OpenAIResponsesContentPart = { type: 'output_text'; text: string } | { type: 'refusal'; refusal: string };

/** An output item of a kind the adapter reads, with the content parts it reads (see `readOutputItem`). */
export type OpenAIResponsesOutputItem =
  | { type: 'message'; id?: string | null | undefined; content: OpenAIResponsesContentPart[] }
  | Exclude<OpenAIResponsesRawOutputItem, OtherKind | { type: 'message' }>;

/** A parsed Responses API stream event: one of the types the adapter reads, or `OtherKind`. */
export type OpenAIResponsesStreamEvent = v.infer<ReturnType<typeof schemas>['event']>;
