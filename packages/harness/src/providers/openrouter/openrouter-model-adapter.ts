import type { HarnessModelAdapter, HarnessModelInput, HarnessModelOutput, HarnessModelStreamPart } from '../../core/types/model.js';
import type { OpenAICompatibleModelOptions } from '../openai-compatible/openai-compatible-model-options.js';
import { createChatCompletionsModel } from '../openai-compatible/create-chat-completions-model.js';
import type { OpenAICompatibleModel } from '../openai-compatible/openai-compatible-model.js';
import { DEFAULT_OPENROUTER_OPTIONS, openRouterAttributionHeaders, type OpenRouterBaseOptions } from './openrouter-options.js';

/** Options of `OpenRouterModelAdapter` / `createOpenRouterModelAdapter`. */
export interface OpenRouterModelAdapterOptions
  extends OpenRouterBaseOptions,
    Pick<OpenAICompatibleModelOptions, 'includeStreamUsage' | 'developerRole'> {}

/**
 * A `HarnessModelAdapter` for OpenRouter's chat completions: native tool calling, streaming,
 * retries with backoff and `Retry-After`, and usage with `usage.cost` mapped to `costUnits`, so
 * `limits.budgetLimit` works in USD. Without `apiKey`, the key is `OPENROUTER_API_KEY` for the
 * default `https://openrouter.ai` (unset: a step returns a non-retryable `provider_error`), and none
 * for any other `baseUrl` — the variable never goes to another host. History, attachments, structured output and
 * tool choice map as in `createOpenAICompatibleModel`; `reasoning` streams as `reasoning_delta` and
 * `reasoning_details` are replayed on the next tool step (Anthropic and Gemini thinking need them).
 * @example
 * ```ts
 * const model = new OpenRouterModelAdapter({ model: 'openai/gpt-5-mini', appName: 'My assistant' });
 * const harness = createHarness({ model, tools, limits: { budgetLimit: 0.05 } });
 * ```
 */
export class OpenRouterModelAdapter implements HarnessModelAdapter {
  /** The configured model id. */
  readonly model: string;
  /** The `contextWindow` option: the model's context window in tokens, when given. */
  readonly contextWindow: number | undefined;
  readonly #inner: OpenAICompatibleModel;

  /** @throws HarnessConfigError for an invalid option. */
  constructor(options: OpenRouterModelAdapterOptions = {}) {
    this.#inner = createChatCompletionsModel(
      {
        ...options,
        baseUrl: options.baseUrl ?? DEFAULT_OPENROUTER_OPTIONS.baseUrl,
        model: options.model ?? DEFAULT_OPENROUTER_OPTIONS.model,
        providerName: 'openrouter',
      },
      {
        label: 'OpenRouter',
        headers: openRouterAttributionHeaders(options),
      },
    );
    this.model = this.#inner.model;
    this.contextWindow = this.#inner.contextWindow;
  }

  /** Runs one model step with a single JSON request (retried on transient failures). */
  nextStep(input: HarnessModelInput): Promise<HarnessModelOutput> {
    return this.#inner.nextStep(input);
  }

  /** Runs one model step over SSE, yielding text deltas and then the output. */
  streamStep(input: HarnessModelInput): AsyncIterable<HarnessModelStreamPart> {
    return this.#inner.streamStep(input);
  }
}

/** Creates an `OpenRouterModelAdapter`. */
export function createOpenRouterModelAdapter(options: OpenRouterModelAdapterOptions = {}): OpenRouterModelAdapter {
  return new OpenRouterModelAdapter(options);
}
