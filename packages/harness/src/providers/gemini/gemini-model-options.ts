import type { HttpProviderOptions } from '../http/http-provider-options.js';

/** Options of `createGeminiModel`. Transport options (key, fetch, retries, pricing …) come from `HttpProviderOptions`. */
export interface GeminiModelOptions extends HttpProviderOptions {
  /**
   * The API key, sent only in the `x-goog-api-key` header (never in the URL). Required for the
   * default endpoint (generativelanguage.googleapis.com); optional for a compatible server given
   * as `baseUrl`.
   */
  apiKey?: HttpProviderOptions['apiKey'];
  /** The model, e.g. `gemini-2.5-flash` (a leading `models/` is accepted). */
  model: string;
  /**
   * The API base URL, to which `/models/{model}:generateContent` (or
   * `:streamGenerateContent?alt=sse`) is appended. Must be `https:`, or `http:` on a loopback host
   * unless `allowInsecureHttp` is set.
   * @default 'https://generativelanguage.googleapis.com/v1beta'
   */
  baseUrl?: string | undefined;
  /**
   * Sampling temperature, sent as `generationConfig.temperature`.
   * @default undefined (the model's default)
   */
  temperature?: number | undefined;
  /**
   * Output-token cap, sent as `generationConfig.maxOutputTokens`.
   * @default undefined (the model's default)
   */
  maxTokens?: number | undefined;
  /**
   * Further `generationConfig` fields (e.g. `thinkingConfig`, `topP`, `seed`); `temperature` and
   * `maxTokens` above win over the same keys here, and a turn's `output` schema over
   * `responseMimeType`, `responseSchema` and `responseJsonSchema`.
   * @default {}
   */
  generationConfig?: Readonly<Record<string, unknown>> | undefined;
  /**
   * Whether the model takes a JSON response schema together with function tools (Gemini 3 models
   * do; Gemini 2.5 models answer HTTP 400 "Function calling with a response mime type:
   * 'application/json' is unsupported"). When `false`, a step that offers tools asks for a turn's
   * `output` in `systemInstruction` (the schema as text) instead of `responseJsonSchema`; steps
   * without tools always ask natively. The harness validates the answer either way.
   * @default false
   */
  structuredOutputWithTools?: boolean | undefined;
  /**
   * Extra top-level body fields (e.g. `safetySettings`, `cachedContent`). They cannot replace
   * `contents`, `systemInstruction`, `tools`, `toolConfig` or `generationConfig`.
   * @default {}
   */
  extraBody?: Readonly<Record<string, unknown>> | undefined;
}

/** Defaults of `GeminiModelOptions` (transport defaults are in `DEFAULT_HTTP_PROVIDER_OPTIONS`). */
export const DEFAULT_GEMINI_MODEL_OPTIONS: Readonly<{ baseUrl: string }> = /* @__PURE__ */ Object.freeze({
  baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
});
