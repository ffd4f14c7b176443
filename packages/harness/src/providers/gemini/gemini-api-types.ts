import * as z from '../../shared/validation/index.js';
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
  const count = z.optional(z.nullable(z.number()));
  const nullableString = z.optional(z.nullable(z.string()));
  const part = z.object({
    text: nullableString,
    thought: z.optional(z.nullable(z.boolean())),
    thoughtSignature: nullableString,
    functionCall: z.optional(
      z.nullable(z.object({ id: nullableString, name: nullableString, args: z.optional(z.nullable(z.unknown())) })),
    ),
  });
  const candidate = z.object({
    content: z.optional(z.nullable(z.object({ role: nullableString, parts: z.optional(z.nullable(z.array(part))) }))),
    finishReason: nullableString,
    finishMessage: nullableString,
  });
  const response = z.object({
    candidates: z.optional(z.nullable(z.array(candidate))),
    promptFeedback: z.optional(z.nullable(z.object({ blockReason: nullableString, blockReasonMessage: nullableString }))),
    usageMetadata: z.optional(
      z.nullable(
        z.object({
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
    error: z.optional(z.nullable(z.object({ code: count, message: nullableString, status: nullableString }))),
  });
  return { response };
});

/** Validates a `GenerateContentResponse` (a whole response, or one streamed chunk); unknown fields are ignored. */
export const geminiResponseSchema = /* @__PURE__ */ lazySchema(() => schemas().response);

/** A parsed `GenerateContentResponse`. */
export type GeminiResponse = z.infer<ReturnType<typeof schemas>['response']>;

/** A parsed content part of a Gemini response. */
export type GeminiResponsePart = NonNullable<NonNullable<NonNullable<GeminiResponse['candidates']>[number]['content']>['parts']>[number];
