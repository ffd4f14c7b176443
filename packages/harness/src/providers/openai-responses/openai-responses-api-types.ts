import * as z from '../../shared/validation/index.js';
import { lazySchema, memo } from '../../shared/schemas/lazy-schema.js';

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
  const nullableString = z.optional(z.nullable(z.string()));
  const content = z.object({ type: z.string(), text: nullableString, refusal: nullableString });
  const item = z.object({
    type: z.string(),
    id: nullableString,
    status: nullableString,
    role: nullableString,
    content: z.optional(z.nullable(z.array(content))),
    call_id: nullableString,
    name: nullableString,
    arguments: nullableString,
    summary: z.optional(z.nullable(z.array(z.unknown()))),
    encrypted_content: nullableString,
  });
  const response = z.object({
    id: nullableString,
    status: nullableString,
    model: nullableString,
    output: z.optional(z.nullable(z.array(item))),
    usage: z.optional(z.unknown()),
    // Read by `readProviderError`, whatever its shape.
    error: z.optional(z.unknown()),
    incomplete_details: z.optional(z.nullable(z.object({ reason: nullableString }))),
  });
  const event = z.object({
    type: z.string(),
    output_index: z.optional(z.nullable(z.number())),
    content_index: z.optional(z.nullable(z.number())),
    delta: nullableString,
    arguments: nullableString,
    item: z.optional(z.nullable(item)),
    response: z.optional(z.nullable(response)),
    // An `error` event's code and message: top-level (as documented) or nested in `error` (as sent).
    code: z.optional(z.unknown()),
    message: z.optional(z.unknown()),
    error: z.optional(z.unknown()),
    summary_index: z.optional(z.nullable(z.number())),
  });
  return { response, event };
});

/** Validates a Responses API response object (unknown fields are ignored). */
export const openAIResponsesResponseSchema = /* @__PURE__ */ lazySchema(() => schemas().response);

/** Validates one Responses API stream event (unknown fields are ignored). */
export const openAIResponsesStreamEventSchema = /* @__PURE__ */ lazySchema(() => schemas().event);

/** A parsed Responses API response. */
export type OpenAIResponsesResponse = z.infer<ReturnType<typeof schemas>['response']>;

/** A parsed Responses API output item. */
export type OpenAIResponsesOutputItem = NonNullable<OpenAIResponsesResponse['output']>[number];

/** A parsed Responses API stream event. */
export type OpenAIResponsesStreamEvent = z.infer<ReturnType<typeof schemas>['event']>;
