import type { HttpProviderOptions } from '../http/http-provider-options.js';
import type { ApiKeySource } from '../http/resolve-api-key.js';

/** Options of `createAnthropicModel`. Transport options (fetch, retries, timeouts …) come from `HttpProviderOptions`. */
export interface AnthropicModelOptions extends HttpProviderOptions {
  /**
   * The API key (sent as `x-api-key`), `{ env: 'NAME' }` to read it at call time, or `null` for none.
   * @default undefined: `ANTHROPIC_API_KEY` for `https://api.anthropic.com`, no key for any other `baseUrl`
   */
  apiKey?: ApiKeySource | null | undefined;
  /** The model id, e.g. `claude-sonnet-4-5`. */
  model: string;
  /** Output-token cap sent as `max_tokens` (the Messages API requires it). */
  maxTokens: number;
  /**
   * The API base URL; `/messages` is appended.
   * @default 'https://api.anthropic.com/v1'
   */
  baseUrl?: string | undefined;
  /**
   * Sampling temperature.
   * @default undefined (the model's default)
   */
  temperature?: number | undefined;
  /**
   * The `anthropic-version` header.
   * @default '2023-06-01'
   */
  anthropicVersion?: string | undefined;
  /**
   * Extra top-level body fields (e.g. `thinking`, `metadata`). They cannot replace `model`,
   * `messages`, `system`, `tools`, `tool_choice`, `max_tokens` or `stream`. With `thinking` on
   * (`type` other than `'disabled'`), thinking blocks are kept and replayed in tool loops, a
   * structured `output` is asked for without forcing the answer tool, and the tool choices
   * `required` and `{ name }` are refused (`tool_choice_unsupported`), as the API takes only
   * `auto` and `none` with thinking.
   * @default {}
   */
  extraBody?: Readonly<Record<string, unknown>> | undefined;
}

/** Defaults of `AnthropicModelOptions`. */
export const DEFAULT_ANTHROPIC_MODEL_OPTIONS: Readonly<{ baseUrl: string; anthropicVersion: string }> = /* @__PURE__ */ Object.freeze({
  baseUrl: 'https://api.anthropic.com/v1',
  anthropicVersion: '2023-06-01',
});
