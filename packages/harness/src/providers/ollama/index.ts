export { createOllamaModel, type OllamaModel } from './create-ollama-model.js';
export { DEFAULT_OLLAMA_MODEL_OPTIONS, type OllamaKeepAlive, type OllamaModelOptions } from './ollama-model-options.js';
