import type { HttpProviderOptions } from '../http/http-provider-options.js';

/** Options of `createOpenAICompatibleModel`. Transport options (key, fetch, retries …) come from `HttpProviderOptions`. */
export interface OpenAICompatibleModelOptions extends HttpProviderOptions {
  /**
   * The API base URL, to which `/chat/completions` is appended — e.g. `https://openrouter.ai/api/v1`,
   * `http://localhost:11434/v1` (Ollama), `http://127.0.0.1:8000/v1` (vLLM, llama.cpp). Must be
   * `https:`, or `http:` on a loopback host.
   */
  baseUrl: string;
  /** The model id sent as `model`. */
  model: string;
  /**
   * Sampling temperature sent as `temperature`.
   * @default undefined (the server's default)
   */
  temperature?: number | undefined;
  /**
   * Output-token cap sent as `max_tokens`.
   * @default undefined (the server's default)
   */
  maxTokens?: number | undefined;
  /**
   * Extra top-level body fields (e.g. OpenRouter `provider` routing, `top_p`). They cannot replace
   * `model`, `messages`, `tools`, `tool_choice`, `stream` or `stream_options`; a turn's `output`
   * schema replaces `response_format`.
   * @default {}
   */
  extraBody?: Readonly<Record<string, unknown>> | undefined;
  /**
   * Asks for usage in the last stream chunk (`stream_options.include_usage`). Turn off for servers
   * that reject the field.
   * @default true
   */
  includeStreamUsage?: boolean | undefined;
  /**
   * Role of the developer prompt message.
   * @default 'system'
   */
  developerRole?: 'system' | 'developer' | undefined;
  /**
   * Provider name written to output metadata (`metadata.provider`).
   * @default 'openai-compatible'
   */
  providerName?: string | undefined;
  /**
   * How a named tool choice (`toolChoice: { name }`) is sent. `'function'`: `tool_choice: { type:
   * 'function', function: { name } }`, as OpenAI documents it. `'required'`: `tool_choice:
   * 'required'` with only that tool in `tools` — for servers that read `tool_choice` only as a
   * string and treat the object form as `'auto'` (llama.cpp's `llama-server`), so the choice still holds.
   * @default 'function'
   */
  namedToolChoice?: 'function' | 'required' | undefined;
}

/** Defaults of `OpenAICompatibleModelOptions` (transport defaults are in `DEFAULT_HTTP_PROVIDER_OPTIONS`). */
export const DEFAULT_OPENAI_COMPATIBLE_MODEL_OPTIONS: Readonly<{
  includeStreamUsage: boolean;
  developerRole: 'system' | 'developer';
  providerName: string;
  namedToolChoice: 'function' | 'required';
}> = /* @__PURE__ */ Object.freeze({ includeStreamUsage: true, developerRole: 'system', providerName: 'openai-compatible', namedToolChoice: 'function' });
