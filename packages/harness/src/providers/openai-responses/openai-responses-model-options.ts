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
   * carried across tool steps by id when stored; without storage, with their encrypted content
   * (`includeEncryptedReasoning`).
   * @default false
   */
  store?: boolean | undefined;
  /**
   * Asks for `include: ['reasoning.encrypted_content']`, so that with `store: false` a reasoning
   * model's reasoning items are sent back with the tool steps they produced (and after a resume).
   * Unset with `store: false`, it is asked for on every step unless the model id is known not to
   * reason (`gpt-4…`, `gpt-3.5…`, `chatgpt-…`); when the API refuses it (HTTP 400 "Encrypted
   * content is not supported with this model."), that step is sent once more without it, with a
   * note, and the adapter stops asking. `true` always asks, `false` never does.
   * @default asked for when `store` is false (see above); not with `store: true`
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
