import type { HttpProviderOptions } from '../http/http-provider-options.js';

/** Reasoning effort of a reasoning model, sent as `reasoning.effort`. */
export type OpenAIResponsesReasoningEffort = 'minimal' | 'low' | 'medium' | 'high';

/** Options of `createOpenAIResponsesModel`. Transport options (key, fetch, retries, pricing …) come from `HttpProviderOptions`. */
export interface OpenAIResponsesModelOptions extends HttpProviderOptions {
  /**
   * The API key (sent as `Authorization: Bearer`). Required for the default endpoint
   * (api.openai.com); optional for a Responses-compatible server given as `baseUrl`.
   */
  apiKey?: HttpProviderOptions['apiKey'];
  /** The model id sent as `model`, e.g. `gpt-5-mini`. */
  model: string;
  /**
   * The API base URL, to which `/responses` is appended. Must be `https:`, or `http:` on a loopback
   * host unless `allowInsecureHttp` is set.
   * @default 'https://api.openai.com/v1'
   */
  baseUrl?: string | undefined;
  /**
   * Sampling temperature sent as `temperature` (reasoning models reject it).
   * @default undefined (the server's default)
   */
  temperature?: number | undefined;
  /**
   * Output-token cap (reasoning included) sent as `max_output_tokens`.
   * @default undefined (the server's default)
   */
  maxTokens?: number | undefined;
  /**
   * Reasoning effort, sent as `reasoning.effort`.
   * @default undefined (the model's default)
   */
  reasoningEffort?: OpenAIResponsesReasoningEffort | undefined;
  /**
   * Whether OpenAI stores the response (`store`). Reasoning items (kept in the transcript) are
   * carried across tool steps by id; without storage only with their encrypted content
   * (`includeEncryptedReasoning`).
   * @default false
   */
  store?: boolean | undefined;
  /**
   * Asks for `include: ['reasoning.encrypted_content']`, so that with `store: false` a reasoning
   * model's reasoning items can be sent back with the tool steps they produced. Models without
   * reasoning may reject the field; leave it off for them.
   * @default true when `store` is false and `reasoningEffort` is set, else false
   */
  includeEncryptedReasoning?: boolean | undefined;
  /**
   * Extra top-level body fields (e.g. `service_tier`, `prompt_cache_key`, `text`). They cannot
   * replace `model`, `input`, `instructions`, `tools`, `tool_choice`, `stream`, `store`,
   * `include`, `reasoning`, `max_output_tokens` or `temperature`. A turn with an `output` schema
   * sets `text.format`; the other `text` fields (e.g. `verbosity`) are kept.
   * @default {}
   */
  extraBody?: Readonly<Record<string, unknown>> | undefined;
}

/** Defaults of `OpenAIResponsesModelOptions` (transport defaults are in `DEFAULT_HTTP_PROVIDER_OPTIONS`). */
export const DEFAULT_OPENAI_RESPONSES_MODEL_OPTIONS: Readonly<{ baseUrl: string; store: boolean }> = /* @__PURE__ */ Object.freeze({
  baseUrl: 'https://api.openai.com/v1',
  store: false,
});
