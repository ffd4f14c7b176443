export { createGeminiModel, type GeminiModel } from './create-gemini-model.js';
export { DEFAULT_GEMINI_MODEL_OPTIONS, type GeminiModelOptions } from './gemini-model-options.js';
