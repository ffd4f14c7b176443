/**
 * HTTP model providers over `fetch` (Worker-safe): OpenAI-compatible chat completions, OpenRouter
 * (model and execution adapters), the Anthropic Messages API, the OpenAI Responses API, Gemini and
 * native Ollama, with retries, SSE streaming,
 * an endpoint policy and key redaction.
 */
export * from './http/index.js';
export * from './openai-compatible/index.js';
export * from './openrouter/index.js';
export * from './anthropic/index.js';
export * from './ollama/index.js';
export * from './openai-responses/index.js';
export * from './gemini/index.js';
export * from './pricing/index.js';
export * from './profiles/index.js';
export type { ModelFinishReason } from './model-finish-reason.js';
