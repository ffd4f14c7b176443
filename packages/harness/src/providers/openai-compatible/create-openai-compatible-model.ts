import { createChatCompletionsModel } from './create-chat-completions-model.js';
import type { OpenAICompatibleModel } from './openai-compatible-model.js';
import type { OpenAICompatibleModelOptions } from './openai-compatible-model-options.js';

/**
 * Creates a `HarnessModelAdapter` for any OpenAI-compatible chat-completions server (OpenAI,
 * OpenRouter, Ollama, vLLM, llama.cpp …), with native tool calling, streaming (`streamStep`),
 * retries and usage. Conversation `history`, image and file attachments (`image_url` / `file`
 * parts), structured output (`response_format` `json_schema`), `toolChoice` and reasoning
 * (`reasoning_content` / `reasoning` → `reasoning_delta`; OpenRouter `reasoning_details` replayed in
 * tool loops) are mapped; what the API cannot take ends the step with `attachments_unsupported` or
 * `tool_choice_unsupported`, nothing sent. The API key follows the rule of every provider: `apiKey` when given
 * (`null`: none); else `OPENAI_API_KEY` for `https://api.openai.com` (and each provider's own variable on its own
 * host, e.g. `OPENROUTER_API_KEY` on `openrouter.ai`); else none (local servers need none). A key source that
 * yields nothing at call time ends the step with a non-retryable `provider_error` naming the variable.
 * @throws HarnessConfigError for an invalid option (e.g. a plain-`http:` URL that is not loopback).
 * @example
 * ```ts
 * const model = createOpenAICompatibleModel({ baseUrl: 'http://localhost:11434/v1', model: 'llama3.1' });
 * const harness = createHarness({ model, tools });
 * ```
 */
export function createOpenAICompatibleModel(options: OpenAICompatibleModelOptions): OpenAICompatibleModel {
  return createChatCompletionsModel(options, { label: 'OpenAI-compatible' });
}
