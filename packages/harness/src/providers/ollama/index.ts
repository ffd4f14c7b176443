export { createOllamaModel, type OllamaModel } from './create-ollama-model.js';
export { DEFAULT_OLLAMA_MODEL_OPTIONS, type OllamaKeepAlive, type OllamaModelOptions } from './ollama-model-options.js';
export { convertToOllamaMessages, convertToOllamaTools, type OllamaConversation } from './convert-to-ollama-messages.js';
export type { OllamaMessage, OllamaTool, OllamaToolCall } from './ollama-api-types.js';
