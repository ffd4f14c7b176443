import type { HttpProviderOptions } from '../http/http-provider-options.js';

/** How long Ollama keeps the model loaded after a call: a duration such as `'10m'` or `'1h30m'`, seconds as a number, `0` to unload at once, a negative value to keep it loaded. */
export type OllamaKeepAlive = string | number;

/**
 * Options of `createOllamaModel`. Transport options (key, fetch, retries, pricing …) come from
 * `HttpProviderOptions`; a key is optional (sent as `Authorization: Bearer`, for ollama.com or a
 * proxy in front of Ollama).
 */
export interface OllamaModelOptions extends HttpProviderOptions {
  /** The model name, e.g. `qwen3:8b`. */
  model: string;
  /**
   * The server's base URL; `/api/chat` is appended. Must be `https:`, or `http:` on a loopback
   * host unless `allowInsecureHttp` is set.
   * @default 'http://localhost:11434'
   */
  baseUrl?: string | undefined;
  /**
   * Sent as `keep_alive`: how long the model stays loaded after the call.
   * @default undefined (the server's default, 5 minutes)
   */
  keepAlive?: OllamaKeepAlive | undefined;
  /**
   * Sampling temperature, sent as `options.temperature`.
   * @default undefined (the model's default)
   */
  temperature?: number | undefined;
  /**
   * Output-token cap, sent as `options.num_predict`.
   * @default undefined (the model's default)
   */
  maxTokens?: number | undefined;
  /**
   * Further runtime options sent in `options` (e.g. `num_ctx`, `top_p`, `seed`); `temperature` and
   * `maxTokens` above win over the same keys here.
   * @default {}
   */
  modelOptions?: Readonly<Record<string, unknown>> | undefined;
  /**
   * Sent as `think` for thinking models. The thinking (`message.thinking`) streams as
   * `reasoning_delta` parts and is kept in `output.reasoning`; it is never part of the answer.
   * @default undefined (the model's default)
   */
  think?: boolean | 'low' | 'medium' | 'high' | undefined;
  /**
   * Extra top-level body fields (e.g. `format: 'json'`). They cannot replace `model`, `messages`,
   * `tools`, `stream`, `keep_alive`, `options` or `think`; a turn's `output` schema replaces `format`.
   * @default {}
   */
  extraBody?: Readonly<Record<string, unknown>> | undefined;
}

/** Defaults of `OllamaModelOptions`. */
export const DEFAULT_OLLAMA_MODEL_OPTIONS: Readonly<{ baseUrl: string }> = /* @__PURE__ */ Object.freeze({ baseUrl: 'http://localhost:11434' });
