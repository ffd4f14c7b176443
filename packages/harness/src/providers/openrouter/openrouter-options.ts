import type { HttpProviderOptions } from '../http/http-provider-options.js';

/** Options shared by the OpenRouter model and execution adapters. */
export interface OpenRouterBaseOptions extends HttpProviderOptions {
  /**
   * The OpenRouter model id, e.g. `anthropic/claude-sonnet-4.5`.
   * @default 'openai/gpt-5-mini'
   */
  model?: string | undefined;
  /**
   * The API base URL; `/chat/completions` is appended. Point it at a fake server in tests.
   * @default 'https://openrouter.ai/api/v1'
   */
  baseUrl?: string | undefined;
  /**
   * Your app's URL, sent as the `HTTP-Referer` attribution header.
   * @default undefined (not sent)
   */
  appUrl?: string | undefined;
  /**
   * Your app's name, sent as the `X-Title` attribution header.
   * @default undefined (not sent)
   */
  appName?: string | undefined;
  /**
   * Sampling temperature.
   * @default undefined (the model's default)
   */
  temperature?: number | undefined;
  /**
   * Output-token cap sent as `max_tokens`.
   * @default undefined (the model's default)
   */
  maxTokens?: number | undefined;
  /**
   * Extra body fields, e.g. `{ provider: { order: ['anthropic'] } }` or `{ reasoning: { effort: 'low' } }`.
   * @default {}
   */
  extraBody?: Readonly<Record<string, unknown>> | undefined;
}

/** Defaults of the OpenRouter adapters. `apiKeyEnv` is the variable read for `https://openrouter.ai` when no `apiKey` is given. */
export const DEFAULT_OPENROUTER_OPTIONS: Readonly<{ model: string; baseUrl: string; apiKeyEnv: string }> = /* @__PURE__ */ Object.freeze({
  model: 'openai/gpt-5-mini',
  baseUrl: 'https://openrouter.ai/api/v1',
  apiKeyEnv: 'OPENROUTER_API_KEY',
});

/** The attribution headers for the given options. */
export function openRouterAttributionHeaders(options: Pick<OpenRouterBaseOptions, 'appUrl' | 'appName'>): Record<string, string> {
  return {
    ...(options.appUrl === undefined ? {} : { 'HTTP-Referer': options.appUrl }),
    ...(options.appName === undefined ? {} : { 'X-Title': options.appName }),
  };
}
