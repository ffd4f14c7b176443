/**
 * HTTP model providers over `fetch` (Worker-safe): OpenAI-compatible chat completions, OpenRouter
 * (model and execution adapters) and the Anthropic Messages API, with retries, SSE streaming,
 * an endpoint policy and key redaction.
 */
export * from './http/index.js';
export * from './openai-compatible/index.js';
export * from './openrouter/index.js';
export * from './anthropic/index.js';
export * from './ollama/index.js';
export * from './openai-responses/index.js';
export * from './pricing/index.js';
export * from './profiles/index.js';
export type { ModelFinishReason } from './model-finish-reason.js';
