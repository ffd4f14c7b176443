import * as v from '../../shared/validation/index.js';
import { lazySchema, memo } from '../../shared/schemas/lazy-schema.js';

/**
 * A part of a Gemini request content: text (with the thought signature Gemini put on it), inline
 * data (base64), a file by URI, a function call (with its thought signature) or a function response.
 */
export type GeminiPart =
  | { text: string; thoughtSignature?: string }
  | { inlineData: { mimeType: string; data: string } }
  | { fileData: { mimeType: string; fileUri: string } }
  | { functionCall: { name: string; args: Record<string, unknown>; id?: string }; thoughtSignature?: string }
  | { functionResponse: { name: string; response: Record<string, unknown>; id?: string } };

/** A content of a Gemini request: the user's turn (text, function responses) or the model's. */
export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

/** A function a Gemini model may call, described with JSON Schema (`parametersJsonSchema`). */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parametersJsonSchema: Record<string, unknown>;
}

const schemas = /* @__PURE__ */ memo(() => {
  const count = v.optional(v.nullable(v.number()));
  const nullableString = v.optional(v.nullable(v.string()));
  const part = v.object({
    text: nullableString,
    thought: v.optional(v.nullable(v.boolean())),
    thoughtSignature: nullableString,
    functionCall: v.optional(
      v.nullable(v.object({ id: nullableString, name: nullableString, args: v.optional(v.nullable(v.unknown())) })),
    ),
  });
  const candidate = v.object({
    content: v.optional(v.nullable(v.object({ role: nullableString, parts: v.optional(v.nullable(v.array(part))) }))),
    finishReason: nullableString,
    finishMessage: nullableString,
  });
  const response = v.object({
    candidates: v.optional(v.nullable(v.array(candidate))),
    promptFeedback: v.optional(v.nullable(v.object({ blockReason: nullableString, blockReasonMessage: nullableString }))),
    usageMetadata: v.optional(
      v.nullable(
        v.object({
          promptTokenCount: count,
          candidatesTokenCount: count,
          cachedContentTokenCount: count,
          thoughtsTokenCount: count,
          toolUsePromptTokenCount: count,
        }),
      ),
    ),
    modelVersion: nullableString,
    responseId: nullableString,
    error: v.optional(v.nullable(v.object({ code: count, message: nullableString, status: nullableString }))),
  });
  return { response };
});

/** Validates a `GenerateContentResponse` (a whole response, or one streamed chunk); unknown fields are ignored. */
export const geminiResponseSchema = /* @__PURE__ */ lazySchema(() => schemas().response);

/** A parsed `GenerateContentResponse`. */
export type GeminiResponse = v.infer<ReturnType<typeof schemas>['response']>;

/** A parsed content part of a Gemini response. */
export type GeminiResponsePart = NonNullable<NonNullable<NonNullable<GeminiResponse['candidates']>[number]['content']>['parts']>[number];
